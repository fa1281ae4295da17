/**
 * A step run's turns as the conversation tells them: the inputs, then each step's attempt at its work as one turn
 * (from "started" to its result, its failure or its cancellation, with the params it was given and the attempts it
 * took), a skipped or cancelled step that never started as a line of its own, a person's retry and resume, the
 * run's cancellation and its outcome with the outputs. A step turn sits where the step started, so steps that run
 * side by side read in the order they began. Which step is at work and which failure can be retried is read from
 * the run's `run_steps` as they are now. A fork opens with where it came from (the steps it copied are not told again);
 * a run that was forked tells each fork where it was made.
 */
import type { StepConversation, StepRunStatus, StepTurn } from "../../../lib/trpc";

/** A run keeps changing (and is polled) while it is running. */
export function isStepRunActive(status: StepRunStatus): boolean {
  return status === "running";
}

/** The server resumes a failed or cancelled run: its failed, cancelled and skipped steps run again. */
export function isStepRunResumable(status: StepRunStatus): boolean {
  return status === "failed" || status === "cancelled";
}

export interface StepAttemptError {
  attempt: number | null;
  error: string;
  at: string;
}

export interface StepEpisode {
  kind: "step";
  /** The id of the turn it began with, unique in the conversation. */
  id: string;
  stepId: string;
  tool: string | null;
  at: string;
  /** The params of the latest attempt as resolved; undefined when no attempt got them (a template could not be resolved). */
  params: unknown;
  /** Attempts that failed and were tried again automatically. */
  retried: StepAttemptError[];
  /** The turn that ended it: "output", "failed" or "cancelled"; null while the step is still at work. */
  end: StepTurn | null;
  /** The step is at work now. */
  live: boolean;
  /** Its failure is the step's latest and can be retried now. */
  retryable: boolean;
}

export type StepItem =
  | StepEpisode
  | { kind: "inputs" | "outcome" | "run-cancelled" | "retried" | "resumed"; id: string; turn: StepTurn }
  /** A fork's first turn (where it came from, its inputs), and a fork made of this run at a step. */
  | { kind: "forked" | "forked-into"; id: string; turn: StepTurn }
  /** A step that ended without starting: skipped (what it depends on failed), or cancelled with the run. */
  | { kind: "step-skipped" | "step-cancelled"; id: string; turn: StepTurn };

/** How many attempts a step turn took: the failed ones tried again, and the last. */
export const attemptsOf = (episode: Pick<StepEpisode, "retried" | "end">): number => episode.retried.length + 1;

const attemptOf = (turn: StepTurn): number | null => (typeof turn.data?.attempt === "number" ? turn.data.attempt : null);

export function stepItems({ run, turns }: Pick<StepConversation, "run" | "turns">): StepItem[] {
  const items: StepItem[] = [];
  const open = new Map<string, StepEpisode>();
  const latest = new Map<string, StepEpisode>();
  const episode = (turn: StepTurn, stepId: string): StepEpisode => {
    let current = open.get(stepId);
    if (!current) {
      current = { kind: "step", id: turn.id, stepId, tool: turn.tool, at: turn.at, params: undefined, retried: [], end: null, live: false, retryable: false };
      open.set(stepId, current);
      latest.set(stepId, current);
      items.push(current);
    }
    return current;
  };
  for (const turn of turns) {
    const stepId = turn.step_id;
    switch (turn.kind) {
      case "inputs":
      case "outcome":
      case "retried":
      case "resumed":
        items.push({ kind: turn.kind, id: turn.id, turn });
        break;
      case "forked":
        items.push({ kind: "forked", id: turn.id, turn });
        break;
      case "forked_into":
        items.push({ kind: "forked-into", id: turn.id, turn });
        break;
      case "started":
        open.delete(stepId ?? "");
        if (stepId) episode(turn, stepId);
        break;
      case "params":
        if (stepId) episode(turn, stepId).params = turn.data?.input;
        break;
      case "retrying":
        if (stepId) episode(turn, stepId).retried.push({ attempt: attemptOf(turn), error: turn.text ?? "", at: turn.at });
        break;
      case "output":
      case "failed":
        if (stepId) {
          episode(turn, stepId).end = turn;
          open.delete(stepId);
        }
        break;
      case "cancelled":
        if (!stepId) items.push({ kind: "run-cancelled", id: turn.id, turn });
        else if (open.has(stepId)) {
          open.get(stepId)!.end = turn;
          open.delete(stepId);
        } else items.push({ kind: "step-cancelled", id: turn.id, turn });
        break;
      case "skipped":
        items.push({ kind: "step-skipped", id: turn.id, turn });
        break;
    }
  }
  const over = run.status === "completed" || run.status === "cancelled";
  for (const step of run.steps) {
    const last = latest.get(step.step_id);
    if (!last) continue;
    if (step.status === "RUNNING" && last.end === null) last.live = true;
    if (step.status === "FAILED" && last.end?.kind === "failed" && !over) last.retryable = true;
  }
  return items;
}
