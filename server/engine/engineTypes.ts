/**
 * The engine's API as its callers see it: the events addressed to nodes and what applying one answers, a fork to
 * make, the operations a front door runs inside a run's transaction, the transitions projections are told of, the
 * local delivery a dispatcher offers, and the engine's options.
 */
import type { Executor } from "../../db/client";
import type { CompiledGraph } from "./graph";
import type { ForkVersion, NodeState, RunOwner, RunOwnerKind, RunStatus, StartedBy, StitchGraph, StitchRun } from "./schemas";
import type * as store from "./store";
import type { ClaimedDispatch } from "./outboxStore";
import type { RowChange } from "./macrostep";
import type { EngineEvent, ExternalEvent, NodeRow } from "./transition";

/** An event addressed to one node (everything but a run's start, cancellation and resumption). */
export type KeyedEvent = Exclude<ExternalEvent, { type: "start" } | { type: "cancel" } | { type: "resume" } | { type: "fork" }>;

export interface EventResult {
  runId: string;
  nodeId: string | null;
  /** True when the event repeated one already applied: it changed nothing. */
  duplicate: boolean;
  message?: string;
  node?: NodeState;
  runStatus: RunStatus;
}

/** A fork to make (Engine.fork). */
export interface ForkRequest {
  runId: string;
  /** The node (or one path's instance) the fork starts afresh from. */
  nodeId: string;
  /** The chosen node's edited input; absent: it takes its input as any node does, from the nodes before it. */
  input?: unknown;
  /** The fork's own run input (a front door's, when it edits the run's inputs); absent: the edited input of an entry node, else the original's. */
  runInput?: unknown;
  version: ForkVersion;
  /** Who forks: the fork's starter. */
  by: StartedBy | null;
  /** The flow the fork runs, its latest version (a workflow's latest definition is a flow of its own); absent: the original's flow. */
  flowId?: string;
  /** The fork's id, when the caller chooses it. */
  forkId?: string;
  owner?: StartOwner;
  /** A first feedback for the chosen node, a Worker: its first call carries it, as a revision carries a review's. */
  feedback?: string;
  /** The front door's check of the original, locked, on the graph it ran, before anything is written: it throws to refuse. */
  admit?: (tx: Executor, original: store.LockedRun, graph: CompiledGraph) => Promise<void> | void;
  /** The front door's own rows for the fork (its run row, turns, the audit entry), in the same transaction, written before the fork's first event (its projection reads them). */
  alongside?: (tx: Executor, forkId: string, original: store.LockedRun) => Promise<void>;
}

/** Who owns a run being started: its front door, and the front door's id of it when that is not the engine run's id. */
export interface StartOwner {
  kind: RunOwnerKind;
  runId?: string;
}

/** Engine operations of a transaction that creates runs and flows (see `Engine.transaction`): no existing run is touched. */
export interface EngineOps {
  /**
   * Starts a run; `runId` lets a caller that must reference the run before it exists choose its id; `owner` names its
   * front door. Answers the run as this transaction leaves it.
   */
  startRun(flowId: string, input: unknown, options?: { runId?: string; owner?: StartOwner; startedBy?: StartedBy | null }): Promise<StitchRun>;
  /** Stores a flow under a chosen id unless it is there (flows are immutable), in this transaction; refused when the graph cannot run. */
  ensureFlow(id: string, name: string, graph: StitchGraph): Promise<void>;
}

/**
 * Operations on one run whose row the transaction locked before anything else (see `Engine.onRun`). Every event is
 * applied through these, so an event cannot reach a run whose row was not locked first.
 */
export interface RunOps {
  readonly id: string;
  /** The front door that owns the run, null for a plain flow's. */
  readonly owner: RunOwner | null;
  /** The run's status as of the last event this transaction applied (or as locked). */
  readonly status: RunStatus;
  /** Who started the run, when known: the analyst who may withdraw her own run. */
  readonly startedBy: StartedBy | null;
  handle(event: KeyedEvent, actor?: string | null): Promise<EventResult>;
  /** Cancels the run: every unfinished node stops and nothing more is sent. */
  cancel(reason?: string, actor?: string | null): Promise<EventResult>;
  /** Resumes a failed or cancelled run: its failed, cancelled and skipped nodes (and completed always-run ones) fire again. */
  resume(actor?: string | null): Promise<EventResult>;
  /** One node row as this transaction sees it (undefined when the node does not exist). */
  nodeRow(key: string): Promise<NodeRow | undefined>;
}

