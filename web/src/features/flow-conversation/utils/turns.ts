/**
 * What a flow run's conversation shows beside its turns, read from its nodes as they are now (`annotateTurns`): which
 * node is at work, which gate the person can answer, and which failure can be retried (a Collector's is not: it fails
 * with its path, and the path is what is retried). A flow run is over once completed or cancelled: a failed one can
 * still be retried.
 */
import { type NodeNow, type TurnNotes, annotateTurns } from "../../../components/turns";
import type { FlowConversation, FlowRun } from "../../../lib/trpc";

/** A run keeps changing (and is polled) while a node runs or a person is awaited. */
export function isFlowRunActive(status: FlowRun["status"]): boolean {
  return status === "running" || status === "waiting_for_user";
}

export function annotateFlowTurns({ run, nodes, turns }: Pick<FlowConversation, "run" | "nodes" | "turns">): TurnNotes {
  const now: Record<string, NodeNow> = {};
  for (const [key, node] of Object.entries(nodes)) now[key] = { status: node.status, retryable: node.node_type !== "Collector" };
  return annotateTurns(turns, now, run.status === "completed" || run.status === "cancelled");
}

/** A JSON value as people read it: text as itself, anything else pretty-printed (cut when it is huge). */
export function shownValue(value: unknown): { text: string; json: boolean } {
  if (typeof value === "string") return { text: value, json: false };
  const text = value === undefined ? "null" : JSON.stringify(value, null, 2);
  return { text: text.length > 20_000 ? `${text.slice(0, 20_000)}\n…` : text, json: true };
}
