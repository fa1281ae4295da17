/** What clients of the step workflows read and send (REST and tRPC), defined once as zod schemas; the types are inferred. */
import { z } from "zod";
import { FailedBody, ForkedEvent, ForkedIntoEvent, InputBody, OutcomeBody, OutputBody, ResumedEvent, RetriedEvent, SkippedBody, StartedBody, turnOf } from "../../conversation/turn";
import { ForkOf, ForkVersion, ForkedFrom, StartedBy } from "../../engine/schemas";
import { INPUT_TYPES, Problem, StepWorkflowDefinition } from "./definition";

/** The most a request may wait for a run to end (`wait: true`), and how long it waits when it names no `timeout_ms`. */
export const MAX_WAIT_MS = 10 * 60_000;
export const DEFAULT_WAIT_MS = 60_000;

const Inputs = z.record(z.string(), z.unknown(), { error: "inputs must be an object of input values" });

export const StartStepRunBody = z.object({ inputs: Inputs.optional() });
export type StartStepRunBody = z.infer<typeof StartStepRunBody>;

export const ExecuteBody = z.object({
  /** A stored workflow's id, or a whole definition (validated like a registration, and registered unless unchanged). */
  workflow: z.union([z.string().min(1, "workflow must name a stored workflow or be a definition"), z.record(z.string(), z.unknown())], {
    error: "workflow must be a stored workflow's id or a step workflow definition (an object with id and steps)",
  }),
  inputs: Inputs.optional(),
  /** Answer when the run ends (or at `timeout_ms`) rather than at once. */
  wait: z.boolean().default(false),
  timeout_ms: z.number().int().positive().max(MAX_WAIT_MS, `timeout_ms must be at most ${MAX_WAIT_MS} (10 minutes)`).optional(),
});
export type ExecuteBody = z.infer<typeof ExecuteBody>;

export const StepCancelBody = z.object({ reason: z.string().trim().max(2000, "reason must be at most 2000 characters").optional() });

export const StepStatus = z.enum(["PENDING", "RUNNING", "COMPLETED", "FAILED", "SKIPPED", "CANCELLED"]);
export type StepStatus = z.infer<typeof StepStatus>;

/** One row of `run_steps`, with the step's tool. */
export const RunStep = z.object({
  id: z.string(),
  run_id: z.string(),
  step_id: z.string(),
  tool: z.string(),
  status: StepStatus,
  /** The params as resolved for the latest attempt (null until the step ran, or when a template could not be resolved). */
  input: z.unknown(),
  output: z.unknown(),
  error: z.string().nullable(),
  attempts: z.number().int(),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
});
export type RunStep = z.infer<typeof RunStep>;

export const StepRunStatus = z.enum(["running", "completed", "failed", "cancelled"]);

