import { z } from "zod";
import { ExecuteBody, StartStepRunBody, StepCancelBody } from "../../workflows/steps/schemas";
import { analystProcedure, operatorProcedure, router } from "../trpc";

const RunRef = z.object({ runId: z.string().min(1) });
const Name = z.object({ name: z.string().min(1) });
const Definition = z.object({ definition: z.record(z.string(), z.unknown()) });

/** The JSON step workflows (Summit-Flow) for the app: definitions, runs with their steps and outputs, the tools. */
export const stepsRouter = router({
  list: analystProcedure.query(({ ctx }) => ctx.steps.queries.listWorkflows()),
  get: analystProcedure.input(Name).query(({ ctx, input }) => ctx.steps.queries.getWorkflow(input.name)),
  tools: analystProcedure.query(({ ctx }) => ctx.steps.queries.listTools()),
  validate: analystProcedure.meta({ changes: false }).input(Definition).mutation(({ ctx, input }) => ctx.steps.commands.validate(input.definition)),
  register: operatorProcedure.input(Definition).mutation(({ ctx, input }) => ctx.steps.commands.register(input.definition)),
  /** Starts a run of the latest version of a stored step workflow (an analyst's form built from its `inputs`). */
  start: analystProcedure.input(StartStepRunBody.extend(Name.shape)).mutation(({ ctx, input }) => ctx.steps.commands.startRun(input.name, input.inputs, ctx.identity)),
  /** POST /api/workflows/execute without waiting: a stored workflow by id, or a definition given inline (an operator's). */
  execute: analystProcedure
    .input(ExecuteBody.pick({ workflow: true, inputs: true }))
    .mutation(({ ctx, input }) => ctx.workflowDoor.commands.execute(input.workflow, input.inputs, ctx.identity)),
  runs: analystProcedure
    .input(z.object({ workflow: z.string().optional() }).optional())
    .query(({ ctx, input }) => ctx.steps.queries.listRuns({ workflow: input?.workflow })),
  run: analystProcedure.input(RunRef).query(({ ctx, input }) => ctx.steps.queries.getRun(input.runId)),
  conversation: analystProcedure.input(RunRef).query(({ ctx, input }) => ctx.steps.queries.conversation(input.runId)),
  cancel: analystProcedure.input(RunRef.extend(StepCancelBody.shape)).mutation(({ ctx, input }) => ctx.steps.commands.cancel(input.runId, input.reason, ctx.identity)),
  resume: operatorProcedure.input(RunRef).mutation(({ ctx, input }) => ctx.steps.commands.resume(input.runId, ctx.actor)),
  retry: operatorProcedure.input(RunRef.extend({ stepId: z.string().min(1) })).mutation(({ ctx, input }) => ctx.steps.commands.retryStep(input.runId, input.stepId, ctx.actor)),
});
