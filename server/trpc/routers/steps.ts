import { z } from "zod";
import { ExecuteBody, StartStepRunBody, StepCancelBody } from "../../workflows/steps/schemas";
import { publicProcedure, router } from "../trpc";

const RunRef = z.object({ runId: z.string().min(1) });
const Name = z.object({ name: z.string().min(1) });
const Definition = z.object({ definition: z.record(z.string(), z.unknown()) });

/** The JSON step workflows (Summit-Flow) for the app: definitions, runs with their steps and outputs, the tools. */
export const stepsRouter = router({
  list: publicProcedure.query(({ ctx }) => ctx.steps.queries.listWorkflows()),
  get: publicProcedure.input(Name).query(({ ctx, input }) => ctx.steps.queries.getWorkflow(input.name)),
  tools: publicProcedure.query(({ ctx }) => ctx.steps.queries.listTools()),
  validate: publicProcedure.input(Definition).mutation(({ ctx, input }) => ctx.steps.commands.validate(input.definition)),
  register: publicProcedure.input(Definition).mutation(({ ctx, input }) => ctx.steps.commands.register(input.definition)),
  /** Starts a run of the latest version of a stored step workflow (an analyst's form built from its `inputs`). */
  start: publicProcedure.input(StartStepRunBody.extend(Name.shape)).mutation(({ ctx, input }) => ctx.steps.commands.startRun(input.name, input.inputs, ctx.actor)),
  /** POST /api/workflows/execute without waiting: a stored workflow by id, or a definition given inline. */
  execute: publicProcedure
    .input(ExecuteBody.pick({ workflow: true, inputs: true }))
    .mutation(({ ctx, input }) => ctx.steps.commands.execute(input.workflow, input.inputs, ctx.actor)),
  runs: publicProcedure
    .input(z.object({ workflow: z.string().optional() }).optional())
    .query(({ ctx, input }) => ctx.steps.queries.listRuns({ workflow: input?.workflow })),
  run: publicProcedure.input(RunRef).query(({ ctx, input }) => ctx.steps.queries.getRun(input.runId)),
  conversation: publicProcedure.input(RunRef).query(({ ctx, input }) => ctx.steps.queries.conversation(input.runId)),
  cancel: publicProcedure.input(RunRef.extend(StepCancelBody.shape)).mutation(({ ctx, input }) => ctx.steps.commands.cancel(input.runId, input.reason, ctx.actor)),
  resume: publicProcedure.input(RunRef).mutation(({ ctx, input }) => ctx.steps.commands.resume(input.runId, ctx.actor)),
  retry: publicProcedure.input(RunRef.extend({ stepId: z.string().min(1) })).mutation(({ ctx, input }) => ctx.steps.commands.retryStep(input.runId, input.stepId, ctx.actor)),
});
