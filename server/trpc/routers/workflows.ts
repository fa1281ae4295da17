import { z } from "zod";
import { GivenDefinition, StartAnyRunBody } from "../../workflows/schemas";
import { ApproveBody, CancelBody, InputBody, RejectBody } from "../../workflows/yaml/schemas";
import { analystProcedure, operatorProcedure, reviewerProcedure, router } from "../trpc";

const RunRef = z.object({ runId: z.string().min(1) });
const NodeRef = RunRef.extend({ nodeId: z.string().min(1) });

/**
 * The workflows for the app, through the workflows' door as REST's /api/workflows: a definition of either form, a
 * workflow by name and a run by id answered by the front door they belong to. The lists and the conversation are the
 * YAML workflows' own (a step run's is `steps.conversation`; the step workflows' lists `steps.list` and `steps.runs`).
 */
export const workflowsRouter = router({
  list: analystProcedure.query(({ ctx }) => ctx.workflows.queries.listWorkflows()),
  get: analystProcedure.input(z.object({ name: z.string().min(1) })).query(({ ctx, input }) => ctx.workflowDoor.queries.getWorkflow(input.name)),
  validate: analystProcedure.meta({ changes: false }).input(GivenDefinition).mutation(({ ctx, input }) => ctx.workflowDoor.commands.validate(input)),
  register: operatorProcedure.input(GivenDefinition).mutation(({ ctx, input }) => ctx.workflowDoor.commands.register(input)),
  start: analystProcedure.input(StartAnyRunBody.extend({ name: z.string().min(1) })).mutation(({ ctx, input }) => ctx.workflowDoor.commands.startRun(input.name, input, ctx.identity)),
  runs: analystProcedure
    .input(z.object({ workflow: z.string().optional() }).optional())
    .query(({ ctx, input }) => ctx.workflows.queries.listRuns({ workflow: input?.workflow })),
  run: analystProcedure.input(RunRef).query(({ ctx, input }) => ctx.workflowDoor.queries.getRun(input.runId)),
  conversation: analystProcedure.input(RunRef).query(({ ctx, input }) => ctx.workflows.queries.conversation(input.runId)),
  /** The one read an open run's conversation polls, of either format (a step run's too): its change marker, and whether the run can still change. */
  changes: analystProcedure.input(RunRef).query(({ ctx, input }) => ctx.workflowDoor.queries.changes(input.runId)),
  approve: reviewerProcedure.input(NodeRef.extend(ApproveBody.shape)).mutation(({ ctx, input }) => ctx.workflowDoor.commands.approve(input.runId, input.nodeId, input.comment, ctx.identity)),
  reject: reviewerProcedure.input(NodeRef.extend(RejectBody.shape)).mutation(({ ctx, input }) => ctx.workflowDoor.commands.reject(input.runId, input.nodeId, input.reason, ctx.identity)),
  input: reviewerProcedure.input(NodeRef.extend(InputBody.shape)).mutation(({ ctx, input }) => ctx.workflowDoor.commands.input(input.runId, input.nodeId, input.text, ctx.identity)),
  retry: operatorProcedure.input(NodeRef).mutation(({ ctx, input }) => ctx.workflowDoor.commands.retry(input.runId, input.nodeId, ctx.actor)),
  /** An operator cancels any run, an analyst the runs she started (the commands decide). */
  cancel: analystProcedure.input(RunRef.extend(CancelBody.shape)).mutation(({ ctx, input }) => ctx.workflowDoor.commands.cancel(input.runId, input.reason, ctx.identity)),
  resume: operatorProcedure.input(RunRef).mutation(({ ctx, input }) => ctx.workflowDoor.commands.resume(input.runId, ctx.actor)),
});
