/**
 * A validated step workflow lowered onto the engine: each step a task of the shared workflow compiler, run by this
 * server's step executor (STEPS_EXECUTOR), that fires when every step it depends on completed (`all_success`), so a failed step skips what depends on
 * it while independent branches go on.
 */
import { z } from "zod";
import type { StitchGraph } from "../../engine/schemas";
import { type WorkflowTask, compileWorkflow } from "../compile";
import { Step, type StepWorkflowDefinition } from "./definition";
import type { StepOrder } from "./validate";

/** The executor name the dispatcher runs steps' work under (executor.ts), apart from the YAML workflows' WORKFLOW_EXECUTOR. */
export const STEPS_EXECUTOR = "steps";

/** The wait before a step's second attempt, doubled for each further one. */
export const RETRY_BACKOFF_MS = 1000;

/** Room beyond a step's timeout before another process may take its work over: the step's own timeout fires first and is recorded. */
export const LEASE_MARGIN_MS = 60_000;

/** What the executor is given to run a step (its task's `config`, read back from the dispatch's payload). */
export const StepTaskConfig = z.object({
  kind: z.literal("step"),
  step: Step,
  tool: z.string(),
  /**
   * The step's `timeout_ms`, or the tool's default: how long one attempt may take, for the executor to enforce. Not
   * `timeoutMs`: the engine reads that key of a node's data as its own call-back timer.
   */
  stepTimeoutMs: z.number().int().positive(),
});
export type StepTaskConfig = z.infer<typeof StepTaskConfig>;

/** A step's task: `order` from `validateDefinition`, `defaultTimeoutMs` the tool's own limit when the step names no `timeout_ms`. */
export function stepTask(step: Step, dependsOn: readonly string[], defaultTimeoutMs: (tool: string) => number): WorkflowTask {
  const timeoutMs = step.timeout_ms ?? defaultTimeoutMs(step.tool);
  const retries = step.retries ?? 0;
  const config: StepTaskConfig = { kind: "step", step, tool: step.tool, stepTimeoutMs: timeoutMs };
  return {
    id: step.id,
    dependsOn,
    triggerRule: "all_success",
    kind: "task",
    label: `${step.tool} · ${step.id}`,
    ...(retries > 0 ? { retry: { maxAttempts: retries + 1, backoffMs: RETRY_BACKOFF_MS } } : {}),
    leaseMs: timeoutMs + LEASE_MARGIN_MS,
    executor: STEPS_EXECUTOR,
    config: { ...config },
  };
}

/** The tasks of a definition, in the order its steps are written. */
export function stepTasks(definition: StepWorkflowDefinition, order: StepOrder, defaultTimeoutMs: (tool: string) => number): WorkflowTask[] {
  return definition.steps.map((step) => {
    const dependsOn = order[step.id];
    if (!dependsOn) throw new Error(`lowerSteps: the order has no entry for step "${step.id}"; pass the order validateDefinition gave with this definition`);
    return stepTask(step, dependsOn, defaultTimeoutMs);
  });
}

/** A validated definition (with the `order` validateDefinition gave) as an engine graph. */
export function lowerSteps(definition: StepWorkflowDefinition, order: StepOrder, defaultTimeoutMs: (tool: string) => number): StitchGraph {
  return compileWorkflow(stepTasks(definition, order, defaultTimeoutMs));
}
