/**
 * Delivers the outbox. Rows are claimed with FOR UPDATE SKIP LOCKED under a short lease (`leaseMs`, 5 s by default),
 * so any number of processes share the work. While this process holds a row (from its claim, or the commit that wrote
 * it claimed, until it is deleted, rescheduled or released: a delivery waiting for its worker's answer, a delivered
 * row waiting for its deletion, an executor performing a node) a heartbeat renews the row's lease every fifth of it; a
 * process that died renews nothing, and its rows are claimed again `leaseMs` after its last heartbeat. A row is
 * renewed for at most its hold (`config.leaseMs` of the node, else `timeoutMs` + 10 s): work that hangs in a live
 * process is taken over too.
 *
 * A row is never sent by a process whose claim on it lapsed. Each renewal is fenced (the row's delivery count, which
 * every claim raises) and answers which rows it renewed; a row it did not renew is no longer this process's. Before a
 * send (or work performed here) starts, the claim MUST hold for at least half a lease more by this process's own clock,
 * counted from when the statement that set the lease was sent; otherwise it is renewed first, fenced, and a claim
 * found lost is not sent. Half a lease is what the send has to get onto the wire, and what a stall of this process's
 * event loop may take before another process could claim the row.
 *
 * A row MUST be deleted once delivered, rescheduled with backoff after a failed attempt, or turned into a
 * `delivery_failed` event after the last one: never left claimed. A delivered webhook's row is deleted by the
 * transaction of the callback that follows, when it comes to this process within a grace (deliveredRows.ts).
 * Every delivery after a row's first says why (redelivery.ts): to the worker, in the run's event log and in the log.
 */
import { createHmac, randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Database } from "../../db/client";
import type { OutboundPolicy } from "../lib/outboundPolicy";
import { OutboxPump } from "../lib/outboxPump";
import { BadPort, OutboundRefusal, type ResolveHost, policedRequest } from "../lib/policedFetch";
import type { Engine, EventResult, KeyedEvent } from "./engine";
import { Coalescer } from "../lib/coalesce";
import { EngineError } from "./errors";
import { DeliveredRows } from "./deliveredRows";
import { UnreadablePayload, callbackLeaseMs, timerAfterMs, workerPayloadOf } from "./dispatchPayloads";
import { type AttemptFailure, describeRedelivery } from "./redelivery";
import { CallbackBody, type WorkerPayload } from "./schemas";
import { type ClaimedDispatch, claimDispatches, deleteDispatches, releaseDispatch, renewDispatches, rescheduleDispatch } from "./outboxStore";

export interface DispatcherOptions {
  /** Delivery attempts per dispatch before the node fails. */
  maxAttempts: number;
  /** Backoff before the second attempt; doubled for each further attempt (with ±20% jitter), capped at 5 minutes. */
  backoffMs: number;
  /** How long one delivery may wait for the worker's answer. */
  timeoutMs: number;
  /** A claimed row's lease, renewed every fifth of it while this process holds the row; default 5 s. */
  leaseMs?: number;
  /** This process as its claims name it (`claimed_by`); default `<host>/<pid>/<random>`. */
  holder?: string;
  /** Deliveries in flight at once in this process. */
  concurrency: number;
  /** How often to look for due rows when nothing woke the dispatcher. */
  pollMs: number;
  /** Signs deliveries per the Standard Webhooks spec when set. */
  signingSecret?: string;
  /**
   * The outbound-address policy every delivery goes through (OUTBOUND_ALLOW and this server's own routes): the
   * webhook's host is resolved and judged, and so is every redirect before it is followed. A refused URL fails the
   * node at once, naming the policy; no retry could change that.
   */
  outbound: { policy: OutboundPolicy; lookup?: ResolveHost };
}

/**
 * How a node's dispatch is put on the wire when its `data.protocol` names an adapter (the agent pipeline speaks
 * its agents' own protocol). Without one, the engine's worker payload goes to `data.webhookUrl`.
 * An adapter that throws fails the delivery with its message, permanently.
 */
