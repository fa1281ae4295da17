/**
 * The one turn vocabulary every run's conversation speaks (the server's `server/conversation/turn.ts`), as the app
 * reads it: nine kinds of turn with one envelope and the common fields of each kind's body. Each front door's turns
 * (in `lib/trpc`) are these with more in their bodies; `Conversation` draws any of them, and what a door tells
 * beyond these its adapter draws. Also what a conversation shows beside its turns, read from its nodes as they are
 * now: which node is at work, which wait the person can answer, which failure can be retried.
 */

export type TurnKind = "input" | "started" | "output" | "failed" | "skipped" | "waiting" | "decided" | "system" | "outcome";

export interface TurnNode {
  id: string;
  label: string;
  type: string;
}

export type TurnDecision = "approve" | "request_changes" | "complete" | "answer";

/**
 * The fields each kind's body holds in every door. A `value` is any JSON the server sends (null at least): tRPC types
 * a field of unknown JSON as optional, since JSON cannot carry `undefined`, so the app reads it as such.
 */
export interface CommonBodies {
  input: { value?: unknown };
  started: { revising: boolean; feedback: string | null };
  output: { value?: unknown };
  failed: { error: string; retrying: boolean };
  skipped: { reason: string };
  waiting: { gate: "review" | "approval" | "completion" | "reply"; prompt: string | null; value?: unknown };
  decided: { decision: TurnDecision; text: string | null; value?: unknown };
  system: { event: string };
  outcome: { status: "completed" | "failed" | "cancelled"; reason: string | null };
}

/** A turn of kind `K` as every door tells it. */
export type CommonTurn<K extends TurnKind = TurnKind> = {
  [P in K]: { id: string; at: string; kind: P; who: string | null; node: TurnNode | null; attempt: number | null; body: CommonBodies[P] };
}[K];

/** The system events every door tells alike. */
export type ForkedBody = {
  event: "forked";
  from_run_id: string;
  feedback: string | null;
  value?: unknown;
  decided: Record<string, { by: string | null; decision: TurnDecision; at: string; run_id: string }>;
};
export type ForkedIntoBody = { event: "forked_into"; fork_run_id: string };

export interface TurnNotes {
  /** "started" turns of nodes still at work: shown live. */
  working: ReadonlySet<string>;
  /** "waiting" turns the person can answer now. */
  awaiting: ReadonlySet<string>;
  /** "failed" turns whose node can be retried now. */
  retryable: ReadonlySet<string>;
}

/** A node as it stands now: its status, and whether a failure of it may be retried (a flow's Collector may not). */
export interface NodeNow {
  status: string;
  retryable?: boolean;
}

/**
 * Which turns are live: a node's last "started" while it runs, its last "waiting" while it waits and the run is not
 * over, its last "failed" (not being tried again by itself) while it is failed and the run is not over.
 */
export function annotateTurns(turns: readonly CommonTurn[], nodes: Readonly<Record<string, NodeNow>>, over: boolean): TurnNotes {
  const last = new Map<string, CommonTurn>();
  for (const turn of turns) if (turn.node) last.set(`${turn.kind}:${turn.node.id}`, turn);
  const working = new Set<string>();
  const awaiting = new Set<string>();
  const retryable = new Set<string>();
  for (const [id, node] of Object.entries(nodes)) {
    if (node.status === "running") {
      const started = last.get(`started:${id}`);
      if (started) working.add(started.id);
    } else if (node.status === "waiting_for_user" && !over) {
      const waiting = last.get(`waiting:${id}`);
      if (waiting) awaiting.add(waiting.id);
    } else if (node.status === "failed" && !over && node.retryable !== false) {
      const failed = last.get(`failed:${id}`);
      if (failed?.kind === "failed" && !failed.body.retrying) retryable.add(failed.id);
    }
  }
  return { working, awaiting, retryable };
}
