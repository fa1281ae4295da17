import { z } from "zod";
import { ApproveBody, CancelBody, InputBody, RejectBody, StartRunBody } from "../../workflows/yaml/schemas";
import { analystProcedure, operatorProcedure, reviewerProcedure, router } from "../trpc";

const RunRef = z.object({ runId: z.string().min(1) });
const NodeRef = RunRef.extend({ nodeId: z.string().min(1) });
const Yaml = z.object({ yaml: z.string().min(1, "yaml must not be empty") });

export const workflowsRouter = router({
  list: analystProcedure.query(({ ctx }) => ctx.workflows.queries.listWorkflows()),
  get: analystProcedure.input(z.object({ name: z.string().min(1) })).query(({ ctx, input }) => ctx.workflows.queries.getWorkflow(input.name)),
  validate: analystProcedure.meta({ changes: false }).input(Yaml).mutation(({ ctx, input }) => ctx.workflows.commands.validate(input.yaml)),
  register: operatorProcedure.input(Yaml).mutation(({ ctx, input }) => ctx.workflows.commands.register(input.yaml)),
  start: analystProcedure.input(StartRunBody.extend({ name: z.string().min(1) })).mutation(({ ctx, input }) => ctx.workflows.commands.startRun(input.name, input)),
  runs: analystProcedure
    .input(z.object({ workflow: z.string().optional() }).optional())
    .query(({ ctx, input }) => ctx.workflows.queries.listRuns({ workflow: input?.workflow })),
  run: analystProcedure.input(RunRef).query(({ ctx, input }) => ctx.workflows.queries.getRun(input.runId)),
  conversation: analystProcedure.input(RunRef).query(({ ctx, input }) => ctx.workflows.queries.conversation(input.runId)),
  approve: reviewerProcedure.input(NodeRef.extend(ApproveBody.shape)).mutation(({ ctx, input }) => ctx.workflows.commands.approve(input.runId, input.nodeId, input.comment, ctx.actor)),
  reject: reviewerProcedure.input(NodeRef.extend(RejectBody.shape)).mutation(({ ctx, input }) => ctx.workflows.commands.reject(input.runId, input.nodeId, input.reason, ctx.actor)),
  input: reviewerProcedure.input(NodeRef.extend(InputBody.shape)).mutation(({ ctx, input }) => ctx.workflows.commands.input(input.runId, input.nodeId, input.text, ctx.actor)),
  retry: operatorProcedure.input(NodeRef).mutation(({ ctx, input }) => ctx.workflows.commands.retry(input.runId, input.nodeId, ctx.actor)),
  cancel: operatorProcedure.input(RunRef.extend(CancelBody.shape)).mutation(({ ctx, input }) => ctx.workflows.commands.cancel(input.runId, input.reason, ctx.actor)),
  resume: operatorProcedure.input(RunRef).mutation(({ ctx, input }) => ctx.workflows.commands.resume(input.runId, ctx.actor)),
});
