/**
 * What a workflow run's conversation shows beside its turns, read from the run's nodes as they are now: which
 * node is at work (its last "started" turn is live), which wait the person can answer (a node's last "waiting"
 * turn while the node still waits), which failure can be retried, and whether the run can be resumed.
 */
import { isRecord } from "../../../lib/json";
import type { WorkflowConversation, WorkflowRun, WorkflowRunStatus, WorkflowTurn } from "../../../lib/trpc";

/** A run keeps changing (and is polled) while a node runs or a person is awaited. */
export function isWorkflowRunActive(status: WorkflowRunStatus): boolean {
  return status === "running" || status === "waiting_for_user";
}

/** Prefix of the cancel reason the server writes when a rejected approval stops the run (the only cancellation it resumes). */
const rejectionPrefix = "rejected at ";

/** A failed run, or one cancelled by a rejected approval, can be resumed; the server refuses any other. */
export function isResumable(run: Pick<WorkflowRun, "status" | "cancel_reason">): boolean {
  return run.status === "failed" || (run.status === "cancelled" && (run.cancel_reason ?? "").startsWith(rejectionPrefix));
}

export interface TurnNotes {
  /** "started" turns of nodes still at work: shown as live "working" turns. */
  working: ReadonlySet<string>;
  /** "waiting" turns the person can answer now. */
  awaiting: ReadonlySet<string>;
  /** "failed" turns whose node can be retried now. */
  retryable: ReadonlySet<string>;
  /** Turns that only repeat the one before them: a "cancelled" outcome right after the cancellation. */
  repeated: ReadonlySet<string>;
}

export function annotateTurns({ run, turns }: Pick<WorkflowConversation, "run" | "turns">): TurnNotes {
  const lastOf = new Map<string, WorkflowTurn>();
  for (const turn of turns) if (turn.node_id) lastOf.set(`${turn.kind}:${turn.node_id}`, turn);
  const working = new Set<string>();
  const awaiting = new Set<string>();
  const retryable = new Set<string>();
  const repeated = new Set(turns.filter((turn, i) => turn.kind === "outcome" && turn.text === "cancelled" && turns[i - 1]?.kind === "cancelled").map((turn) => turn.id));
  const over = run.status === "completed" || run.status === "cancelled";
  for (const [id, node] of Object.entries(run.nodes)) {
    const last = (kind: WorkflowTurn["kind"]) => lastOf.get(`${kind}:${id}`);
    if (node.status === "running") {
      const started = last("started");
      if (started) working.add(started.id);
    } else if (node.status === "waiting_for_user" && !over) {
      const waiting = last("waiting");
      if (waiting) awaiting.add(waiting.id);
    } else if (node.status === "failed" && !over) {
      const failed = last("failed");
      if (failed && failed.data?.retrying !== true) retryable.add(failed.id);
    }
  }
  return { working, awaiting, retryable, repeated };
}

/** The node a turn speaks of, with its kind: `draft (prompt)`. */
export function nodeName(turn: Pick<WorkflowTurn, "node_id" | "node_kind">): string {
  const id = turn.node_id ?? "the run";
  return turn.node_kind ? `${id} (${turn.node_kind})` : id;
}

/** A field of a turn's `data` when it is text. */
export function dataText(turn: Pick<WorkflowTurn, "data">, key: string): string | null {
  const value = turn.data?.[key];
  return typeof value === "string" && value !== "" ? value : null;
}

/** A field of a turn's `data` when it is a number. */
export function dataNumber(turn: Pick<WorkflowTurn, "data">, key: string): number | null {
  const value = turn.data?.[key];
  return typeof value === "number" ? value : null;
}

/** A decision a fork copied (a forked turn's `data.decided`, by node): it stays decided, as who took it, when and where. */
export interface CopiedDecision {
  by: string | null;
  decision: string;
  at: string;
  run_id: string;
}

const isCopiedDecision = (value: unknown): value is CopiedDecision =>
  isRecord(value) && (value.by === null || typeof value.by === "string") && typeof value.decision === "string" && typeof value.at === "string" && typeof value.run_id === "string";

/**
 * The decisions a forked turn says its fork kept, by node; those it says nothing readable of are left out. Read by
 * hand rather than with zod, which the app's main script does not load (its eval probe is refused by the CSP).
 */
export function copiedDecisions(turn: Pick<WorkflowTurn, "data">): [string, CopiedDecision][] {
  const decided = turn.data?.decided;
  if (!isRecord(decided)) return [];
  return Object.entries(decided).flatMap(([nodeId, value]) => (isCopiedDecision(value) ? [[nodeId, value] as [string, CopiedDecision]] : []));
}
