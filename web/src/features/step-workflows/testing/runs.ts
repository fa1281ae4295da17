/** Step runs and their turns typed as the server's router answers them, for this feature's tests. */
import type { RunStep, StepConversation, StepRun, StepTurn } from "../../../lib/trpc";

export function stepRun(overrides: Partial<StepRun> = {}): StepRun {
  return {
    id: "RUN_1",
    run_id: "RUN_1",
    workflow: "greeting",
    version: 1,
    format: "steps",
    status: "running",
    cancel_reason: null,
    inputs: { who: "Ada" },
    started_by: { id: "00000000-0000-4000-8000-00000000a11a", name: "Ann Analyst" },
    created_at: "2026-05-04T10:00:00.000Z",
    updated_at: "2026-05-04T10:00:05.000Z",
    steps: [],
    outputs: null,
    output_errors: {},
    forked_from: null,
    forks: [],
    ...overrides,
  };
}

export function runStep(stepId: string, status: RunStep["status"], overrides: Partial<RunStep> = {}): RunStep {
  return {
    id: `row-${stepId}`,
    run_id: "RUN_1",
    step_id: stepId,
    tool: "utils.echo",
    status,
    input: null,
    output: null,
    error: null,
    attempts: 1,
    started_at: null,
    completed_at: null,
    ...overrides,
  };
}

let next = 0;

/** A turn of `kind` about step `stepId` (null for the run's own turns). */
export function stepTurn(kind: StepTurn["kind"], stepId: string | null, fields: Partial<Pick<StepTurn, "text" | "actor" | "data" | "tool">> = {}): StepTurn {
  next += 1;
  return { id: `t${next}`, at: `2026-05-04T10:00:${String(next % 60).padStart(2, "0")}.000Z`, kind, step_id: stepId, tool: stepId ? "utils.echo" : null, text: null, actor: null, data: null, ...fields };
}

export const conversation = (run: StepRun, turns: StepTurn[]): StepConversation => ({ run, turns });
