/**
 * The outbox as the dispatcher works it (the table `stitch_dispatches`, whose rows an event's transaction writes in
 * store.ts `writeEvents`): a front door's timers, claims under a lease with the cause of every repeated delivery,
 * renewals fenced by the delivery count, and a row's end (deleted, handed back, rescheduled after a failed attempt).
 */
import { sql } from "drizzle-orm";
import { type Executor, rows } from "../../db/client";
import { type AttemptFailure, REDELIVERY_EVENT, Redelivery } from "./redelivery";

const json = (value: unknown) => JSON.stringify(value ?? null);

export interface ClaimedDispatch {
  id: string;
  run_id: string;
  node_id: string;
  node_attempt: number;
  kind: "webhook" | "timeout" | "retry" | "timer";
  url: string;
  payload: unknown;
  /** Claims of the row so far, this one included: the delivery's number, and the fence of this claim (`renewDispatches`). */
  deliveries: number;
  /** Why this delivery repeats an earlier one; null for the first (redelivery.ts). */
  redelivery: Redelivery | null;
}

/**
 * A front door's durable timer on a run: an outbox row of kind `timer` that the dispatcher hands, when `at` comes, to
 * the handler registered under `name` (its `url` holds the name). `subject` is the row's node_id, chosen so that no
 * node's own rows are mistaken for it (the engine deletes a node's rows when the node moves on); the handler MUST
 * check that what it fires for still stands, since nothing deletes a timer that is no longer wanted. Written in the
 * caller's transaction, so it exists if and only if what set it commits.
 */
export async function insertTimer(tx: Executor, timer: { runId: string; name: string; subject: string; at: string; payload: unknown }): Promise<void> {
  await tx.execute(sql`
    INSERT INTO stitch_dispatches (run_id, node_id, node_attempt, kind, url, payload, run_at)
    VALUES (${timer.runId}::uuid, ${timer.subject}, 0, 'timer', ${timer.name}, ${json(timer.payload)}::jsonb, ${timer.at}::timestamptz)`);
}

/**
 * Claims up to `limit` due rows for `holder` under a short lease (`leaseMs`), which the claiming process renews while
 * it works on them (`renewDispatches`), and counts the delivery: SKIP LOCKED lets every process share the work. A row
 * whose lease was not renewed (its process died) is due again `leaseMs` after the last renewal. The rows are chosen
 * once (`ARRAY(...)`, run once) and then found by their ids: written `id IN (...)`, the claim was a join whose plan the
 * statistics decided, and on a young outbox it was a hash semi join over a scan of every row (seen in a fan-out of
 * 1,000 paths; with 10,000 the statistics led to the primary key).
 *
 * A row claimed before MUST say why it is delivered again (redelivery.ts): the SET's expressions read the row as the
 * last claim left it, so a lease still set means that claim lapsed (its holder neither renewed, deleted, rescheduled
 * nor released it), and no lease means an attempt failed (`last_failure`). A repeated webhook is also logged in the
 * run's event log, in the same statement.
 *
 * `working`: rows the claiming process is still working on (its send is held up past its lease). It never claims
 * them again itself: another process may (its claim fences this one's send), and once this process's work on a row
 * ends, the row is claimable by it too. Without this a stalled process re-claimed its own lapsed rows, counting (and
 * logging) deliveries that were never sent.
 */
