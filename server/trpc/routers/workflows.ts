import { z } from "zod";
import { ApproveBody, CancelBody, InputBody, RejectBody, StartRunBody } from "../../workflows/yaml/schemas";
import { publicProcedure, router } from "../trpc";

const RunRef = z.object({ runId: z.string().min(1) });
const NodeRef = RunRef.extend({ nodeId: z.string().min(1) });
const Yaml = z.object({ yaml: z.string().min(1, "yaml must not be empty") });

export const workflowsRouter = router({
  list: publicProcedure.query(({ ctx }) => ctx.workflows.queries.listWorkflows()),
  get: publicProcedure.input(z.object({ name: z.string().min(1) })).query(({ ctx, input }) => ctx.workflows.queries.getWorkflow(input.name)),
  validate: publicProcedure.input(Yaml).mutation(({ ctx, input }) => ctx.workflows.commands.validate(input.yaml)),
  register: publicProcedure.input(Yaml).mutation(({ ctx, input }) => ctx.workflows.commands.register(input.yaml)),
  start: publicProcedure.input(StartRunBody.extend({ name: z.string().min(1) })).mutation(({ ctx, input }) => ctx.workflows.commands.startRun(input.name, input)),
  runs: publicProcedure
    .input(z.object({ workflow: z.string().optional() }).optional())
    .query(({ ctx, input }) => ctx.workflows.queries.listRuns({ workflow: input?.workflow })),
  run: publicProcedure.input(RunRef).query(({ ctx, input }) => ctx.workflows.queries.getRun(input.runId)),
  conversation: publicProcedure.input(RunRef).query(({ ctx, input }) => ctx.workflows.queries.conversation(input.runId)),
  approve: publicProcedure.input(NodeRef.extend(ApproveBody.shape)).mutation(({ ctx, input }) => ctx.workflows.commands.approve(input.runId, input.nodeId, input.comment, ctx.actor)),
  reject: publicProcedure.input(NodeRef.extend(RejectBody.shape)).mutation(({ ctx, input }) => ctx.workflows.commands.reject(input.runId, input.nodeId, input.reason, ctx.actor)),
  input: publicProcedure.input(NodeRef.extend(InputBody.shape)).mutation(({ ctx, input }) => ctx.workflows.commands.input(input.runId, input.nodeId, input.text, ctx.actor)),
  retry: publicProcedure.input(NodeRef).mutation(({ ctx, input }) => ctx.workflows.commands.retry(input.runId, input.nodeId, ctx.actor)),
  cancel: publicProcedure.input(RunRef.extend(CancelBody.shape)).mutation(({ ctx, input }) => ctx.workflows.commands.cancel(input.runId, input.reason, ctx.actor)),
  resume: publicProcedure.input(RunRef).mutation(({ ctx, input }) => ctx.workflows.commands.resume(input.runId, ctx.actor)),
});