export const StepRunSummary = z.object({
  id: z.string(),
  run_id: z.string(),
  workflow: z.string(),
  version: z.number().int(),
  format: z.literal("steps"),
  status: StepRunStatus,
  cancel_reason: z.string().nullable(),
  inputs: z.record(z.string(), z.unknown()),
  /** Who started the run (its engine run's starter; null when not known): she may cancel it, as an operator may any run. */
  started_by: StartedBy.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type StepRunSummary = z.infer<typeof StepRunSummary>;

export const StepRunView = StepRunSummary.extend({
  steps: z.array(RunStep),
  /** The definition's `outputs`, evaluated when the run ended (null before): each its value, null when it could not be resolved. */
  outputs: z.record(z.string(), z.unknown()).nullable(),
  /** Why an output is null: its template could not be resolved (a step failed or was skipped, a field is missing). */
  output_errors: z.record(z.string(), z.string()),
  /** Where the run was forked from (null for a run started afresh), and the runs forked from it, oldest first. */
  forked_from: ForkedFrom.nullable(),
  forks: z.array(ForkOf),
});
export type StepRunView = z.infer<typeof StepRunView>;

export const StepSummary = z.object({
  id: z.string(),
  tool: z.string(),
  /** The steps it runs after, as resolved (the one written before it, unless it names depends_on). */
  depends_on: z.array(z.string()),
  retries: z.number().int(),
  timeout_ms: z.number().int().nullable(),
});

export const RegisteredStepWorkflow = z.object({
  /** The definition's `id`: what runs and `execute` name. */
  name: z.string(),
  version: z.number().int(),
  format: z.literal("steps"),
  title: z.string().nullable(),
  description: z.string(),
  definition_version: z.string().nullable(),
  inputs: z.array(z.object({ name: z.string(), type: z.enum(INPUT_TYPES), optional: z.boolean() })),
  steps: z.array(StepSummary),
  outputs: z.array(z.string()),
  created_at: z.string(),
});
export type RegisteredStepWorkflow = z.infer<typeof RegisteredStepWorkflow>;

export const StepWorkflowDetail = RegisteredStepWorkflow.extend({
  definition: StepWorkflowDefinition,
  versions: z.array(z.object({ version: z.number().int(), created_at: z.string() })),
});
export type StepWorkflowDetail = z.infer<typeof StepWorkflowDetail>;

/** The inputs the run was started with, by name (each as given, typed as the definition declares). */
const StepInputBody = InputBody.extend({ value: z.record(z.string(), z.unknown()).describe("The inputs the run was started with, by name.") });

/** A step's result: the tool's answer, as a person reads it, and how many attempts the step took. */
const StepOutputBody = OutputBody.extend({
  value: z.unknown().describe("What the tool answered (the step's output as it stands now)."),
  text: z.string().describe("The result as a person reads it: its `text` or `summary` field, a plain string, or its JSON."),
  attempts: z.number().int().nullable().describe("How many attempts the step took in all, retries included (null when the step is not known)."),
});

/** A step that never ran (skipped: what it depends on failed), or that was cancelled with the run (before it started or while it ran). */
const StepSkippedBody = SkippedBody.extend({ status: z.enum(["skipped", "cancelled"]).describe("Whether the step was skipped or cancelled with the run.") });

/** The run's end, with the definition's `outputs` as they were evaluated then. */
const StepOutcomeBody = OutcomeBody.extend({
  outputs: z.record(z.string(), z.unknown()).nullable().describe("Each output's value (null when it could not be resolved); null when none were evaluated."),
  output_errors: z.record(z.string(), z.string()).describe("Why an output is null: its template could not be resolved."),
});

/** A step's params as resolved for an attempt, just before its tool ran (`attempt` says which). */
const ParamsEvent = z.object({ event: z.literal("params"), value: z.unknown().describe("The params as resolved.") });

/** This run was forked from another at the step: the inputs it runs with (`value`), whether they were edited, and the version it runs. */
const StepForkedEvent = ForkedEvent.extend({
  value: z.record(z.string(), z.unknown()).describe("The inputs the fork runs with, edited or as they were (see `edited`)."),
  edited: z.boolean().describe("Whether the inputs were changed for the fork."),
  version: ForkVersion.describe("`original`: the version the parent ran; `latest`: the workflow's latest version then."),
});

/** Someone forked this run at the step into another run, on that version. */
const StepForkedIntoEvent = ForkedIntoEvent.extend({ version: ForkVersion.describe("The version the fork runs.") });

/** What happened to a step run rather than in it: a person's retry, a resumption, forks, and a step's params as resolved. */
export const StepEvent = z.discriminatedUnion("event", [RetriedEvent, ResumedEvent, StepForkedEvent, StepForkedIntoEvent, ParamsEvent]);
export type StepEvent = z.infer<typeof StepEvent>;

/**
 * One turn of a step run's conversation, in the one vocabulary every run speaks (`server/conversation/turn.ts`): the
 * inputs; each step started, its params as resolved (`system` `params`, per attempt), an attempt that failed and was
 * tried again (`failed`, `retrying`), its result or failure; a step skipped or cancelled (`skipped`, with `status`);
 * a person's retry and resumption; forks (`forked`: the steps before the one it was forked at were copied, not told
 * again); and the run's end, its cancellation told once (`outcome`, with who cancelled and why) with the outputs.
 * A step's turn names it in `node` (`label`: the step's id, `type`: its tool).
 */
export const StepTurn = z.discriminatedUnion("kind", [
  turnOf("input", StepInputBody),
  turnOf("started", StartedBody),
  turnOf("output", StepOutputBody),
  turnOf("failed", FailedBody),
  turnOf("skipped", StepSkippedBody),
  turnOf("system", StepEvent),
  turnOf("outcome", StepOutcomeBody),
]);
export type StepTurn = z.infer<typeof StepTurn>;

export const StepConversation = z.object({ run: StepRunView, turns: z.array(StepTurn) });
export type StepConversation = z.infer<typeof StepConversation>;

export const ToolDescription = z.object({
  name: z.string(),
  description: z.string(),
  /** The params as JSON Schema. */
  params: z.record(z.string(), z.unknown()),
});

export { Problem };
