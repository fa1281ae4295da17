import { z } from "zod";
import { CancelBody } from "../../engine/schemas";
import { ApproveBody, CreateRunBody, RejectBody } from "../../pipeline/schemas";
import { publicProcedure, router } from "../trpc";

const RunRef = z.object({ runId: z.string().min(1) });

export const pipelineRouter = router({
  agents: publicProcedure.query(({ ctx }) => ctx.pipeline.queries.listAgents()),
  createRun: publicProcedure.input(CreateRunBody).mutation(({ ctx, input }) => ctx.pipeline.commands.createRun(input)),
  listRuns: publicProcedure.query(({ ctx }) => ctx.pipeline.queries.listRuns()),
  getRun: publicProcedure.input(RunRef).query(({ ctx, input }) => ctx.pipeline.queries.getRun(input.runId)),
  conversation: publicProcedure.input(RunRef).query(({ ctx, input }) => ctx.pipeline.queries.conversation(input.runId)),
  approve: publicProcedure
    .input(RunRef.extend(ApproveBody.shape))
    .mutation(({ ctx, input }) => ctx.pipeline.commands.approve(input.runId, ctx.actor, input.expected)),
  reject: publicProcedure
    .input(RunRef.extend(RejectBody.shape))
    .mutation(({ ctx, input }) => ctx.pipeline.commands.reject(input.runId, input.feedback, ctx.actor, input.expected)),
  retry: publicProcedure.input(RunRef).mutation(({ ctx, input }) => ctx.pipeline.commands.retry(input.runId, ctx.actor)),
  cancel: publicProcedure.input(RunRef.extend(CancelBody.shape)).mutation(({ ctx, input }) => ctx.pipeline.commands.cancel(input.runId, input.reason, ctx.actor)),
  export: publicProcedure.input(RunRef).query(({ ctx, input }) => ctx.pipeline.queries.exportRun(input.runId)),
});
