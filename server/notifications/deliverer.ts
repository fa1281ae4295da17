/**
 * Sends what the notifier wrote: webhook deliveries to subscriptions and emails to people, from their outboxes. As
 * the engine's dispatcher does (server/engine/dispatcher.ts), it claims due rows FOR UPDATE SKIP LOCKED under a
 * lease, so any number of processes share the work, each row has one series of attempts, and a row claimed by a
 * process that died is claimed again once its lease has run out. A row MUST be settled once its attempt ends:
 * delivered (sent), rescheduled with backoff after a failure, or failed after the last attempt; never left claimed.
 *
 * Webhooks are signed per Standard Webhooks with the subscription's secret (the engine's `sign`), carry the event's
 * id as `webhook-id`, and go through the outbound-address policy: the host is resolved and judged before anything is
 * sent, and a URL the policy refuses fails at once (no retry can change that). Redirects are not followed: a delivery
 * is answered by the URL subscribed, and only a 2xx answer delivers it. Any other answer, a timeout or a network
 * error is tried again, `maxAttempts` times in all.
 */
import { OutboxPump } from "../lib/outboxPump";
import type { Database } from "../../db/client";
import { backoff, sign } from "../engine/dispatcher";
import type { OutboundPolicy } from "../lib/outboundPolicy";
import { OutboundRefusal, type ResolveHost, policedFetch, readBodyLimited } from "../lib/policedFetch";
import { MailError, type Mailer } from "./mailer";
import * as store from "./store";

export interface DelivererOptions {
  /** Attempts per delivery or email before it is marked failed. */
  maxAttempts: number;
  /** Backoff before the second attempt; doubled for each further one (±20% jitter), capped at 5 minutes. */
  backoffMs: number;
  /** How long one webhook may take to answer (and one SMTP reply). */
  timeoutMs: number;
  /** Deliveries and emails in flight at once in this process. */
  concurrency: number;
  /** How often to look for due rows when nothing woke the deliverer. */
  pollMs: number;
  /** Events older than this many days, whose deliveries and emails have settled, are forgotten. */
  retentionDays: number;
  outbound: { policy: OutboundPolicy; lookup?: ResolveHost };
  /** Sends email; without one (no SMTP_URL) no email row exists, and none is claimed. */
  mailer?: Mailer;
}

/** The most of a failing answer's body kept with the delivery, to say why it failed. */
const DETAIL_CHARS = 200;
const ANSWER_BYTES = 64 * 1024;
const PRUNE_EVERY_MS = 3600_000;

type Attempt = { ok: true; outcome: store.AttemptOutcome } | { ok: false; permanent: boolean; outcome: store.AttemptOutcome & { error: string } };

export class Deliverer {
  private prunedAt = 0;
  private readonly pump: OutboxPump;

  constructor(
    private readonly database: Database,
    private readonly options: DelivererOptions,
  ) {
    this.pump = new OutboxPump(database, {
      name: "notifications",
      channel: "stitch_notify",
      pollMs: options.pollMs,
      concurrency: options.concurrency,
      claim: (room) => this.claim(room),
    });
  }

  async start(): Promise<void> {
    await this.pump.start();
  }

  /** Stops claiming and waits for the attempts in flight to settle. */
  async stop(): Promise<void> {
    await this.pump.stop();
    this.options.mailer?.close();
  }

  wake(): void {
    this.pump.wake();
  }

  /** Up to `room` webhook deliveries, then emails in the room left, each a piece of work that records its own attempt. */
  private async claim(room: number): Promise<(() => Promise<void>)[]> {
    const leaseMs = this.options.timeoutMs + 10_000;
    const deliveries = await this.database.run((db) => store.claimDeliveries(db, room, leaseMs));
    const mailer = this.options.mailer;
    const emails = mailer && deliveries.length < room ? await this.database.run((db) => store.claimEmails(db, room - deliveries.length, leaseMs)) : [];
    await this.pruneNowAndThen();
    const recorded = (work: () => Promise<void>) => () => work().catch((error: unknown) => this.pump.failed("recording an attempt", error));
    return [...deliveries.map((row) => recorded(() => this.deliver(row))), ...emails.map((row) => recorded(() => this.mail(mailer!, row)))];
  }

