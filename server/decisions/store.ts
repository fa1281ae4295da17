/**
 * Every statement on the `decisions` table, and the only module that writes it. Projections open and close decisions
 * inside the engine event's transaction (after the engine's run lock, like every front door's row); the inbox reads.
 */
import { and, desc, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { type DecisionRow, decisions } from "../../db/schema";
import { type CursorKey, type Keyed, afterCursor, cursorAt, keyedRows } from "../lib/paging";
import { Decision, DecisionFrontDoor, DecisionKind, DecisionOutcome, DecisionState, type OpenedDecision } from "./schemas";

const iso = (value: string | null) => (value === null ? null : new Date(value).toISOString());

/** A row as the doors answer it, every enumerated column parsed with its schema. */
export function decisionOf(row: DecisionRow): Decision {
  return Decision.parse({
    id: row.id, kind: DecisionKind.parse(row.kind), state: DecisionState.parse(row.state), front_door: DecisionFrontDoor.parse(row.frontDoor),
    run_id: row.runId, engine_run_id: row.engineRunId, node_id: row.nodeKey, title: row.title, context: row.context,
    started_by: row.startedById === null && row.startedByName === null ? null : { id: row.startedById, name: row.startedByName },
    waiting_since: iso(row.waitingSince), due_at: iso(row.dueAt),
    assignee: row.assigneeAccountId
      ? { kind: "account", id: row.assigneeAccountId, name: row.assigneeName, role: row.assigneeRole }
      : { kind: "role", id: null, name: null, role: row.assigneeRole },
    approvals_needed: 1, approvals: [],
    decided_by: row.decidedBy, decided_at: iso(row.decidedAt), outcome: row.outcome === null ? null : DecisionOutcome.parse(row.outcome),
  });
}

/** A node starts waiting: its decision opens, once (a repeat of the same wait, from any process, adds nothing). */
export async function openDecision(tx: Executor, d: OpenedDecision): Promise<void> {
  await tx
    .insert(decisions)
    .values({
      engineRunId: d.engineRunId, nodeKey: d.nodeKey, frontDoor: d.frontDoor, runId: d.runId, kind: d.kind, title: d.title, context: d.context,
      startedById: d.startedBy?.id ?? null, startedByName: d.startedBy?.name ?? null, selfApproval: d.selfApproval ?? true,
    })
    .onConflictDoNothing({ target: [decisions.engineRunId, decisions.nodeKey], where: sql`${decisions.state} = 'open'` });
}

/** The node stopped waiting: its open decision closes with how and by whom (nothing when none is open). */
export async function closeDecision(
  tx: Executor, engineRunId: string, nodeKey: string, close: { state: Exclude<DecisionState, "open">; outcome: DecisionOutcome; decidedBy: string | null },
): Promise<void> {
  await tx
    .update(decisions)
    .set({ state: close.state, outcome: close.outcome, decidedBy: close.decidedBy, decidedAt: sql`now()` })
    .where(and(eq(decisions.engineRunId, engineRunId), eq(decisions.nodeKey, nodeKey), eq(decisions.state, "open")));
}

export interface ListFilter {
  view: "mine" | "role" | "unassigned" | "overdue" | "decided" | "all";
  state?: "open" | "decided" | "all";
  runId?: string;
  q?: string;
  /** The caller: their account and the roles whose decisions they may take. */
  accountId: string | null;
  roles: readonly string[];
  limit: number;
  before?: CursorKey;
}

/** What a filter selects; `state` defaults to the view's own (decided ones for `decided`, open ones otherwise). */
function where(f: Omit<ListFilter, "limit" | "before">) {
  const state = f.state ?? (f.view === "decided" ? "decided" : "open");
  const text = f.q ? `%${f.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  return and(
    state === "all" ? undefined : state === "open" ? eq(decisions.state, "open") : inArray(decisions.state, ["decided", "expired", "cancelled"]),
    f.view === "mine" ? (f.accountId ? eq(decisions.assigneeAccountId, f.accountId) : sql`false`) : undefined,
    f.view === "role" ? and(inArray(decisions.assigneeRole, [...f.roles]), f.accountId ? or(isNull(decisions.assigneeAccountId), eq(decisions.assigneeAccountId, f.accountId)) : isNull(decisions.assigneeAccountId)) : undefined,
    f.view === "unassigned" ? isNull(decisions.assigneeAccountId) : undefined,
    f.view === "overdue" ? lt(decisions.dueAt, sql`now()`) : undefined,
    f.runId ? eq(decisions.runId, f.runId) : undefined,
    // The ILIKE of title and context, read from their lower-cased copy (served by its trigram index; schema.ts).
    text ? sql`${decisions.searchText} LIKE lower(${text})` : undefined,
  );
}

/** Up to `limit` decisions after the cursor, the longest-waiting last (newest waits first), each with its cursor key. */
export async function listDecisions(db: Executor, f: ListFilter): Promise<Keyed<DecisionRow>[]> {
  const found = await db
    .select({ row: decisions, id: decisions.id, cursorAt: cursorAt(decisions.waitingSince) })
    .from(decisions)
    .where(and(where(f), afterCursor(decisions.waitingSince, decisions.id, f.before)))
    .orderBy(desc(decisions.waitingSince), desc(decisions.id))
    .limit(f.limit);
  return keyedRows(found).map(({ key, item }) => ({ key, item: item.row }));
}

/** How many open decisions the caller may take (the navigation's and the tab title's count). */
export async function countOpenFor(db: Executor, caller: Pick<ListFilter, "accountId" | "roles">): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(decisions).where(where({ view: "role", state: "open", ...caller }));
  return Number(row?.n ?? 0);
}

/**
 * The open decision of a node, locked for the rest of the transaction. Only ever after its engine run's row (the
 * caller runs in engine.onRun): the product's one lock order.
 */
export async function lockOpenDecision(tx: Executor, engineRunId: string, nodeKey: string): Promise<DecisionRow | undefined> {
  const [row] = await tx.select().from(decisions).where(and(eq(decisions.engineRunId, engineRunId), eq(decisions.nodeKey, nodeKey), eq(decisions.state, "open"))).for("update");
  return row;
}

/** The decision `id`, locked (after its engine run's row, as above). */
export async function lockDecision(tx: Executor, id: string): Promise<DecisionRow | undefined> {
  const [row] = await tx.select().from(decisions).where(eq(decisions.id, id)).for("update");
  return row;
}

/** Who may take the decision: an account (claimed or assigned), or everyone with `role` (account null). */
export async function setAssignee(tx: Executor, id: string, assignee: { role: string; accountId: string | null; name: string | null }): Promise<DecisionRow> {
  const [row] = await tx.update(decisions).set({ assigneeRole: assignee.role, assigneeAccountId: assignee.accountId, assigneeName: assignee.name }).where(eq(decisions.id, id)).returning();
  return row!;
}

export async function decisionById(db: Executor, id: string): Promise<DecisionRow | undefined> {
  const [row] = await db.select().from(decisions).where(eq(decisions.id, id));
  return row;
}
