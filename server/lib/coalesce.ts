/**
 * Coalesces single-item calls into batch calls: every `add` made while a batch is being written, or in the same turn
 * of the event loop as the first, goes into the next batch (at most `maxBatch` items), and each `add` settles with its
 * item's answer once its batch has been written (or rejects with the batch's error). Workers' callbacks and answers,
 * plain flows' run starts and the dispatcher's deletions of delivered outbox rows go this way: under load, dozens
 * arrive while the previous statement is on its way, and one statement (one transaction) for all of them costs about
 * what one costs.
 */
import { AsyncResource } from "node:async_hooks";

/** A failure as the answer a batch gives in its item's place (batches answer `R | Error` per item). */
export const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

export class Coalescer<T, R = void> {
  private pending: { item: T; resolve: (answer: R) => void; reject: (error: unknown) => void }[] = [];
  private scheduled = false;
  /**
   * Batches are written in the async context the coalescer was made in (start-up), not in that of the call that
   * happened to come first: a batch belongs to no one request (its audit scope, say).
   */
  private readonly schedule = AsyncResource.bind((drain: () => void) => void setImmediate(drain));

  /** `write` answers each item, in the order given. */
  constructor(
    private readonly write: (items: T[]) => Promise<R[]>,
    private readonly maxBatch = 100,
  ) {}

  add(item: T): Promise<R> {
    return new Promise((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      // Nothing being written: the batch starts once the event loop has handled the input that is already there
      // (setImmediate: after this turn's I/O callbacks), so requests that arrived together join it; no timer is waited
      // for. On PGlite a transaction runs without giving the event loop a turn, so without this every call that came
      // while one was written found the coalescer idle and went alone. Calls made while a batch is written wait for it
      // and go together in the next.
      this.schedule(() => void this.drain());
    });
  }

  private async drain(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, this.maxBatch);
      try {
        const answers = await this.write(batch.map((entry) => entry.item));
        batch.forEach((entry, i) => entry.resolve(answers[i]!));
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    this.scheduled = false;
  }
}
