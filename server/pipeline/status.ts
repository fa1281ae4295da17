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

/** A run is over once it has completed or was cancelled; a failed agent can still be retried. */
export const isOver = (phase: RunPhase) => phase === "completed" || phase === "cancelled";
