/**
 * The decisions a fork keeps: for each node it copies, the last decision a person took on it in the original (an
 * approval or a request for changes, a completed UX step, an answer), or, for a node the original had itself copied,
 * the decision its own fork kept. Pure: from the original's logged events to the fork's `decided`.
 */
import type { CopiedDecision, ExternalEvent } from "./schemas";

interface Logged {
  at: string;
  actor: string | null;
  event: ExternalEvent;
}

/** Who decided what on each node of `copied`, and in which run, read from the events of run `runId`. */
export function copiedDecisions(runId: string, events: readonly Logged[], copied: readonly string[]): Record<string, CopiedDecision> {
  const last = new Map<string, CopiedDecision>();
  for (const { at, actor, event } of events) {
    if (event.type === "fork") for (const [key, decided] of Object.entries(event.decided ?? {})) last.set(key, decided);
    else if (event.type === "review") last.set(event.key, { by: actor, decision: event.decision === "approve" ? "approve" : "request_changes", at, run_id: runId });
    else if (event.type === "complete") last.set(event.key, { by: actor, decision: "complete", at, run_id: runId });
    else if (event.type === "input") last.set(event.key, { by: actor, decision: "answer", at, run_id: runId });
  }
  return Object.fromEntries(copied.flatMap((key) => {
    const decided = last.get(key);
    return decided ? [[key, decided]] : [];
  }));
}
