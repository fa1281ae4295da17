/** Every statement on the audit trail: append one entry, read a page. Nothing here updates or deletes (a trigger refuses both). */
import { and, desc, eq, like, lt, type SQL, sql } from "drizzle-orm";
import { type Executor, rows } from "../../db/client";
import { statement } from "../../db/statement";
import { auditLog, type AuditRow } from "../../db/schema";
import type { AuditFilter, AuditOutcome, AuditSubject } from "./schemas";

/** Text columns are cut to a length no real value reaches, so an oversized user agent cannot bloat the table. */
const cut = (value: string | null, max: number) => (value === null ? null : value.length > max ? `${value.slice(0, max)}…` : value);

export async function appendEntry(executor: Executor, subject: AuditSubject, outcome: AuditOutcome): Promise<void> {
  await appendEntries(executor, [{ subject, outcome }]);
}

/** Appends several entries in one statement, in the order given (the order of their ids). */
export async function appendEntries(executor: Executor, entries: readonly { subject: AuditSubject; outcome: AuditOutcome }[]): Promise<void> {
  if (entries.length === 0) return;
  const records = entries.map(({ subject, outcome }, seq) => ({
    seq,
    actor_kind: subject.actorKind, account_id: subject.accountId, actor_name: cut(subject.actorName, 200), token_id: subject.tokenId,
    action: subject.action, target_kind: subject.targetKind, target_id: cut(subject.targetId, 300),
    outcome: outcome.outcome, status: outcome.status, message: cut(outcome.message, 1000),
    address: cut(subject.address, 100), user_agent: cut(subject.userAgent, 400),
  }));
  await appendEntriesStatement.rows(executor, { records: JSON.stringify(records) });
}

const appendEntriesStatement = statement<"records">((p) => sql`
  INSERT INTO audit_log (actor_kind, account_id, actor_name, token_id, action, target_kind, target_id, outcome, status, message, address, user_agent)
  SELECT x.actor_kind, x.account_id, x.actor_name, x.token_id, x.action, x.target_kind, x.target_id, x.outcome, x.status, x.message, x.address, x.user_agent
  FROM jsonb_to_recordset(${p.records}::jsonb) AS x(seq int, actor_kind text, account_id uuid, actor_name text, token_id uuid, action text,
    target_kind text, target_id text, outcome text, status int, message text, address text, user_agent text)
  ORDER BY x.seq`);

export async function listEntries(executor: Executor, filter: AuditFilter): Promise<AuditRow[]> {
  const where: SQL[] = [];
  if (filter.target) where.push(eq(auditLog.targetId, filter.target));
  if (filter.accountId) where.push(eq(auditLog.accountId, filter.accountId));
  if (filter.action) where.push(filter.action.endsWith(".") ? like(auditLog.action, `${filter.action.replace(/[\\%_]/g, "\\$&")}%`) : eq(auditLog.action, filter.action));
  if (filter.outcome) where.push(eq(auditLog.outcome, filter.outcome));
  if (filter.before) where.push(lt(auditLog.id, filter.before));
  return executor
    .select()
    .from(auditLog)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(auditLog.id))
    .limit(filter.limit + 1);
}

/**
 * The titles of the entries' targets as they read now, by target id: a pipeline run's domain, a workflow run's
 * workflow and message, a plain flow's run's flow, a decision's title, an account's name, a flow's name. Read (never
 * written) from those tables, in one statement; a target gone or without a title is left out.
 */
export async function targetTitles(executor: Executor, ids: readonly string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids)].slice(0, 500);
  if (unique.length === 0) return new Map();
  const list = sql.join(unique.map((id) => sql`${id}`), sql`, `);
  const found = await rows<{ id: string; title: string }>(executor, sql`
    SELECT id, title FROM (
      SELECT p.id, p.domain AS title FROM pipeline_runs p WHERE p.id IN (${list})
      UNION ALL SELECT w.id::text, w.workflow || CASE WHEN w.message <> '' THEN ': ' || w.message ELSE '' END FROM workflow_runs w WHERE w.id::text IN (${list})
      UNION ALL SELECT r.id::text, f.name FROM stitch_runs r JOIN stitch_flows f ON f.id = r.flow_id WHERE r.owner IS NULL AND r.id::text IN (${list})
      UNION ALL SELECT d.id::text, d.title FROM decisions d WHERE d.id::text IN (${list})
      UNION ALL SELECT a.id::text, a.name FROM accounts a WHERE a.id::text IN (${list})
      UNION ALL SELECT f.id::text, f.name FROM stitch_flows f WHERE f.id::text IN (${list})
    ) t`);
  return new Map(found.map((r) => [r.id, r.title.length > 200 ? `${r.title.slice(0, 200)}…` : r.title]));
}
