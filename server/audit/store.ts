/** Every statement on the audit trail: append one entry, read a page. Nothing here updates or deletes (a trigger refuses both). */
import { and, desc, eq, like, lt, type SQL, sql } from "drizzle-orm";
import { type Executor, rows } from "../../db/client";
import { auditLog, type AuditRow } from "../../db/schema";
import type { AuditFilter, AuditOutcome, AuditSubject } from "./schemas";

/** Text columns are cut to a length no real value reaches, so an oversized user agent cannot bloat the table. */
const cut = (value: string | null, max: number) => (value === null ? null : value.length > max ? `${value.slice(0, max)}…` : value);

export async function appendEntry(executor: Executor, subject: AuditSubject, outcome: AuditOutcome): Promise<void> {
  await appendEntries(executor, [{ subject, outcome }]);
}

/** Appends several entries in one statement, in the order given. */
export async function appendEntries(executor: Executor, entries: readonly { subject: AuditSubject; outcome: AuditOutcome }[]): Promise<void> {
  if (entries.length === 0) return;
  await executor.insert(auditLog).values(
    entries.map(({ subject, outcome }) => ({
      ...subject,
      actorName: cut(subject.actorName, 200),
      targetId: cut(subject.targetId, 300),
      userAgent: cut(subject.userAgent, 400),
      address: cut(subject.address, 100),
      ...outcome,
      message: cut(outcome.message, 1000),
    })),
  );
}

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
