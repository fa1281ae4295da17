/** What clients of the step workflows read and send (REST and tRPC), defined once as zod schemas; the types are inferred. */
import { z } from "zod";
import { ForkOf, ForkedFrom, StartedBy } from "../../engine/schemas";
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

export const StepTurnKind = z.enum(["inputs", "started", "params", "retrying", "output", "failed", "skipped", "cancelled", "retried", "resumed", "outcome", "forked", "forked_into"]);

/**
 * One turn of a step run's conversation. `forked`: the run was forked from another at `step_id` (`data.from_run_id`,
 * `data.inputs`, `data.edited`: whether the inputs were changed); the steps before it were copied, not told again.
 * `forked_into`: someone forked this run at `step_id` into run `data.fork_run_id`.
 */
export const StepTurn = z.object({
  id: z.string(),
  at: z.string(),
  kind: StepTurnKind,
  step_id: z.string().nullable(),
  tool: z.string().nullable(),
  /** What a person reads: the result rendered, the error, the reason. */
  text: z.string().nullable(),
  actor: z.string().nullable(),
  data: z.record(z.string(), z.unknown()).nullable(),
});
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
