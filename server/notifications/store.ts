/**
 * Every statement on the notifications' tables (notification_subscriptions, notification_events, webhook_deliveries,
 * email_outbox), and the only module that writes them. JSONB read back (a subscription's events, an event's payload)
 * is parsed here with the schemas that define it, so nothing above this module handles an unchecked value.
 * It also reads, never writes, what the notifier needs to know of other tables: who should be told by email (accounts)
 * and what a run is called (the run's flow, and its pipeline or workflow row when a front door owns it).
 */
import { desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { type Executor, rows } from "../../db/client";
import { statement } from "../../db/statement";
import { type NotificationSubscriptionRow, notificationEvents, notificationSubscriptions, webhookDeliveries } from "../../db/schema";
import { type Delivery, DeliveryStatus, NotificationEventType, NotificationPayload, type Subscription } from "./schemas";

const iso = (value: unknown): string => (value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString());
const isoOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : iso(value));

const EventTypes = z.array(NotificationEventType);

// ---- Subscriptions ----------------------------------------------------------------------------------------------

/** A subscription as the doors answer it (never its secret). */
export function subscriptionOf(row: NotificationSubscriptionRow): Subscription {
  return { id: row.id, url: row.url, events: EventTypes.parse(row.events), created_at: iso(row.createdAt), created_by: row.createdByName };
}

export async function insertSubscription(
  tx: Executor,
  values: { url: string; events: readonly string[]; secret: string; createdById: string | null; createdByName: string | null },
): Promise<NotificationSubscriptionRow> {
  const [row] = await tx.insert(notificationSubscriptions).values({ ...values, events: [...values.events] }).returning();
  return row!;
}

export async function listSubscriptions(db: Executor): Promise<NotificationSubscriptionRow[]> {
  return db.select().from(notificationSubscriptions).orderBy(desc(notificationSubscriptions.createdAt), desc(notificationSubscriptions.id));
}

export async function subscriptionById(db: Executor, id: string): Promise<NotificationSubscriptionRow | undefined> {
  const [row] = await db.select().from(notificationSubscriptions).where(eq(notificationSubscriptions.id, id));
  return row;
}

/** Deletes the subscription and (by the foreign key's cascade) its deliveries, sent or not: nothing more goes to it. */
export async function deleteSubscription(tx: Executor, id: string): Promise<NotificationSubscriptionRow | undefined> {
  const [row] = await tx.delete(notificationSubscriptions).where(eq(notificationSubscriptions.id, id)).returning();
  return row;
}

// ---- Events, and their fan-out ---------------------------------------------------------------------------------

/**
 * Records events with the payload their subscribers receive, and one delivery per subscription that wants an event's
 * type, each due at once, in one statement; answers how many deliveries.
 */
export async function insertEvents(tx: Executor, payloads: readonly NotificationPayload[]): Promise<number> {
  if (payloads.length === 0) return 0;
  const inserted = await insertEventsStatement.rows<{ id: string }>(tx, { events: JSON.stringify(payloads.map((p) => ({ id: p.id, type: p.type, payload: p }))) });
  return inserted.length;
}

const insertEventsStatement = statement<"events">((p) => sql`
  WITH event AS (
    INSERT INTO notification_events (id, type, payload)
    SELECT x.id, x.type, x.payload FROM jsonb_to_recordset(${p.events}::jsonb) AS x(id uuid, type text, payload jsonb)
    RETURNING id, type
  )
  INSERT INTO webhook_deliveries (subscription_id, event_id, event_type)
  SELECT s.id, event.id, event.type FROM event JOIN notification_subscriptions s ON s.events @> jsonb_build_array(event.type)
  RETURNING id`);

export interface Recipient {
  accountId: string;
  name: string;
  email: string;
}

/**
 * Who is told by email: the accounts named (by id) or holding exactly `role`, that can sign in (not disabled, a
 * password chosen) and have not turned email off.
 */
export async function emailRecipients(db: Executor, who: { accountId: string } | { role: string }): Promise<Recipient[]> {
  const match = "accountId" in who ? sql`a.id = ${who.accountId}::uuid` : sql`a.role = ${who.role}`;
  return rows<Recipient>(db, sql`
    SELECT a.id AS "accountId", a.name, a.email FROM accounts a
    WHERE ${match} AND a.disabled_at IS NULL AND a.password_hash IS NOT NULL AND a.email_notifications
    ORDER BY a.created_at, a.id`);
}

