/**
 * How the outbox rows an engine transaction writes reach a dispatcher once it has committed. The webhooks due now are
 * written already claimed by this process's dispatcher (`deliverHere`), as many as it has free slots for: the slots
 * are reserved while the transaction runs, and given back if it rolls back. Once it has committed, the dispatcher is
 * told of the nodes whose outbox rows the transaction deleted, then handed the rows claimed for it (no claim
 * statement follows, and no other process is woken for them); the dispatchers are woken (`onDispatch`) only for the
 * rows this process does not deliver itself; the `afterCommit` listeners are told of the events applied.
 */
import { randomUUID } from "node:crypto";
import type { ClearedNode, EventResult, LocalDelivery } from "./engineTypes";
import type { ClaimedDispatch } from "./outboxStore";
import type { NewDispatch } from "./store";

/** What one engine transaction leaves to do once it has committed (`OutboxHandOff.committed`). */
export interface AfterCommit {
  /** performance.now() before the transaction began: no lease it writes starts earlier (LocalDelivery `leasedFrom`). */
  begun: number;
  /** Outbox rows written (webhooks and timers). */
  dispatched: number;
  /** Webhooks written claimed by this process, which it delivers itself. */
  handed: ClaimedDispatch[];
  /** The events applied (not duplicates), for the `afterCommit` listeners. */
  applied: EventResult[];
  /** The nodes whose outbox rows were deleted. */
  cleared: ClearedNode[];
}

export class OutboxHandOff {
  private local: LocalDelivery | undefined;
  private readonly committedListeners: ((applied: EventResult) => void)[] = [];

  /** `wake`: tells the dispatchers that rows were written for any process to deliver. */
  constructor(private readonly wake: () => void) {}

  /** The dispatcher of this process, which delivers the webhooks this process's transactions write claimed. */
  deliverHere(local: LocalDelivery): void {
    this.local = local;
  }

  /** A listener told of every event applied, once its transaction has committed (see Engine.afterCommit). */
  afterCommit(listener: (applied: EventResult) => void): void {
    this.committedListeners.push(listener);
  }

  /** What a transaction beginning now will leave to do. */
  begin(): AfterCommit {
    return { begun: performance.now(), dispatched: 0, handed: [], applied: [], cleared: [] };
  }

  /**
   * An event's outbox writes: the nodes whose rows it deletes, and the rows it writes, of which the webhooks due now
   * are marked claimed by this process, as many as its dispatcher has free slots for (reserved here): written already
   * leased, they skip the claim that would otherwise follow the commit, and no other process takes them unless this
   * one dies before delivering (the lease runs out).
   */
  written(after: AfterCommit, runId: string, dispatches: NewDispatch[], cancelled: readonly string[]): void {
    for (const key of cancelled) after.cleared.push({ runId, key });
    after.dispatched += dispatches.length;
    const due = dispatches.filter((d) => d.kind === "webhook" && d.delayMs === 0);
    const room = due.length > 0 && this.local ? this.local.reserve(due.length) : 0;
    after.handed.push(
      ...due.slice(0, room).map((d) => {
        d.claimed = { id: randomUUID(), leaseMs: this.local!.leaseMs, holder: this.local!.holder };
        return { id: d.claimed.id, run_id: runId, node_id: d.key, node_attempt: d.attempt, kind: d.kind, url: d.url, payload: d.payload, deliveries: 1, redelivery: null };
      }),
    );
  }

  /** A row written claimed that a later event of the same transaction cancelled: it is not handed over, and its slot is given back. */
  withdrawn(after: AfterCommit, claimedId: string): void {
    after.handed.splice(after.handed.findIndex((h) => h.id === claimedId), 1);
    this.local?.release(1);
  }

  /** The transaction rolled back, or wrote nothing: the slots it reserved are given back. */
  abandoned(after: AfterCommit): void {
    this.local?.release(after.handed.length);
  }

  /** What a transaction leaves to do once it has committed. */
  committed(after: AfterCommit): void {
    // The cleared nodes first: a row this transaction wrote for a node it also cleared (a retry) was not deleted.
    if (after.cleared.length > 0) this.local?.cleared(after.cleared);
    if (after.handed.length > 0) this.local!.deliver(after.handed, after.begun);
    if (after.dispatched > after.handed.length) this.wake();
    for (const listener of this.committedListeners) for (const applied of after.applied) listener(applied);
  }
}
