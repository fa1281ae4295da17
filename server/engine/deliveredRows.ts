/**
 * Who deletes a delivered webhook's outbox row. A row MUST go once delivered. The transaction that applies the worker's
 * callback deletes every outbox row of its node (transition.ts, `cancel_dispatches`), this one included, and the
 * callback follows the delivery within milliseconds. So the dispatcher does not delete a delivered row at once: the row
 * waits up to `graceMs` for this process to commit a transaction that cleared its node (`cleared`), and only the rows
 * still there then are deleted, together, in one statement.
 *
 * - A delivered row stays held by this process (its lease renewed) until it is gone: deleted by a callback's commit
 *   seen here, or by the deletion after the grace once that has committed (`gone`). A row let go when its delivery
 *   ended had its lease lapse while the deletion waited (the grace, then a busy pool or a stalled event loop), and was
 *   claimed and delivered again by another process with nothing wrong anywhere.
 * - A callback applied by another process is not seen here: that row is deleted after the grace.
 * - A process that dies within the grace leaves its delivered rows claimed; their leases run out and they are
 *   delivered again, as a row whose delivery ended just before a crash always could be (delivery is at least once,
 *   and a repeated callback changes nothing).
 * - A row is marked cleared only by a commit that came after the row was written and tracked. The engine reports a
 *   transaction's cleared nodes before it hands over the rows that transaction wrote (outboxHandOff.ts `committed`): a retry
 *   clears its node's old row and writes the new one in the same transaction, and the new one must not count as gone.
 */
import type { ClearedNode } from "./engine";
import type { ClaimedDispatch } from "./outboxStore";

interface Tracked {
  node: string;
  /** A committed transaction deleted it. */
  cleared: boolean;
  /** Delivered: deleted at the end of the grace unless cleared before. */
  waiting: boolean;
}

const nodeOf = (runId: string, key: string) => `${runId}\u0000${key}`;

export class DeliveredRows {
  private readonly tracked = new Map<string, Tracked>();
  private readonly byNode = new Map<string, Set<string>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    /** Deletes rows, in one statement. */
    private readonly remove: (ids: string[]) => Promise<void>,
    private readonly graceMs: number,
    private readonly onError: (error: unknown) => void,
    /** Delivered rows this no longer waits for: deleted, or their deletion failed (their lease is left to lapse). */
    private readonly gone: (ids: string[]) => void = () => {},
  ) {}

  /** A row this process is about to deliver. */
  track(row: ClaimedDispatch): void {
    const node = nodeOf(row.run_id, row.node_id);
    this.tracked.set(row.id, { node, cleared: false, waiting: false });
    let ids = this.byNode.get(node);
    if (!ids) this.byNode.set(node, (ids = new Set()));
    ids.add(row.id);
  }

  /** A transaction that deleted these nodes' outbox rows has committed. */
  cleared(nodes: readonly ClearedNode[]): void {
    for (const { runId, key } of nodes) {
      for (const id of this.byNode.get(nodeOf(runId, key)) ?? []) {
        const row = this.tracked.get(id)!;
        if (!row.waiting) row.cleared = true;
        else {
          this.untrack(id);
          this.gone([id]);
        }
      }
    }
  }

  /** The row was delivered and its worker will call back: it is deleted by the callback's transaction, or after the grace. */
  delivered(id: string): void {
    const row = this.tracked.get(id);
    // Not tracked (nothing should deliver such a row): deleted at once, as every delivered row was before.
    if (!row) return void this.remove([id]).catch(this.onError).finally(() => this.gone([id]));
    if (row.cleared) {
      this.untrack(id);
      return this.gone([id]);
    }
    row.waiting = true;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.flush().catch(this.onError);
    }, this.graceMs);
  }

  /** The row's work is over: unless it waits for its callback, this no longer keeps track of it (deleted, rescheduled, released). */
  settled(id: string): void {
    if (!this.isWaiting(id)) this.untrack(id);
  }

  /** Whether the row was delivered and waits to be deleted (the dispatcher keeps holding it meanwhile). */
  isWaiting(id: string): boolean {
    return this.tracked.get(id)?.waiting === true;
  }

  /** How many delivered rows wait for their callback. */
  get waiting(): number {
    let count = 0;
    for (const row of this.tracked.values()) if (row.waiting) count++;
    return count;
  }

  /** Deletes every delivered row still waiting, now (at the end of the grace, and when the dispatcher stops). */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const ids = [...this.tracked].filter(([, row]) => row.waiting).map(([id]) => id);
    for (const id of ids) this.untrack(id);
    if (ids.length === 0) return;
    try {
      await this.remove(ids);
    } finally {
      this.gone(ids);
    }
  }

  private untrack(id: string): void {
    const row = this.tracked.get(id);
    if (!row) return;
    this.tracked.delete(id);
    const ids = this.byNode.get(row.node)!;
    ids.delete(id);
    if (ids.size === 0) this.byNode.delete(row.node);
  }
}
