/**
 * Every statement on the `decisions` table, and the only module that writes it. Projections open and close decisions
 * inside the engine event's transaction (after the engine's run lock, like every front door's row); the inbox reads.
 */
import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, not, or, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { type DecisionEventRow, type DecisionRow, accounts, decisionEvents, decisions } from "../../db/schema";
import { OnOverdue } from "../engine/schemas";
import { Role } from "../people/schemas";
import { type CursorKey, type Keyed, afterCursor, cursorAt, keyedRows } from "../lib/paging";
import {
  Approval, type Decidability, Decision, DecisionActivity, DecisionEventDetail, DecisionEventType, DecisionFrontDoor, DecisionKind, DecisionOutcome, DecisionState, type OpenedDecision,
  UndecidableCause,
} from "./schemas";
import type { Person, WhoMayDecide } from "./decidability";

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
    approvals_needed: row.approvalsNeeded, approvals: approvalsOf(row).map(({ by, at }) => ({ by, at })),
    self_approval: row.selfApproval,
    decidable: row.state !== "open" || row.decidable,
    undecidable: row.state === "open" && !row.decidable ? { cause: UndecidableCause.parse(row.undecidableCause), reason: row.undecidableReason ?? "" } : null,
    on_overdue: row.onOverdue === null ? null : OnOverdue.parse(row.onOverdue),
    decided_by: row.decidedBy, decided_at: iso(row.decidedAt), outcome: row.outcome === null ? null : DecisionOutcome.parse(row.outcome),
  });
}

/** What decidability.ts reads of a decision row. */
export function rulesOf(row: DecisionRow): WhoMayDecide {
  return {
    assigneeRole: row.assigneeRole, assigneeAccountId: row.assigneeAccountId, assigneeName: row.assigneeName, approvalsNeeded: row.approvalsNeeded,
    approvedBy: approvalsOf(row).map((a) => a.account_id), selfApproval: row.selfApproval, startedById: row.startedById, startedByName: row.startedByName,
  };
}

const decidabilityColumns = (d: Decidability) =>
  d.decidable ? { decidable: true, undecidableCause: null, undecidableReason: null } : { decidable: false, undecidableCause: d.cause, undecidableReason: d.reason };

/** Whether the row says the same as `d` (and `selfApproval`): nothing to write or tell when it does. */
export function sameDecidability(row: DecisionRow, selfApproval: boolean, d: Decidability): boolean {
  return row.selfApproval === selfApproval && row.decidable === d.decidable && (d.decidable || (row.undecidableCause === d.cause && row.undecidableReason === d.reason));
}

/** A decision's separation rule (when it follows the policy) and whether anyone can take it, as computed again. */
export async function setDecidability(tx: Executor, id: string, selfApproval: boolean, d: Decidability): Promise<DecisionRow> {
  const [row] = await tx.update(decisions).set({ selfApproval, ...decidabilityColumns(d) }).where(eq(decisions.id, id)).returning();
  return row!;
}

/** The people who can take decisions now: accounts that chose a password and are not disabled. */
export async function peopleWhoCanSignIn(db: Executor): Promise<Person[]> {
  const rows = await db.select({ id: accounts.id, name: accounts.name, role: accounts.role }).from(accounts).where(and(isNotNull(accounts.passwordHash), isNull(accounts.disabledAt)));
  return rows.map((r) => ({ id: r.id, name: r.name, role: Role.parse(r.role) }));
}

/** Every open decision, unlocked: the candidates for reassessment after people or the policy changed (each is then locked in its run's order). */
export async function openDecisions(db: Executor): Promise<DecisionRow[]> {
  return db.select().from(decisions).where(eq(decisions.state, "open"));
}

/** The approvals a decision has gathered (JSONB, parsed). */
export const approvalsOf = (row: DecisionRow): Approval[] => Approval.array().parse(row.approvals);