export interface NewEmail {
  /** The notification event the email tells. */
  eventId: string;
  accountId: string;
  to: string;
  subject: string;
  body: string;
}

export async function insertEmails(tx: Executor, emails: readonly NewEmail[]): Promise<void> {
  if (emails.length === 0) return;
  await tx.execute(sql`
    INSERT INTO email_outbox (event_id, account_id, to_address, subject, body)
    SELECT x."eventId", x."accountId", x."to", x.subject, x.body
    FROM jsonb_to_recordset(${JSON.stringify(emails)}::jsonb) AS x("eventId" uuid, "accountId" uuid, "to" text, subject text, body text)`);
}

/** Wakes every process's deliverer once the transaction commits (PostgreSQL sends a NOTIFY at commit, never before). */
export async function notifyDeliverers(tx: Executor): Promise<void> {
  await tx.execute(sql`SELECT pg_notify('stitch_notify', '')`);
}

/** What a run is called: its flow's name, and the pipeline's domain or the workflow's name when one of them owns it. */
export async function runNaming(db: Executor, engineRunId: string): Promise<{ flowName: string | null; domain: string | null; workflow: string | null }> {
  const [row] = await rows<{ flow_name: string | null; domain: string | null; workflow: string | null }>(db, sql`
    SELECT f.name AS flow_name, p.domain, w.workflow
    FROM stitch_runs r JOIN stitch_flows f ON f.id = r.flow_id
    LEFT JOIN pipeline_runs p ON p.stitch_run_id = r.id
    LEFT JOIN workflow_runs w ON w.id = r.id
    WHERE r.id = ${engineRunId}::uuid`);
  return { flowName: row?.flow_name ?? null, domain: row?.domain ?? null, workflow: row?.workflow ?? null };
}

// ---- The webhook outbox, as the deliverer works it --------------------------------------------------------------

export interface ClaimedDelivery {
  id: string;
  /** This attempt's number: 1 for the first. */
  attempt: number;
  url: string;
  secret: string;
  payload: NotificationPayload;
}

/**
 * The claim both outboxes make: up to `limit` pending rows that are due and that no live lease holds, oldest first,
 * leased for `leaseMs` with their attempt counted. SKIP LOCKED lets every process share them; the caller adds what
 * the claim returns.
 */
function claimDue(table: "webhook_deliveries" | "email_outbox", limit: number, leaseMs: number) {
  const rows = sql.identifier(table);
  return sql`
    UPDATE ${rows}
    SET locked_until = now() + make_interval(secs => ${leaseMs} / 1000.0), attempts = attempts + 1
    WHERE id = ANY(ARRAY(
      SELECT id FROM ${rows}
      WHERE status = 'pending' AND run_at <= now() AND (locked_until IS NULL OR locked_until < now())
      ORDER BY run_at LIMIT ${limit}
      FOR UPDATE SKIP LOCKED))`;
}

/**
 * Claims up to `limit` due deliveries under a lease and counts the attempt: SKIP LOCKED lets every process share
 * them, and a row claimed by a process that died is claimed again once its lease has run out. As the engine's
 * `claimDispatches`, the rows are chosen once and then found by their ids, not by a join the statistics decide.
 */
export async function claimDeliveries(db: Executor, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  const claimed = await rows<{ id: string; attempts: number; url: string; secret: string; payload: unknown }>(db, sql`
    WITH claimed AS (
      ${claimDue("webhook_deliveries", limit, leaseMs)}
      RETURNING id, attempts, subscription_id, event_id)
    SELECT c.id, c.attempts, s.url, s.secret, e.payload
    FROM claimed c
    JOIN notification_subscriptions s ON s.id = c.subscription_id
    JOIN notification_events e ON e.id = c.event_id`);
  return claimed.map((row) => ({ id: row.id, attempt: row.attempts, url: row.url, secret: row.secret, payload: NotificationPayload.parse(row.payload) }));
}

