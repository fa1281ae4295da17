/** Every statement on the audit trail: append one entry, read a page. Nothing here updates or deletes (a trigger refuses both). */
import { and, desc, eq, like, lt, type SQL } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { auditLog, type AuditRow } from "../../db/schema";
import type { AuditFilter, AuditOutcome, AuditSubject } from "./schemas";

/** Text columns are cut to a length no real value reaches, so an oversized user agent cannot bloat the table. */
const cut = (value: string | null, max: number) => (value === null ? null : value.length > max ? `${value.slice(0, max)}…` : value);

export async function appendEntry(executor: Executor, subject: AuditSubject, outcome: AuditOutcome): Promise<void> {
  await executor.insert(auditLog).values({
    ...subject,
    actorName: cut(subject.actorName, 200),
    targetId: cut(subject.targetId, 300),
    userAgent: cut(subject.userAgent, 400),
    address: cut(subject.address, 100),
    ...outcome,
    message: cut(outcome.message, 1000),
  });
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