/**
 * A node starts waiting: its decision opens, once (a repeat of the same wait, from any process, adds nothing: undefined).
 * Its due and reminder times are counted from the database's clock, like every other time of the run.
 */
export async function openDecision(tx: Executor, d: OpenedDecision): Promise<DecisionRow | undefined> {
  const after = (ms: number | null) => (ms === null ? null : sql`now() + make_interval(secs => ${ms / 1000})`);
  const [row] = await tx
    .insert(decisions)
    .values({
      engineRunId: d.engineRunId, nodeKey: d.nodeKey, frontDoor: d.frontDoor, runId: d.runId, kind: d.kind, title: d.title, context: d.context,
      startedById: d.startedBy?.id ?? null, startedByName: d.startedBy?.name ?? null, selfApproval: d.selfApproval, selfApprovalByPolicy: d.selfApprovalByPolicy,
      ...decidabilityColumns(d.decidability),
      assigneeRole: d.assignee.role, assigneeAccountId: d.assignee.accountId, assigneeName: d.assignee.name,
      approvalsNeeded: d.approvalsNeeded, onOverdue: d.onOverdue, dueAt: after(d.dueInMs), remindAt: after(d.remindInMs),
      reviewed: d.reviewed === undefined ? null : d.reviewed,
    })
    .onConflictDoNothing({ target: [decisions.engineRunId, decisions.nodeKey], where: sql`${decisions.state} = 'open'` })
    .returning();
  return row;
}

/** The node stopped waiting: its open decision closes with how and by whom (undefined when none was open). */
export async function closeDecision(
  tx: Executor, engineRunId: string, nodeKey: string, close: { state: Exclude<DecisionState, "open">; outcome: DecisionOutcome; decidedBy: string | null },
): Promise<DecisionRow | undefined> {
  const [row] = await tx
    .update(decisions)
    .set({
      state: close.state, outcome: close.outcome, decidedBy: close.decidedBy, decidedAt: sql`now()`,
      // Who decided was marked by admitDecision when the decision was taken by a person; nobody else "decided" it.
      decidedById: close.state === "decided" ? decisions.decidedById : null,
    })
    .where(and(eq(decisions.engineRunId, engineRunId), eq(decisions.nodeKey, nodeKey), eq(decisions.state, "open")))
    .returning();
  return row;
}

/** The account taking the decision now (its approval completes it, or its answer closes it), for "decided by me". */
export async function markDecider(tx: Executor, id: string, accountId: string | null): Promise<void> {
  await tx.update(decisions).set({ decidedById: accountId }).where(eq(decisions.id, id));
}

/** One more approval of a decision that needs several. */
export async function setApprovals(tx: Executor, id: string, approvals: Approval[]): Promise<DecisionRow> {
  const [row] = await tx.update(decisions).set({ approvals: Approval.array().parse(approvals) }).where(eq(decisions.id, id)).returning();
  return row!;
}

export async function markReminded(tx: Executor, id: string): Promise<void> {
  await tx.update(decisions).set({ remindedAt: sql`now()` }).where(eq(decisions.id, id));
}

export async function markOverdue(tx: Executor, id: string): Promise<void> {
  await tx.update(decisions).set({ overdueAt: sql`now()` }).where(eq(decisions.id, id));
}

/** Records what happened to a decision, for its run's conversation. */
export async function addEvent(
  tx: Executor, e: { decision: Pick<DecisionRow, "id" | "engineRunId">; type: DecisionEventType; by?: { id: string | null; name: string | null } | null; detail?: DecisionEventDetail },
): Promise<void> {
  await tx.insert(decisionEvents).values({
    decisionId: e.decision.id, engineRunId: e.decision.engineRunId, type: e.type, byId: e.by?.id ?? null, byName: e.by?.name ?? null, detail: DecisionEventDetail.parse(e.detail ?? {}),
  });
}

