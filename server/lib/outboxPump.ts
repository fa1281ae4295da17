/**
 * The loop every outbox worker of this product runs (the engine's dispatcher, the notifications' deliverer): woken by a
 * NOTIFY on its channel and by a poll, it claims as much work as it has room for (up to `concurrency` in flight) and
 * runs each piece, claiming again as pieces finish; `stop()` stops claiming and waits for the work in flight. What is
 * claimed and how each piece is done are the worker's own (`claim`).
 */
import type { Database } from "../../db/client";

export interface OutboxPumpOptions {
  /** The NOTIFY channel that says new work is due. */
  channel: string;
  /** How often to look for due work when nothing woke the pump. */
  pollMs: number;
  /** Pieces of work in flight at once in this process. */
  concurrency: number;
  /** Claims up to `room` pieces of due work; each runs once, and MUST catch and record its own failure. */
  claim(room: number): Promise<(() => Promise<void>)[]>;
  /** Says that claiming failed (it is tried again at the next wake). */
  onClaimError(error: unknown): void;
}

export class OutboxPump {
  private inFlight = 0;
  private pumping = false;
  private again = false;
  private stopped = true;
  private timer: NodeJS.Timeout | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private readonly idle = new Set<() => void>();

  constructor(
    private readonly database: Database,
    private readonly options: OutboxPumpOptions,
  ) {}

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
    await this.unlisten?.();
    while (this.inFlight > 0 || this.pumping) await new Promise<void>((resolve) => this.idle.add(resolve));
  }

  wake(): void {
    if (this.stopped) return;
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

  /** Wakes `stop()` once nothing is in flight; until then its waiters MUST stay registered, or stop() never returns. */
  private settle(): void {
    if (this.inFlight > 0 || this.pumping) return;
    for (const resolve of this.idle) resolve();
    this.idle.clear();
  }

  private async pump(): Promise<void> {
    do {
      this.again = false;
      const room = this.options.concurrency - this.inFlight;
      if (room <= 0 || this.stopped) return;
      let claimed: (() => Promise<void>)[];
      try {
        claimed = await this.options.claim(room);
      } catch (error) {
        if (!this.stopped) this.options.onClaimError(error);
        return;
      }
      for (const work of claimed) {
        this.inFlight++;
        void work().finally(() => {
          this.inFlight--;
          if (this.stopped) this.settle();
          else this.wake();
        });
      }
      if (claimed.length === room) this.again = true;
    } while (this.again && !this.stopped);
  }
}