export type DispatchAdapter = (dispatch: { runId: string; nodeId: string; url: string; payload: WorkerPayload }) => Promise<AdaptedDispatch>;

/**
 * Where and what to POST; or `perform`: work this server does itself instead (the built-in agents), run like an
 * executor's (see NodeExecutor): under the dispatch's lease, renewed while it runs; a throw is a failed delivery; when
 * this process stops, `signal` aborts, the work MUST throw without reporting, and the dispatch goes to another process.
 */
export type AdaptedDispatch = { url: string; body: unknown } | { perform(signal: AbortSignal): Promise<void> };

/**
 * Performs the work of a node this server runs itself (a Worker with `data.executor`), instead of POSTing it to a
 * webhook. It reports the outcome through engine events (callback, skip, iterate, ...) itself; when it resolves, the
 * dispatch is done. A throw counts as a failed delivery: the dispatch is tried again with backoff, then the node fails.
 * The dispatch's lease is renewed while the executor runs, for at most `config.leaseMs` when the node sets it (work
 * that may take longer than a webhook call).
 * `signal` aborts when this process stops: the executor MUST then stop its work and throw without reporting, so the
 * dispatch is released and another process performs the node again.
 */
export type NodeExecutor = (job: { runId: string; nodeId: string; attempt: number; payload: WorkerPayload; signal: AbortSignal }) => Promise<void>;

/**
 * What a front door's timer does when it comes due (store.insertTimer): it runs once the row is claimed, and the row is
 * deleted when it resolves. A throw leaves the row to be claimed again when its lease runs out, so a handler MUST be
 * safe to run again (check that what it fires for still stands, inside the run's lock).
 */
export type TimerHandler = (timer: { runId: string; subject: string; payload: unknown }) => Promise<void>;

/**
 * How long a delivered webhook's row waits for the transaction of its callback to delete it, before the dispatcher
 * deletes it itself (deliveredRows.ts). Well under the lease, which keeps other processes off the row meanwhile.
 */
const DELIVERED_GRACE_MS = 200;

const LOST: Delivery = { ok: false, lost: true };

/**
 * `reported`: the result a Worker with `data.answer: "response"` put in its answer, to be applied as its callback.
 * `performedHere`: work this process did itself (an executor's, an adapter's `perform`), which a stop gives up rather than fails.
 */
type Delivery =
  | { ok: true; reported?: CallbackBody }
  | { ok: false; error: string; cause: AttemptFailure; permanent: boolean; url?: string; performedHere?: true }
  /** Not sent: this process's claim on the row lapsed, and the row is another process's now (or gone). */
  | { ok: false; lost: true };

/** A row this process holds. */
interface Held {
  /** The delivery count its claim set: the fence of its renewals. */
  deliveries: number;
  /** Until when (Date.now()) the heartbeat renews it: its hold. */
  renewUntil: number;
  /** Until when (performance.now()) its lease surely holds: the statement that last set it was sent at `validUntil - leaseMs`. */
  validUntil: number;
}

