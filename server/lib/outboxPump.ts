/**
 * The loop every outbox worker of this product runs (the engine's dispatcher, the notifications' deliverer): woken by a
 * NOTIFY on its channel and by a poll, it claims as much work as it has room for (up to `concurrency` in flight) and
 * runs each piece, claiming again as pieces finish when work was left waiting for slots (once a quarter of them are
 * free, so a backlog is claimed in batches, not a row per finished piece); `stop()` stops claiming and
 * waits for the work in flight. What is claimed and how each piece is done are the worker's own (`claim`).
 *
 * While the database cannot be reached (a restart, a failover) the pump does not stop: claiming is tried again after
 * 100 ms, doubled up to 5 s, the outage is said once (not at every tick) and its end too. Notifications sent while
 * the LISTEN connection was away are lost, but the poll finds their work: nothing waits for a NOTIFY alone.
 */
import type { Database } from "../../db/client";
import { OutageLog, isDatabaseUnavailable } from "./databaseErrors";

export interface OutboxPumpOptions {
  /** Who this pump is in the log: "dispatcher", "notifications". */
  name: string;
  /** The NOTIFY channel that says new work is due. */
  channel: string;
  /** How often to look for due work when nothing woke the pump. */
  pollMs: number;
  /** Pieces of work in flight at once in this process. */
  concurrency: number;
  /** Claims up to `room` pieces of due work; each runs once, and MUST catch its own failure (and may tell `failed`). */
  claim(room: number): Promise<(() => Promise<void>)[]>;
}

export class OutboxPump {
  private inFlight = 0;
  /** Slots promised to work claimed elsewhere (by a transaction not yet committed), which `claim` must leave free. */
  private reserved = 0;
  /**
   * Whether due work may be waiting for a free slot: the last look found no room, or claimed as much as it had room
   * for. Only then does a piece that finishes look again; otherwise the next NOTIFY, hand-off or poll does (a look
   * after every piece was a claim statement per delivery that found nothing).
   */
  private backlog = false;
  private pumping = false;
  private again = false;
  private stopped = true;
  private timer: NodeJS.Timeout | undefined;
  /** Set while the pump waits out a failed claim on an unreachable database: until it fires, wakes change nothing. */
  private retry: NodeJS.Timeout | undefined;
  private readonly outage: OutageLog;
  private unlisten: (() => Promise<void>) | undefined;
  private readonly idle = new Set<() => void>();
  /** How many free slots a backlog waits for before it is claimed again (see `run`). */
  private readonly refill: number;

  constructor(
    private readonly database: Database,
    private readonly options: OutboxPumpOptions,
  ) {
    this.outage = new OutageLog(options.name);
    this.refill = Math.max(1, Math.floor(options.concurrency / 4));
  }

  async start(): Promise<void> {
    this.stopped = false;
    this.unlisten = await this.database.listen(this.options.channel, () => this.wake());
    this.timer = setInterval(() => this.wake(), this.options.pollMs);
    this.timer.unref();
    this.wake();
  }

  /** Stops claiming and waits for the work in flight to settle. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    clearTimeout(this.retry);
    this.retry = undefined;
    await this.unlisten?.();
    while (this.inFlight > 0 || this.pumping) await new Promise<void>((resolve) => this.idle.add(resolve));
  }

  /** Reserves up to `wanted` free slots for work claimed outside the pump (see `runReserved`); none once stopped. */
  reserve(wanted: number): number {
    if (this.stopped) return 0;
    const granted = Math.max(0, Math.min(wanted, this.options.concurrency - this.inFlight - this.reserved));
    this.reserved += granted;
    return granted;
  }

  /** Gives back reserved slots whose work will not come. */
  release(count: number): void {
    this.reserved = Math.max(0, this.reserved - count);
  }

  /** Runs a piece of work claimed outside the pump in a slot reserved for it; like claimed work, it MUST catch its own failure. */
  runReserved(work: () => Promise<void>): void {
    this.release(1);
    this.run(work);
  }

  wake(): void {
    if (this.stopped || this.retry) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    void this.pump().finally(() => {
      this.pumping = false;
      this.settle();
    });
  }

  /** Says that a piece of work failed: once per outage while the database cannot be reached, otherwise every time. */
  failed(what: string, error: unknown): void {
    if (isDatabaseUnavailable(error)) this.outage.failed(error);
    else console.error(`${this.options.name}: ${what} failed`, error);
  }

  /** Wakes `stop()` once nothing is in flight; until then its waiters MUST stay registered, or stop() never returns. */
  private settle(): void {
    if (this.inFlight > 0 || this.pumping) return;
    for (const resolve of this.idle) resolve();
    this.idle.clear();
  }

  private async pump(): Promise<void> {
    do {
      this.again = false;
      const room = this.options.concurrency - this.inFlight - this.reserved;
      if (this.stopped) return;
      if (room <= 0) {
        this.backlog = true;
        return;
      }
      this.backlog = false;
      let claimed: (() => Promise<void>)[];
      try {
        claimed = await this.options.claim(room);
      } catch (error) {
        if (!this.stopped) this.claimFailed(error);
        return;
      }
      this.outage.succeeded();
      for (const work of claimed) this.run(work);
      if (claimed.length === room) this.again = this.backlog = true;
    } while (this.again && !this.stopped);
  }

  private run(work: () => Promise<void>): void {
    this.inFlight++;
    void work().finally(() => {
      this.inFlight--;
      if (this.stopped) this.settle();
      // Work waits for slots: claim again once a quarter of them are free (or nothing is left in flight), not at every
      // piece that finishes, which was a claim statement per piece, each for one row.
      else if (this.backlog && (this.inFlight === 0 || this.options.concurrency - this.inFlight - this.reserved >= this.refill)) this.wake();
    });
  }

  /** An unreachable database: try again after the outage's backoff. Anything else is said, and tried at the next wake. */
  private claimFailed(error: unknown): void {
    if (!isDatabaseUnavailable(error)) return console.error(`${this.options.name}: claiming failed`, error);
    this.outage.failed(error);
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.wake();
    }, this.outage.backoffMs());
    this.retry.unref();
  }
}