  private async pruneNowAndThen(): Promise<void> {
    if (Date.now() - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = Date.now();
    await this.database.run((db) => store.pruneEvents(db, this.options.retentionDays));
  }

  private async deliver(row: store.ClaimedDelivery): Promise<void> {
    const attempt = await this.post(row);
    if (attempt.ok) return this.database.run((db) => store.settleDelivery(db, row.id, "delivered", attempt.outcome));
    if (!attempt.permanent && row.attempt < this.options.maxAttempts) {
      const delayMs = backoff(this.options.backoffMs, row.attempt);
      return this.database.run((db) => store.rescheduleDelivery(db, row.id, delayMs, attempt.outcome));
    }
    const attempts = row.attempt === 1 ? "1 attempt" : `${row.attempt} attempts`;
    const outcome = { ...attempt.outcome, error: attempt.permanent ? attempt.outcome.error : `${attempt.outcome.error} (gave up after ${attempts})` };
    return this.database.run((db) => store.settleDelivery(db, row.id, "failed", outcome));
  }

  /** One attempt: the payload POSTed, signed, under the outbound policy; how it went. */
  private async post(row: store.ClaimedDelivery): Promise<Attempt> {
    const body = JSON.stringify(row.payload);
    const timestamp = Math.floor(Date.now() / 1000).toString();
    const headers = {
      "content-type": "application/json",
      "user-agent": "stitch-notifications",
      "webhook-id": row.payload.id,
      "webhook-timestamp": timestamp,
      "webhook-signature": sign(row.secret, row.payload.id, timestamp, body),
    };
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const { policy, lookup } = this.options.outbound;
      const request = { method: "POST", headers, body, signal: AbortSignal.timeout(this.options.timeoutMs) };
      const response = await policedFetch(row.url, request, { policy, maxRedirects: 0, ...(lookup ? { lookup } : {}) });
      // Read (a receiver's answer is small; past ANSWER_BYTES it is cut off), so the connection is reused for the next delivery.
      const answer = await readBodyLimited(response, ANSWER_BYTES, () => new Error("answer too large"))
        .then((bytes) => Buffer.from(bytes).toString("utf8"))
        .catch(() => "");
      const outcome = { responseStatus: response.status, responseMs: elapsed() };
      if (response.ok) return { ok: true, outcome: { ...outcome, error: null } };
      const detail = answer.trim().slice(0, DETAIL_CHARS);
      const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
      return { ok: false, permanent: false, outcome: { ...outcome, error: detail ? `${status}: ${detail}` : status } };
    } catch (error) {
      const outcome = { responseStatus: null, responseMs: elapsed() };
      if (error instanceof OutboundRefusal && !error.dnsCode) {
        return { ok: false, permanent: true, outcome: { ...outcome, error: `refused by the outbound-address policy (OUTBOUND_ALLOW): ${error.reason}` } };
      }
      return { ok: false, permanent: false, outcome: { ...outcome, error: describeFailure(error, this.options.timeoutMs) } };
    }
  }

  private async mail(mailer: Mailer, row: store.ClaimedEmail): Promise<void> {
    try {
      await mailer.send({ to: row.to, subject: row.subject, text: row.body });
      await this.database.run((db) => store.settleEmail(db, row.id, "sent", null));
    } catch (error) {
      const permanent = error instanceof MailError && error.permanent;
      const message = error instanceof Error ? error.message : String(error);
      if (!permanent && row.attempt < this.options.maxAttempts) {
        await this.database.run((db) => store.rescheduleEmail(db, row.id, backoff(this.options.backoffMs, row.attempt), message));
        return;
      }
      await this.database.run((db) => store.settleEmail(db, row.id, "failed", permanent ? message : `${message} (gave up after ${row.attempt} attempts)`));
    }
  }
}

function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof OutboundRefusal) return `${error.reason} (network error ${error.dnsCode})`;
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) return `no answer within ${timeoutMs} ms`;
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  if (cause?.code) return `network error ${cause.code}${cause.message ? ` (${cause.message})` : ""}`;
  if (cause?.message) return `network error: ${cause.message}`;
  return `network error: ${error instanceof Error ? error.message : String(error)}`;
}