export class Dispatcher {
  /** Aborted when the dispatcher stops, so executors performing work in this process give it up. */
  private stopping = new AbortController();
  private readonly pump: OutboxPump;
  private readonly adapters = new Map<string, DispatchAdapter>();
  private readonly executors = new Map<string, NodeExecutor>();
  private readonly timers = new Map<string, TimerHandler>();
  /** The rows this process holds, by id. */
  private readonly held = new Map<string, Held>();
  /** The rows whose delivery (or work) this process has started and not finished, by id: never claimed again by it meanwhile. */
  private readonly working = new Set<string>();
  /** This process, as its claims name it. */
  readonly holder: string;
  private heartbeat: NodeJS.Timeout | undefined;
  private renewing = false;
  /** Delivered rows are deleted together: one statement for the deliveries that finish while the last one runs. */
  private readonly delivered = new Coalescer<string, undefined>(async (ids) => {
    await this.database.run((db) => deleteDispatches(db, ids));
    return ids.map(() => undefined);
  });
  /** Delivered webhooks' rows, deleted by their callbacks' transactions or, after a grace, by the dispatcher. */
  readonly deliveredRows: DeliveredRows;
  /** Rows about to be sent with too little of their lease left, renewed (fenced) together: whether each is still held. */
  private readonly fences = new Coalescer<{ id: string; deliveries: number }, boolean>(async (rows) => {
    const sentAt = performance.now();
    const renewed = await this.database.runApart((db) => renewDispatches(db, rows, this.leaseMs));
    return rows.map((row) => this.renewed(row, renewed.has(row.id), sentAt));
  });
  /** Workers' answers that carry their result are applied together: one transaction for those that arrive together. */
  private readonly answers = new Coalescer<{ runId: string; event: KeyedEvent }, EventResult | Error>((events) => this.engine.handleAll(events));

  constructor(
    private readonly database: Database,
    private readonly engine: Engine,
    private readonly options: DispatcherOptions,
  ) {
    this.holder = options.holder ?? `${hostname()}/${process.pid}/${randomBytes(3).toString("hex")}`;
    this.pump = new OutboxPump(database, {
      name: "dispatcher",
      channel: "stitch_dispatch",
      pollMs: options.pollMs,
      concurrency: options.concurrency,
      claim: async (room) => (await this.claim(room)).map((row) => () => this.work(row)),
    });
    this.deliveredRows = new DeliveredRows(
      (ids) => this.database.run((db) => deleteDispatches(db, ids)),
      DELIVERED_GRACE_MS,
      (error) => this.pump.failed("deleting delivered rows", error),
      (ids) => {
        for (const id of ids) this.held.delete(id);
      },
    );
    // The webhooks this process's transactions write are written claimed by it, and delivered here once committed.
    engine.deliverHere({
      leaseMs: this.leaseMs,
      holder: this.holder,
      cleared: (nodes) => this.deliveredRows.cleared(nodes),
      reserve: (wanted) => this.pump.reserve(wanted),
      release: (count) => this.pump.release(count),
      deliver: (rows, leasedFrom) => {
        // Stopped meanwhile: the rows' leases run out and another process (or this one, restarted) claims them.
        if (this.stopping.signal.aborted) return this.pump.release(rows.length);
        this.hold(rows, leasedFrom);
        for (const row of rows) this.pump.runReserved(() => this.work(row));
      },
    });
  }

  /**
   * One claimed row's delivery and what follows it; the row is held (its lease renewed) until then, and a delivered
   * webhook's row until it is deleted (deliveredRows.ts `gone`).
   */
  private work(row: ClaimedDispatch): Promise<void> {
    this.working.add(row.id);
    return this.deliverAndRecord(row)
      .catch((error) => this.pump.failed(`recording delivery ${row.id}`, error))
      .finally(() => {
        this.working.delete(row.id);
        // Unless this process claimed the row again meanwhile (its lease lapsed): that claim's work holds it now.
        if (this.held.get(row.id)?.deliveries !== row.deliveries) return;
        if (!this.deliveredRows.isWaiting(row.id)) this.held.delete(row.id);
        this.deliveredRows.settled(row.id);
      });
  }

  /** Registers how dispatches of nodes with `data.protocol === name` are sent. */
  useAdapter(name: string, adapter: DispatchAdapter): void {
    this.adapters.set(name, adapter);
  }

  /** Registers who performs the dispatches of nodes with `data.executor === name`. */
  useExecutor(name: string, executor: NodeExecutor): void {
    this.executors.set(name, executor);
  }

  /** Registers what the timers named `name` do when they come due. */
  useTimer(name: string, handler: TimerHandler): void {
    this.timers.set(name, handler);
  }