export async function claimDispatches(db: Executor, limit: number, leaseMs: number, holder: string, working: readonly string[] = []): Promise<ClaimedDispatch[]> {
  const notWorking = working.length === 0 ? sql`` : sql`AND NOT (id = ANY(ARRAY(SELECT jsonb_array_elements_text(${json(working)}::jsonb)::uuid)))`;
  const claimed = await rows<Omit<ClaimedDispatch, "redelivery"> & { redelivery: unknown }>(db, sql`
    WITH claimed AS (
      UPDATE stitch_dispatches d
      SET locked_until = now() + make_interval(secs => ${leaseMs} / 1000.0), deliveries = d.deliveries + 1, claimed_by = ${holder},
        redelivery = CASE
          WHEN d.deliveries = 0 THEN NULL
          WHEN d.locked_until IS NOT NULL THEN jsonb_build_object('cause', 'lease_lapsed', 'holder', d.claimed_by, 'leaseEndedAt', d.locked_until)
          ELSE jsonb_build_object('cause', coalesce(d.last_failure, 'network_error'), 'holder', d.claimed_by, 'error', d.last_error)
        END
      WHERE d.id = ANY(ARRAY(
        SELECT id FROM stitch_dispatches
        WHERE run_at <= now() AND (locked_until IS NULL OR locked_until < now()) ${notWorking}
        ORDER BY run_at LIMIT ${limit}
        FOR UPDATE SKIP LOCKED))
      RETURNING d.id, d.run_id, d.node_id, d.node_attempt, d.kind, d.url, d.payload, d.deliveries, d.redelivery
    ), logged AS (
      INSERT INTO stitch_run_events (run_id, node_id, type, payload)
      SELECT c.run_id, c.node_id, ${REDELIVERY_EVENT}, c.redelivery || jsonb_build_object('delivery', c.deliveries, 'webhookId', c.id, 'by', ${holder}::text)
      FROM claimed c WHERE c.redelivery IS NOT NULL AND c.kind = 'webhook'
    )
    SELECT * FROM claimed`);
  return claimed.map((row) => ({ ...row, redelivery: row.redelivery === null ? null : Redelivery.parse(row.redelivery) }));
}

/**
 * The heartbeat, and the check before a send: extends the lease of rows this process still holds by `leaseMs` from
 * now, and answers the ids of those it renewed. A row is named with the delivery count its claim set, its fence: a
 * row another process claimed since (its count went up) is left alone, and so is one released, rescheduled or deleted
 * meanwhile (no lease, no row). A row not answered is no longer this process's to send.
 */
export async function renewDispatches(db: Executor, held: readonly { id: string; deliveries: number }[], leaseMs: number): Promise<Set<string>> {
  if (held.length === 0) return new Set();
  const renewed = await rows<{ id: string }>(db, sql`
    UPDATE stitch_dispatches d SET locked_until = now() + make_interval(secs => ${leaseMs} / 1000.0)
    FROM jsonb_to_recordset(${json(held)}::jsonb) AS h(id uuid, deliveries int)
    WHERE d.id = h.id AND d.deliveries = h.deliveries AND d.locked_until IS NOT NULL
    RETURNING d.id`);
  return new Set(renewed.map((row) => row.id));
}

/** Deletes delivered rows, many at once (the dispatcher coalesces its deliveries' deletions). */
export async function deleteDispatches(db: Executor, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.execute(sql`DELETE FROM stitch_dispatches WHERE id = ANY(ARRAY(SELECT jsonb_array_elements_text(${json(ids)}::jsonb)::uuid))`);
}

/** Hands a claimed row back at once, uncounted: the process that claimed it is stopping and gave the work up. */
export async function releaseDispatch(db: Executor, id: string): Promise<void> {
  await db.execute(sql`UPDATE stitch_dispatches SET run_at = now(), locked_until = NULL, deliveries = GREATEST(deliveries - 1, 0) WHERE id = ${id}`);
}

/** Releases a claimed row for another attempt after `delayMs`, recording why this one failed: the next delivery's cause. */
export async function rescheduleDispatch(db: Executor, id: string, delayMs: number, failure: { cause: AttemptFailure; error: string }): Promise<void> {
  await db.execute(sql`
    UPDATE stitch_dispatches
    SET run_at = now() + make_interval(secs => ${delayMs / 1000}), locked_until = NULL, last_error = ${failure.error}, last_failure = ${failure.cause}
    WHERE id = ${id}`);
}