/** How one attempt went: the answer's status (none: no answer came), how long it took, and the error when it failed. */
export interface AttemptOutcome {
  responseStatus: number | null;
  responseMs: number;
  error: string | null;
}

/** The attempt succeeded, or failed for the last time: the row is settled and kept as history. */
export async function settleDelivery(db: Executor, id: string, status: Exclude<DeliveryStatus, "pending">, outcome: AttemptOutcome): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({
      status, lockedUntil: null, responseStatus: outcome.responseStatus, responseMs: outcome.responseMs, lastError: outcome.error,
      lastAttemptAt: sql`now()`, deliveredAt: status === "delivered" ? sql`now()` : null,
    })
    .where(eq(webhookDeliveries.id, id));
}

/** The attempt failed and another is due after `delayMs`. */
export async function rescheduleDelivery(db: Executor, id: string, delayMs: number, outcome: AttemptOutcome): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({
      runAt: sql`now() + make_interval(secs => ${delayMs / 1000})`, lockedUntil: null,
      responseStatus: outcome.responseStatus, responseMs: outcome.responseMs, lastError: outcome.error, lastAttemptAt: sql`now()`,
    })
    .where(eq(webhookDeliveries.id, id));
}

/** A subscription's deliveries, newest first, each with the payload it carries. */
export async function listDeliveries(db: Executor, subscriptionId: string, limit: number): Promise<Delivery[]> {
  const found = await db
    .select({ delivery: webhookDeliveries, payload: notificationEvents.payload })
    .from(webhookDeliveries)
    .innerJoin(notificationEvents, eq(notificationEvents.id, webhookDeliveries.eventId))
    .where(eq(webhookDeliveries.subscriptionId, subscriptionId))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit);
  return found.map(({ delivery: d, payload }) => {
    const status = DeliveryStatus.parse(d.status);
    return {
      id: d.id, event_id: d.eventId, event_type: NotificationEventType.parse(d.eventType), status, attempts: d.attempts,
      response_status: d.responseStatus, response_ms: d.responseMs, last_error: d.lastError, created_at: iso(d.createdAt),
      last_attempt_at: isoOrNull(d.lastAttemptAt), next_attempt_at: status === "pending" ? iso(d.runAt) : null, delivered_at: isoOrNull(d.deliveredAt),
      payload: NotificationPayload.parse(payload),
    };
  });
}

// ---- The email outbox -------------------------------------------------------------------------------------------

export interface ClaimedEmail {
  id: string;
  attempt: number;
  to: string;
  subject: string;
  body: string;
}

/** Claims up to `limit` due emails under a lease, as `claimDeliveries` does. */
export async function claimEmails(db: Executor, limit: number, leaseMs: number): Promise<ClaimedEmail[]> {
  return rows<ClaimedEmail>(db, sql`
    ${claimDue("email_outbox", limit, leaseMs)}
    RETURNING id, attempts AS attempt, to_address AS "to", subject, body`);
}

export async function settleEmail(db: Executor, id: string, status: "sent" | "failed", error: string | null): Promise<void> {
  await db.execute(sql`
    UPDATE email_outbox SET status = ${status}, locked_until = NULL, last_error = ${error},
      sent_at = CASE WHEN ${status} = 'sent' THEN now() ELSE NULL END
    WHERE id = ${id}::uuid`);
}

export async function rescheduleEmail(db: Executor, id: string, delayMs: number, error: string): Promise<void> {
  await db.execute(sql`
    UPDATE email_outbox SET run_at = now() + make_interval(secs => ${delayMs / 1000}), locked_until = NULL, last_error = ${error}
    WHERE id = ${id}::uuid`);
}

/**
 * Forgets events older than `days` whose deliveries and emails have all settled, and with them (the foreign keys'
 * cascade) those deliveries and emails: the history a subscription shows is recent, and the tables do not grow forever.
 */
export async function pruneEvents(db: Executor, days: number): Promise<void> {
  await db.execute(sql`
    DELETE FROM notification_events e
    WHERE e.created_at < now() - make_interval(days => ${days})
      AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'pending')
      AND NOT EXISTS (SELECT 1 FROM email_outbox m WHERE m.event_id = e.id AND m.status = 'pending')`);
}
