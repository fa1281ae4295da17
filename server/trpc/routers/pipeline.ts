import { z } from "zod";
import { CancelBody } from "../../engine/schemas";
import { PageParams } from "../../lib/paging";
import { ApproveBody, CreateRunBody, EditBriefBody, RejectBody } from "../../pipeline/schemas";
import { analystProcedure, operatorProcedure, reviewerProcedure, router } from "../trpc";

const RunRef = z.object({ runId: z.string().min(1) });

export const pipelineRouter = router({
  agents: analystProcedure.query(({ ctx }) => ctx.pipeline.queries.listAgents()),
  createRun: analystProcedure.input(CreateRunBody).mutation(({ ctx, input }) => ctx.pipeline.commands.createRun(input, ctx.starter)),
  /** A page of runs, newest first; `cursor` is `before` under the name tRPC's infinite queries give it. */
  listRuns: analystProcedure
    .input(PageParams.extend({ cursor: PageParams.shape.before.nullish() }).optional())
    .query(({ ctx, input }) => ctx.pipeline.queries.listRuns({ limit: input?.limit, before: input?.before ?? input?.cursor ?? undefined })),
  /** Whether anything the run list shows has changed: the one read the sidebar polls. */
  listChanges: analystProcedure.query(({ ctx }) => ctx.pipeline.queries.listChanges()),
  getRun: analystProcedure.input(RunRef).query(({ ctx, input }) => ctx.pipeline.queries.getRun(input.runId)),
  conversation: analystProcedure.input(RunRef).query(({ ctx, input }) => ctx.pipeline.queries.conversation(input.runId)),
  /** Whether anything the run's conversation shows has changed: the one read an open conversation polls. */
  changes: analystProcedure.input(RunRef).query(({ ctx, input }) => ctx.pipeline.queries.changes(input.runId)),
  approve: reviewerProcedure
    .input(RunRef.extend(ApproveBody.shape))
    .mutation(({ ctx, input }) => ctx.pipeline.commands.approve(input.runId, ctx.identity, input.expected, input.comment)),
  reject: reviewerProcedure
    .input(RunRef.extend(RejectBody.shape))
    .mutation(({ ctx, input }) => ctx.pipeline.commands.reject(input.runId, input.feedback, ctx.identity, input.expected)),
  retry: operatorProcedure.input(RunRef).mutation(({ ctx, input }) => ctx.pipeline.commands.retry(input.runId, ctx.actor)),
  /** An operator cancels any run, an analyst the runs she submitted (the commands decide). */
  cancel: analystProcedure.input(RunRef.extend(CancelBody.shape)).mutation(({ ctx, input }) => ctx.pipeline.commands.cancel(input.runId, input.reason, ctx.identity)),
  editBrief: analystProcedure.input(RunRef.extend(EditBriefBody.shape)).mutation(({ ctx, input }) => ctx.pipeline.commands.editBrief(input.runId, input.brief, ctx.identity)),
  export: analystProcedure.input(RunRef).query(({ ctx, input }) => ctx.pipeline.queries.exportRun(input.runId)),
});