  async start(): Promise<void> {
    this.stopping = new AbortController();
    // A fifth: a lease outlasts a stall of the event loop of up to three fifths of it (3 s of 5) and the renewal's round trip.
    this.heartbeat = setInterval(() => void this.renew(), this.leaseMs / 5);
    this.heartbeat.unref();
    await this.pump.start();
  }

  /** Stops claiming and waits for the deliveries in flight to settle (renewing their leases meanwhile). */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.pump.stop();
    clearInterval(this.heartbeat);
    await this.deliveredRows.flush().catch((error) => this.pump.failed("deleting delivered rows", error));
  }

  private get leaseMs(): number {
    return this.options.leaseMs ?? 5000;
  }

  /** The heartbeat: renews the lease of every row held and still within its hold. A failure (the database away) waits for the next beat. */
  private async renew(): Promise<void> {
    if (this.renewing || this.held.size === 0) return;
    this.renewing = true;
    const now = Date.now();
    const held = [...this.held].filter(([, h]) => h.renewUntil > now).map(([id, h]) => ({ id, deliveries: h.deliveries }));
    try {
      const sentAt = performance.now();
      // On a connection of its own: behind a busy pool's queue the leases would lapse while their work goes on.
      const renewed = await this.database.runApart((db) => renewDispatches(db, held, this.leaseMs));
      for (const row of held) this.renewed(row, renewed.has(row.id), sentAt);
    } catch (error) {
      this.pump.failed("renewing leases", error);
    } finally {
      this.renewing = false;
    }
  }

  wake(): void {
    this.pump.wake();
  }

  /**
   * A renewal's answer for one row, sent at `sentAt`: renewed, its lease holds until `sentAt + leaseMs`; not renewed,
   * the row is no longer this process's (claimed by another since, or deleted, rescheduled, released) and is let go.
   * Answers whether the row is still held. A renewal of an earlier claim of the row (this process claimed it again
   * since) changes nothing.
   */
  private renewed(row: { id: string; deliveries: number }, renewed: boolean, sentAt: number): boolean {
    const held = this.held.get(row.id);
    if (!held || held.deliveries !== row.deliveries) return false;
    if (!renewed) {
      this.held.delete(row.id);
      return false;
    }
    held.validUntil = Math.max(held.validUntil, sentAt + this.leaseMs);
    return true;
  }

  /**
   * Whether this process may start sending the row (or performing its work) now: its claim holds for at least half a
   * lease more, renewed first (fenced) when less is left. False: the claim lapsed and the row is not this process's.
   */
  private async stillHeld(row: ClaimedDispatch): Promise<boolean> {
    const held = this.held.get(row.id);
    if (!held || held.deliveries !== row.deliveries) return false;
    if (held.validUntil - performance.now() >= this.leaseMs / 2) return true;
    // A renewal that cannot reach the database cannot say the claim holds: the row is not sent now, and is claimed
    // again (its cause recorded) once its lease has lapsed and the database answers.
    return this.fences.add({ id: row.id, deliveries: row.deliveries }).catch((error: unknown) => {
      this.pump.failed("renewing a lease before a send", error);
      return false;
    });
  }

  private async claim(limit: number): Promise<ClaimedDispatch[]> {
    const sentAt = performance.now();
    // Only rows whose lease may have lapsed by now could be claimed again: the rest need not be named.
    const lapsed = [...this.working].filter((id) => (this.held.get(id)?.validUntil ?? 0) <= sentAt);
    const claimed = await this.database.run((db) => claimDispatches(db, limit, this.leaseMs, this.holder, lapsed));
    this.hold(claimed, sentAt);
    for (const row of claimed) {
      if (row.redelivery) console.warn(`dispatcher: delivering ${row.kind} ${row.id} (node ${row.node_id} of run ${row.run_id}) again, delivery ${row.deliveries}: ${describeRedelivery(row.redelivery)}`);
    }
    return claimed;
  }

  /**
   * Rows this process now holds, leased by a statement sent at `leasedFrom` (performance.now()): the heartbeat renews
   * their leases while it works on them, for at most their hold.
   */
  private hold(rows: readonly ClaimedDispatch[], leasedFrom: number): void {
    const now = Date.now();
    for (const row of rows) {
      const holdMs = callbackLeaseMs(row.payload) ?? this.options.timeoutMs + 10_000;
      this.held.set(row.id, { deliveries: row.deliveries, renewUntil: now + holdMs, validUntil: leasedFrom + this.leaseMs });
      if (row.kind === "webhook") this.deliveredRows.track(row);
    }
  }

  private forget(row: ClaimedDispatch): Promise<void> {
    return this.delivered.add(row.id);
  }

  /**
   * A Worker answered its dispatch with its result: applied as its callback for the attempt dispatched, whose
   * transaction also deletes the node's outbox rows, this one among them. An answer the node no longer takes (it moved
   * on, the run was cancelled) changes nothing, and the row goes; a failure to apply it (the database away) leaves the
   * row claimed, to be delivered again when its lease runs out, as a callback that never arrived would be.
   */
  private async applyAnswer(row: ClaimedDispatch, reported: CallbackBody): Promise<void> {
    const { attempt: _echoed, ...result } = reported;
    const applied = await this.answers.add({ runId: row.run_id, event: { type: "callback", key: row.node_id, ...result, attempt: row.node_attempt } });
    if (applied instanceof EngineError || (!(applied instanceof Error) && applied.duplicate)) await this.forget(row);
    else if (applied instanceof Error) throw applied;
  }

  private async deliverAndRecord(row: ClaimedDispatch): Promise<void> {
    if (row.kind === "timeout" || row.kind === "retry") {
      // A timer that came due: the node's attempt times out, or its next automatic attempt is fired (each a no-op when
      // the node has moved on). If this throws, the row stays claimed until its lease runs out and is then tried again.
      let afterMs: number;
      try {
        afterMs = timerAfterMs(row.payload);
      } catch (error) {
        if (!(error instanceof UnreadablePayload)) throw error;
        // Written by another version of this engine in a shape this one cannot read: the node fails, saying so.
        await this.engine
          .handle(row.run_id, { type: "delivery_failed", key: row.node_id, attempt: row.node_attempt, error: error.message })
          .catch((failure) => console.error(`dispatcher: failing node ${row.node_id} of run ${row.run_id} failed`, failure));
        await this.forget(row);
        return;
      }
      await this.engine.handle(
        row.run_id,
        row.kind === "timeout"
          ? { type: "timeout", key: row.node_id, attempt: row.node_attempt, afterMs }
          : { type: "retry_due", key: row.node_id, attempt: row.node_attempt },
      );
      await this.forget(row);
      return;
    }
    if (row.kind === "timer") {
      const handler = this.timers.get(row.url);
      if (!handler) {
        // A process without this handler (an older version during a rolling deploy): the timer waits for one that has it.
        await this.database.run((db) => rescheduleDispatch(db, row.id, 60_000, { cause: "no_handler", error: `no timer handler "${row.url}" in this server` }));
        return;
      }
      await handler({ runId: row.run_id, subject: row.node_id, payload: row.payload });
      await this.forget(row);
      return;
    }
    const result = await this.deliver(row);
    if ("lost" in result) {
      console.warn(`dispatcher: not delivering ${row.id} (node ${row.node_id} of run ${row.run_id}), delivery ${row.deliveries}: this process's claim on it lapsed before the send, and it is no longer this process's`);
      return;
    }
    if (result.ok) {
      if (result.reported) await this.applyAnswer(row, result.reported);
      else this.deliveredRows.delivered(row.id);
      return;
    }
    if (this.stopping.signal.aborted && result.performedHere) {
      // Work given up because this process is stopping: not an attempt that failed. Another process takes it now.
      await this.database.run((db) => releaseDispatch(db, row.id));
      return;
    }
    if (!result.permanent && row.deliveries < this.options.maxAttempts) {
      const delayMs = backoff(this.options.backoffMs, row.deliveries);
      await this.database.run((db) => rescheduleDispatch(db, row.id, delayMs, { cause: result.cause, error: result.error }));
      return;
    }
    const attempts = row.deliveries === 1 ? "1 attempt" : `${row.deliveries} attempts`;
    await this.engine
      .handle(row.run_id, { type: "delivery_failed", key: row.node_id, attempt: row.node_attempt, error: `could not deliver to ${result.url ?? row.url}: ${result.error} (${attempts})` })
      .catch((error) => console.error(`dispatcher: failing node ${row.node_id} of run ${row.run_id} failed`, error));
    // The event deletes the node's rows; this covers a node that had already moved on.
    await this.forget(row);
  }

  private async deliver(row: ClaimedDispatch): Promise<Delivery> {
    if (row.url.startsWith("executor:")) {
      if (!(await this.stillHeld(row))) return LOST;
      const name = row.url.slice("executor:".length);
      return executeWith(this.executors.get(name), name, row, this.stopping.signal);
    }
    let url = row.url;
    let payload: unknown = row.payload;
    let workerPayload: WorkerPayload;
    try {
      workerPayload = workerPayloadOf(row.payload);
    } catch (error) {
      if (error instanceof UnreadablePayload) return { ok: false, error: error.message, cause: "work_failed", permanent: true };
      throw error;
    }
    // The node's spec.protocol, read from the config its dispatch carries: the outbox row is all a delivery has.
    const protocol = workerPayload.config?.protocol;
    if (typeof protocol === "string") {
      const adapter = this.adapters.get(protocol);
      if (!adapter) return { ok: false, error: `no dispatch adapter for protocol "${protocol}"`, cause: "work_failed", permanent: true };
      let adapted: AdaptedDispatch;
      try {
        adapted = await adapter({ runId: row.run_id, nodeId: row.node_id, url: row.url, payload: workerPayload });
      } catch (error) {
        return { ok: false, error: error instanceof Error ? error.message : String(error), cause: "work_failed", permanent: true };
      }
      if (!(await this.stillHeld(row))) return LOST;
      if ("perform" in adapted) return performHere(`protocol "${protocol}"`, () => adapted.perform(this.stopping.signal));
      ({ url, body: payload } = adapted);
    }
    const body = JSON.stringify(payload);
    const timestamp = Math.floor(Date.now() / 1000).toString();
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "user-agent": "stitch-engine",
      "webhook-id": row.id,
      "webhook-timestamp": timestamp,
      // The worker sees which delivery of this webhook-id this is, and why it came again.
      "stitch-delivery-attempt": String(row.deliveries),
    };
    if (row.redelivery) headers["stitch-redelivery-cause"] = row.redelivery.cause;
    if (this.options.signingSecret) headers["webhook-signature"] = sign(this.options.signingSecret, row.id, timestamp, body);
    // The last moment before the request goes: from here its bytes are written within the half lease stillHeld leaves.
    if (!(await this.stillHeld(row))) return LOST;
    try {
      const { policy, lookup } = this.options.outbound;
      // undici's `request`, not `fetch`: a delivery is the engine's hottest outgoing call (policedFetch.ts says why).
      const answer = await policedRequest(url, { method: "POST", headers, body, timeoutMs: this.options.timeoutMs }, { policy, ...(lookup ? { lookup } : {}) });
      if (answer.status >= 200 && answer.status < 300) return workerPayload.config?.answer === "response" ? reportedIn(answer.status, answer.text, url) : { ok: true };
      const retryable = answer.status >= 500 || answer.status === 408 || answer.status === 429;
      const detail = answer.text.trim().slice(0, 200);
      const status = `HTTP ${answer.status}${answer.statusText ? ` ${answer.statusText}` : ""}`;
      return { ok: false, error: detail ? `${status}: ${detail}` : status, cause: "worker_answered", permanent: !retryable, url };
    } catch (error) {
      if (error instanceof OutboundRefusal) {
        // A name that did not resolve was judged on no address: a network error, which a later attempt may not meet.
        if (error.dnsCode) return { ok: false, error: `network error ${error.dnsCode} (${error.reason})`, cause: "network_error", permanent: false, url };
        return { ok: false, error: `refused by the outbound-address policy (OUTBOUND_ALLOW): ${error.reason}`, cause: "network_error", permanent: true, url };
      }
      // A port the Fetch standard forbids ("bad port") is refused before connecting: no retry can change that.
      if (error instanceof BadPort) return { ok: false, error: "network error: bad port", cause: "network_error", permanent: true, url };
      return { ok: false, ...describeDeliveryError(error, this.options.timeoutMs), permanent: false, url };
    }
  }
}

