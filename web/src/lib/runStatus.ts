/**
 * What a pipeline run is doing, read once from its typed `state` so every view agrees. The run's `status`
 * string (WAITING_APPROVAL_QA, ...) is written by the server for older clients; the app never reads it.
 */
import type { RunPhase, RunState } from "./trpc";

/** A run is over once it has completed or was cancelled; a failed agent can still be retried. */
export function isRunOver(phase: RunPhase): boolean {
  return phase === "completed" || phase === "cancelled";
}

/** An agent is at work: on the brief or earlier outputs, or again on the reviewer's feedback. */
export function isAgentWorking(phase: RunPhase): boolean {
  return phase === "in_progress" || phase === "retrying";
}

/** A run keeps changing (and is polled) until it has completed, failed or was cancelled. */
export function isRunActive(state: RunState | undefined): boolean {
  return state !== undefined && !isRunOver(state.phase) && state.phase !== "failed";
}

/** Any run not over can be cancelled, a failed one included. */
export function isRunCancellable(state: RunState): boolean {
  return !isRunOver(state.phase);
}

const phaseLabel: Record<RunPhase, string> = {
  in_progress: "Working",
  waiting_approval: "Waiting for review",
  retrying: "Revising",
  completed: "Completed",
  failed: "Failed",
  cancelled: "Cancelled",
};

/** "Waiting for review · Requirements", "Completed", "Cancelled", ...: the agent's name, else its slug capitalised. */
export function describeRunState(state: RunState, agentName?: string | null): string {
  const agent = agentName ?? (state.agent ? state.agent.charAt(0).toUpperCase() + state.agent.slice(1) : null);
  return agent && !isRunOver(state.phase) ? `${phaseLabel[state.phase]} · ${agent}` : phaseLabel[state.phase];
}
