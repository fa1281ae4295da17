/**
 * The run's status string, the one existing clients of the pipeline read (`WAITING_APPROVAL_QA`), written from the
 * typed state and never parsed back: the server keeps `phase` and `current_agent`, and clients read `state`.
 */
import type { RunPhase, RunState } from "./schemas";

const prefix: Record<Exclude<RunPhase, "completed" | "cancelled">, string> = {
  in_progress: "IN_PROGRESS",
  retrying: "RETRYING",
  waiting_approval: "WAITING_APPROVAL",
  failed: "FAILED",
};

export function statusText(state: RunState): string {
  if (state.phase === "completed") return "COMPLETED";
  if (state.phase === "cancelled") return "CANCELLED";
  return `${prefix[state.phase]}_${(state.agent ?? "").toUpperCase()}`;
}

/**
 * Why the operator cannot retry the run's agent now; undefined when the retry is allowed. A failed agent can be
 * retried; so can one in progress for longer than `stuckAfterMs` (AGENT_STUCK_AFTER_MS) since it was called
 * (`calledAt`): its call is given up, and the agent is called anew, without waiting for AGENT_TIMEOUT_MS.
 */
export function retryRefusal(
  run: { id: string; status: string; phase: RunPhase; failure: string | null; currentAgent: string | null },
  calledAt: Date | undefined,
  stuckAfterMs: number,
  now = Date.now(),
): string | undefined {
  if (!run.currentAgent) return `run ${run.id} is ${run.status}; only a failed agent, or one in progress for longer than ${describeMs(stuckAfterMs)}, can be retried`;
  if (run.failure) return undefined;
  if (run.phase !== "in_progress" && run.phase !== "retrying") {
    return `run ${run.id} is ${run.status}; only a failed agent, or one in progress for longer than ${describeMs(stuckAfterMs)}, can be retried`;
  }
  const elapsed = calledAt ? now - calledAt.getTime() : 0;
  if (elapsed > stuckAfterMs) return undefined;
  return `run ${run.id} is ${run.status}: agent "${run.currentAgent}" has been in progress for ${describeMs(elapsed)}; it can be retried once it has been for longer than ${describeMs(stuckAfterMs)} (AGENT_STUCK_AFTER_MS), or when it fails`;
}

/** `90 s`, `5 min`, `1.5 h`. */
function describeMs(ms: number): string {
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 2 * 3_600_000) return `${Math.round(ms / 60_000)} min`;
  return `${Math.round(ms / 360_000) / 10} h`;
}