/** Work this server performs itself; its failures are told to the engine by the executor, so only a throw is a failed delivery. */
function executeWith(executor: NodeExecutor | undefined, name: string, row: ClaimedDispatch, signal: AbortSignal): Promise<Delivery> {
  if (!executor) return Promise.resolve({ ok: false, error: `no executor "${name}" in this server`, cause: "work_failed", permanent: true });
  return performHere(`executor "${name}"`, () => executor({ runId: row.run_id, nodeId: row.node_id, attempt: row.node_attempt, payload: workerPayloadOf(row.payload), signal }));
}

async function performHere(what: string, work: () => Promise<void>): Promise<Delivery> {
  try {
    await work();
    return { ok: true };
  } catch (error) {
    return { ok: false, error: `${what} failed: ${error instanceof Error ? error.message : String(error)}`, cause: "work_failed", permanent: false, performedHere: true };
  }
}

/**
 * The answer of a Worker with `data.answer: "response"`: a callback's body completes or fails the node at once; 202 or
 * an empty body means the worker will call back as usual. Any other body is a broken promise of the worker's, which no
 * attempt would change.
 */
function reportedIn(status: number, answer: string, url: string): Delivery {
  if (status === 202 || answer.trim() === "") return { ok: true };
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer);
  } catch {
    parsed = undefined;
  }
  const reported = CallbackBody.safeParse(parsed);
  if (reported.success) return { ok: true, reported: reported.data };
  return {
    ok: false, permanent: true, url, cause: "worker_answered",
    error: `HTTP ${status}: the node has data.answer "response", but the answer is not a callback body ({"status": "completed" or "failed", "output"?, "error"?}): ${answer.trim().slice(0, 200)}`,
  };
}

