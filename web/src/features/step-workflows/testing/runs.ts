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

/**
 * What every turn has, about step `stepId` (null for the run's own turns): its id and time, who, the step (as a node:
 * its id, and its tool, `utils.echo` unless told) and the attempt. A test writes `{ kind, ...turnAbout(...), body }`.
 */
export function turnAbout(stepId: string | null, fields: { who?: string | null; attempt?: number | null; tool?: string } = {}): Omit<StepTurn, "kind" | "body"> {
  next += 1;
  return {
    id: `t${next}`,
    at: `2026-05-04T10:00:${String(next % 60).padStart(2, "0")}.000Z`,
    who: fields.who ?? null,
    node: stepId ? { id: stepId, label: stepId, type: fields.tool ?? "utils.echo" } : null,
    attempt: fields.attempt ?? null,
  };
}

export const conversation = (run: StepRun, turns: StepTurn[]): StepConversation => ({ run, turns });