/** Everything that happened to the decisions of a run (the front door's id of it), oldest first, each with its decision's title and node. */
/** The last thing that happened to any decision of an engine run (its last decision event's id; 0 for none). */
export async function activityMarker(db: Executor, engineRunId: string): Promise<number> {
  const [found] = await db.select({ last: sql<number | null>`max(${decisionEvents.id})` }).from(decisionEvents).where(eq(decisionEvents.engineRunId, engineRunId));
  return Number(found?.last ?? 0);
}

export async function listActivity(db: Executor, runId: string): Promise<DecisionActivity[]> {
  const found = await db
    .select({ event: decisionEvents, title: decisions.title, nodeKey: decisions.nodeKey })
    .from(decisionEvents)
    // Joined on the engine run too, so the events are found by their run's index.
    .innerJoin(decisions, and(eq(decisions.id, decisionEvents.decisionId), eq(decisions.engineRunId, decisionEvents.engineRunId)))
    .where(eq(decisions.runId, runId))
    .orderBy(asc(decisionEvents.id));
  return found.map(({ event, title, nodeKey }) => activityOf(event, title, nodeKey));
}

function activityOf(e: DecisionEventRow, title: string, nodeKey: string): DecisionActivity {
  return DecisionActivity.parse({
    id: e.id, decision_id: e.decisionId, node_id: nodeKey, title, type: DecisionEventType.parse(e.type),
    by: e.byName === null && e.byId === null ? null : { id: e.byId, name: e.byName }, detail: DecisionEventDetail.parse(e.detail), at: iso(e.at),
  });
}

/** An active account by email (a definition's `assignee`), case-insensitively. */
export async function activeAccountByEmail(db: Executor, email: string): Promise<{ id: string; name: string; role: string } | undefined> {
  const [row] = await db
    .select({ id: accounts.id, name: accounts.name, role: accounts.role })
    .from(accounts)
    .where(and(sql`lower(${accounts.email}) = lower(${email})`, isNull(accounts.disabledAt)));
  return row;
}

export interface ListFilter {
  view: "mine" | "role" | "unassigned" | "overdue" | "undecidable" | "decided" | "all";
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
  // `decided` lists closed decisions, `all` every one, the others what still waits; `state` narrows any of them.
  const state = f.state ?? (f.view === "decided" ? "decided" : f.view === "all" ? "all" : "open");
  const text = f.q ? `%${f.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  return and(
    state === "all" ? undefined : state === "open" ? eq(decisions.state, "open") : inArray(decisions.state, ["decided", "expired", "cancelled"]),
    f.view === "mine" ? (f.accountId ? eq(decisions.assigneeAccountId, f.accountId) : sql`false`) : undefined,
    f.view === "role" ? and(inArray(decisions.assigneeRole, [...f.roles]), f.accountId ? or(isNull(decisions.assigneeAccountId), eq(decisions.assigneeAccountId, f.accountId)) : isNull(decisions.assigneeAccountId)) : undefined,
    f.view === "unassigned" ? isNull(decisions.assigneeAccountId) : undefined,
    f.view === "overdue" ? lt(decisions.dueAt, sql`now()`) : undefined,
    f.view === "undecidable" ? and(eq(decisions.state, "open"), not(decisions.decidable)) : undefined,
    f.view === "decided" ? (f.accountId ? eq(decisions.decidedById, f.accountId) : sql`false`) : undefined,
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

/** How many open decisions nobody can take (what needs an operator). */
export async function countUndecidable(db: Executor): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(decisions).where(and(eq(decisions.state, "open"), not(decisions.decidable)));
  return Number(row?.n ?? 0);
}

/** The open decisions of an engine run, without a lock. */
export async function openDecisionsOfRun(db: Executor, engineRunId: string): Promise<DecisionRow[]> {
  return db.select().from(decisions).where(and(eq(decisions.engineRunId, engineRunId), eq(decisions.state, "open")));
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