export function backoff(baseMs: number, deliveries: number): number {
  const exponential = Math.min(baseMs * 2 ** (deliveries - 1), 300_000);
  return Math.round(exponential * (0.8 + Math.random() * 0.4));
}

/** Standard Webhooks: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`; a `whsec_` prefix marks a base64 secret. */
export function sign(secret: string, id: string, timestamp: string, body: string): string {
  const key = secret.startsWith("whsec_") ? Buffer.from(secret.slice(6), "base64") : Buffer.from(secret);
  return `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
}

function describeDeliveryError(error: unknown, timeoutMs: number): { error: string; cause: AttemptFailure } {
  const code = (error as { code?: unknown } | null)?.code;
  // undici's HeadersTimeoutError and BodyTimeoutError: the worker did not answer (or finish answering) in time.
  if (code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT") return { error: `no answer within ${timeoutMs} ms`, cause: "timeout" };
  // A socket's own error (ECONNREFUSED, ECONNRESET...) is the error itself; undici's wrap theirs in `cause`.
  const cause = (error instanceof Error && typeof code !== "string" ? error.cause : error) as { code?: string; message?: string } | undefined;
  if (typeof cause?.code === "string") return { error: `network error ${cause.code}${cause.message ? ` (${cause.message})` : ""}`, cause: "network_error" };
  return { error: `network error: ${error instanceof Error ? error.message : String(error)}`, cause: "network_error" };
}