/**
 * What one transaction changed in a run, handed to observers inside that transaction, so a projection
 * (the agent pipeline's run status and conversation) commits or rolls back with the change itself.
 */
export interface RunTransition {
  runId: string;
  /** Who started the run, when known (the decisions a run waits for say whose run it is). */
  startedBy: StartedBy | null;
  /** The front door that owns the run (its projection is the one that acts on it), null for a plain flow's run. */
  owner: RunOwner | null;
  /** The name of the flow the run executes, as its lock read it. */
  flowName: string;
  graph: CompiledGraph;
  event: EngineEvent;
  actor: string | null;
  changes: RowChange[];
  /** The run's status after the transition. */
  runStatus: RunStatus;
  /**
   * The run's status before it (as locked, or as the transaction's previous event left it): with `runStatus`, whether
   * this transition is the one that ended the run (notifications tell a run's end once, not on every later event).
   */
  runStatusBefore: RunStatus;
}
/**
 * A projection of runs' transitions, inside the transaction that applies them. `concerns` says, from the transition
 * alone (no reads), whether `project` may write anything for it: the engine hands `project` only those, all of one
 * transaction at once and in the order applied (one for a lone event, every event's for a batch), so a projection can
 * write a batch's rows in one statement. An event that concerns no observer may be written without a transaction
 * (`Engine.applyUnlocked`), so `concerns` MUST be true for every transition `project` would write for.
 */
export interface TransitionObserver {
  concerns(transition: RunTransition): boolean;
  project(tx: Executor, transitions: readonly RunTransition[]): Promise<void>;
}

/** An observer that projects each transition it concerns on its own, in turn. */
export const eachTransition = (
  concerns: (transition: RunTransition) => boolean,
  project: (tx: Executor, transition: RunTransition) => Promise<void>,
): TransitionObserver => ({
  concerns,
  async project(tx, transitions) {
    for (const transition of transitions) await project(tx, transition);
  },
});

/** A node of a run whose outbox rows a committed transaction deleted. */
export interface ClearedNode {
  runId: string;
  key: string;
}

/**
 * The dispatcher of this process, as the engine hands it the webhooks it writes: `reserve` takes up to `wanted` free
 * delivery slots (answering how many; none when the dispatcher is stopped), `release` gives back slots of a
 * transaction that rolled back, and `deliver` delivers rows written claimed by `holder` under `leaseMs`, once
 * committed. `leasedFrom` (performance.now()) is when the transaction that wrote them began: their lease started no
 * earlier (the database's `now()` is its transaction's start), so it holds until at least `leasedFrom + leaseMs`.
 */
export interface LocalDelivery {
  readonly leaseMs: number;
  /** This process, as a claim names it (`claimed_by`). */
  readonly holder: string;
  /** After a commit: the nodes whose outbox rows the transaction deleted (told before the rows it wrote are handed over). */
  cleared(nodes: readonly ClearedNode[]): void;
  reserve(wanted: number): number;
  release(count: number): void;
  deliver(rows: ClaimedDispatch[], leasedFrom: number): void;
}

export interface EngineOptions {
  /** Where a Worker instance calls back (NEXT_PUBLIC_BASE_URL and the REST route): the routes own the path, not the engine. */
  callbackUrl: (runId: string, nodeKey: string) => string;
  /** Called after a commit that wrote outbox rows, so the local dispatcher sends them at once. */
  onDispatch?: () => void;
  /** STITCH_CALLBACK_SECRET: callback URLs carry a token and callbacks must present it (callbackToken.ts). */
  callbackSecret?: string;
  /**
   * Why a Worker's webhookUrl may not be registered (the outbound-address policy, judged without resolving
   * anything), or undefined when it may. Unset: every http(s) URL may.
   */
  refuseWebhookUrl?: (url: string) => string | undefined;
}
