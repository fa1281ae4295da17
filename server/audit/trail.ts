/**
 * The audit trail's door: what the HTTP and tRPC doors call once a request has ended (to record an outcome no
 * transaction recorded: every refusal, and accepted actions that wrote nothing), and what operators read.
 */
import type { Database } from "../../db/client";
import type { AuditRow } from "../../db/schema";
import type { AuditScope } from "./scope";
import { describeZodError } from "../lib/zodIssues";
import { AuditEntry, type AuditFilter, type AuditOutcome, type AuditPage, type AuditSubject } from "./schemas";
import { appendEntry, listEntries, targetTitles } from "./store";

/** The columns of an audit row that its table types as text only. */
const StoredKinds = AuditEntry.pick({ actor_kind: true, outcome: true });

function entryOf(row: AuditRow, titles: ReadonlyMap<string, string>): AuditEntry {
  const kinds = StoredKinds.safeParse({ actor_kind: row.actorKind, outcome: row.outcome });
  if (!kinds.success) throw new Error(`audit entry ${row.id} is not readable: ${describeZodError(kinds.error, { root: "row" })}`);
  return {
    id: row.id,
    at: new Date(row.at).toISOString(),
    actor_kind: kinds.data.actor_kind,
    account_id: row.accountId,
    actor_name: row.actorName,
    token_id: row.tokenId,
    action: row.action,
    target_kind: row.targetKind,
    target_id: row.targetId,
    target_title: row.targetId === null ? null : (titles.get(row.targetId) ?? null),
    outcome: kinds.data.outcome,
    status: row.status,
    message: row.message,
    address: row.address,
    user_agent: row.userAgent,
  };
}

export class AuditTrail {
  constructor(private readonly database: Database) {}

  /** Records how a scope's action ended, unless a transaction inside it already recorded it as accepted. */
  async finish(scope: AuditScope, outcome: AuditOutcome): Promise<void> {
    if (scope.recorded) return;
    scope.recorded = true;
    await this.record(scope.subject, outcome.outcome === "accepted" && outcome.message === null ? { ...outcome, message: scope.note } : outcome);
  }

  /** Records one entry on its own (a refused sign-in, an action outside any request scope). */
  async record(subject: AuditSubject, outcome: AuditOutcome): Promise<void> {
    await this.database.run((db) => appendEntry(db, subject, outcome));
  }

  /** Newest first, one page at a time. */
  async list(filter: AuditFilter): Promise<AuditPage> {
    const rows = await this.database.run((db) => listEntries(db, filter));
    const kept = rows.slice(0, filter.limit);
    const titles = await this.database.run((db) => targetTitles(db, kept.flatMap((row) => (row.targetId === null ? [] : [row.targetId]))));
    const page = kept.map((row) => entryOf(row, titles));
    return { entries: page, next_before: rows.length > filter.limit ? page[page.length - 1]!.id : null };
  }
}
