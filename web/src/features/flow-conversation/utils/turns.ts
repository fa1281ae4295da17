/**
 * What a flow run's conversation shows beside its turns, read from its nodes as they are now: which node is at work
 * (its last "started" turn is live), which gate the person can answer (a node's last "waiting" turn while the node
 * still waits), and which failure can be retried (a node's last failure while it is failed).
 */
import type { FlowConversation, FlowRun, FlowTurn } from "../../../lib/trpc";

/** A run keeps changing (and is polled) while a node runs or a person is awaited. */
export function isFlowRunActive(status: FlowRun["status"]): boolean {
  return status === "running" || status === "waiting_for_user";
}

export interface FlowTurnNotes {
  /** "started" turns of nodes still at work: shown as live turns. */
  working: ReadonlySet<string>;
  /** "waiting" turns the person can answer now. */
  awaiting: ReadonlySet<string>;
  /** "failed" turns whose node can be retried now. */
  retryable: ReadonlySet<string>;
}

export function annotateFlowTurns({ run, nodes, turns }: Pick<FlowConversation, "run" | "nodes" | "turns">): FlowTurnNotes {
  const last = new Map<string, FlowTurn>();
  for (const turn of turns) if ("node_id" in turn) last.set(`${turn.kind}:${turn.node_id}`, turn);
  const working = new Set<string>();
  const awaiting = new Set<string>();
  const retryable = new Set<string>();
  const over = run.status === "completed" || run.status === "cancelled";
  for (const [key, node] of Object.entries(nodes)) {
    if (node.status === "running") {
      const started = last.get(`started:${key}`);
      if (started) working.add(started.id);
    } else if (node.status === "waiting_for_user" && !over) {
      const waiting = last.get(`waiting:${key}`);
      if (waiting) awaiting.add(waiting.id);
    } else if (node.status === "failed" && !over) {
      const failed = last.get(`failed:${key}`);
      if (failed?.kind === "failed" && !failed.retrying && node.node_type !== "Collector") retryable.add(failed.id);
    }
  }
  return { working, awaiting, retryable };
}

/** A JSON value as people read it: text as itself, anything else pretty-printed (cut when it is huge). */
export function shownValue(value: unknown): { text: string; json: boolean } {
  if (typeof value === "string") return { text: value, json: false };
  const text = value === undefined ? "null" : JSON.stringify(value, null, 2);
  return { text: text.length > 20_000 ? `${text.slice(0, 20_000)}\n…` : text, json: true };
}
