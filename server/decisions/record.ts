/**
 * How a front door's projection keeps its decisions: inside the engine event's transaction, a node that starts
 * waiting for a person opens a decision and a node that stops waiting closes it, with how and by whom. The front door
 * says what each waiting node asks of a person (its kind and title); who decides and by when come from the node's
 * decision rules (`assignee`, `approvals`, `self_approval`, `due_in`, `on_overdue` in its data, over the front door's
 * defaults and the server's `DECISION_DUE_IN`); the rest is read from the transition. A decision with a due time sets
 * its reminder and deadline as engine timers in the same transaction (commands.ts fires them).
 */
import { z } from "zod";
import type { Executor } from "../../db/client";
import type { DecisionRow } from "../../db/schema";
import type { RowChange } from "../engine/macrostep";
import { type RunTransition, setTimer } from "../engine/engine";
import { type DecisionRules, durationMs } from "../engine/schemas";

import type { NotificationEvent } from "../notifications/schemas";
import { DEADLINE, type DecisionFrontDoor, type DecisionKind, type DecisionOutcome, type DecisionState } from "./schemas";
import { decidability } from "./decidability";
import * as store from "./store";

export interface WaitingNode {
  kind: DecisionKind;
  title: string;
  context: string;
  /** The output a person reviews, kept with the decision as its version (server/review); omitted when the front door keeps its own. */
  reviewed?: unknown;
}

export interface DecisionRecorder {
  frontDoor: DecisionFrontDoor;
  /** The front door's id of the run. */
  runId: string;
  /** What the node asks of a person now that it waits (undefined: the wait is not a person's decision). */
  describe(change: RowChange): Promise<WaitingNode | undefined> | WaitingNode | undefined;
  /** The front door's own defaults under the node's rules (`self_approval` comes from the instance policy where both are silent). */
  defaults?: DecisionRules;
  /** How the decision closed, when the front door knows better than the event (a rejection that cancels the run). */
  closedAs?(change: RowChange): { state: Exclude<DecisionState, "open">; outcome: DecisionOutcome } | undefined;
}

/** The instance's policy as an operator set it (server/policy), read inside the caller's transaction. */
export type ReadPolicy = (tx: Executor) => Promise<{ selfApproval: boolean }>;

/** What the server says where a definition is silent. */
export interface DecisionSettings {
  /** DECISION_DUE_IN: the due time of decisions whose definition sets none (undefined: no deadline). */
  defaultDueIn?: string;
  /** DECISION_REMINDER_PERCENT: how far towards its due time a decision is when its assignee is reminded (0: never). */
  reminderPercent: number;
}

/** Tells the outside (subscriptions, email) inside the transaction that made the change. */
export type Notify = (tx: Executor, event: NotificationEvent) => Promise<void>;

/** The engine timers of decisions: the reminder and the deadline, each naming its decision. */
export const DECISION_TIMER = "decision";
export const DecisionTimer = z.object({ decision_id: z.string().uuid(), what: z.enum(["remind", "due"]) });
export type DecisionTimer = z.infer<typeof DecisionTimer>;

export type RecordDecisions = (tx: Executor, t: RunTransition, recorder: DecisionRecorder) => Promise<void>;

/** The decision as a notification carries it. */
export function notified(row: DecisionRow): Extract<NotificationEvent, { decision: unknown }>["decision"] {
  const d = store.decisionOf(row);
  return { id: d.id, kind: d.kind, title: d.title, front_door: d.front_door, run_id: d.run_id, state: d.state, due_at: d.due_at, assignee: d.assignee, outcome: d.outcome, decided_by: d.decided_by };
}

/** How a wait ended, from the event that ended it. */
function closing(t: RunTransition, key: string): { state: Exclude<DecisionState, "open">; outcome: DecisionOutcome } {
  const { event } = t;
  const addressed = "key" in event && event.key === key;
  const state = "decided";
  if (addressed && event.type === "review") return { state, outcome: event.decision === "approve" ? "approve" : "request_changes" };
  if (addressed && event.type === "complete") return { state, outcome: "complete" };
  if (addressed && event.type === "input") return { state, outcome: "answer" };
  return { state: "cancelled", outcome: "cancelled" };
}

/** Who a decision goes to: a role, or the active account a definition names by email (else the reviewers, saying why). */
async function assigneeOf(tx: Executor, assignee: string | undefined): Promise<{ role: string; accountId: string | null; name: string | null; unresolved?: string }> {
  if (assignee === undefined) return { role: "reviewer", accountId: null, name: null };
  if (!assignee.includes("@")) return { role: assignee, accountId: null, name: null };
  const account = await store.activeAccountByEmail(tx, assignee);
  if (account) return { role: "reviewer", accountId: account.id, name: account.name };
  return { role: "reviewer", accountId: null, name: null, unresolved: `no active account has the email ${assignee}, so it is for the reviewers` };
}

/** Tells the operators (subscriptions, email) and the run's conversation that nobody can take the decision. */
export async function tellUndecidable(tx: Executor, row: DecisionRow, reason: string, notify: Notify): Promise<void> {
  await store.addEvent(tx, { decision: row, type: "undecidable", detail: { reason } });
  await notify(tx, { type: "decision.undecidable", decision: notified(row), reason });
}

export function decisionRecorder(settings: DecisionSettings, notify: Notify, readPolicy: ReadPolicy): RecordDecisions {
  return async (tx, t, recorder) => {
    for (const change of t.changes) {
      const waitsNow = change.after.status === "waiting_for_user";
      const waitedBefore = change.before === "waiting_for_user";
      if (waitsNow && !waitedBefore) {
        const waiting = await recorder.describe(change);
        if (!waiting) continue;
        const spec = t.graph.nodes.get(change.key)?.spec;
        const rules: DecisionRules = { ...recorder.defaults };
        for (const key of ["assignee", "approvals", "self_approval", "due_in", "on_overdue"] as const) if (spec?.[key] !== undefined) Object.assign(rules, { [key]: spec[key] });
        const assignee = await assigneeOf(tx, rules.assignee);
        const selfApprovalByPolicy = rules.self_approval === undefined;
        const selfApproval = rules.self_approval ?? (await readPolicy(tx)).selfApproval;
        const approvalsNeeded = rules.approvals ?? 1;
        const startedById = t.startedBy?.id ?? null;
        const canDecide = decidability(
          { assigneeRole: assignee.role, assigneeAccountId: assignee.accountId, assigneeName: assignee.name, approvalsNeeded, approvedBy: [], selfApproval, startedById, startedByName: t.startedBy?.name ?? null },
          await store.peopleWhoCanSignIn(tx),
        );
        const dueIn = rules.due_in ?? settings.defaultDueIn;
        const dueInMs = dueIn === undefined ? null : durationMs(dueIn);
        const opened = await store.openDecision(tx, {
          engineRunId: t.runId, nodeKey: change.key, frontDoor: recorder.frontDoor, runId: recorder.runId, startedBy: t.startedBy, ...waiting,
          selfApproval, selfApprovalByPolicy, decidability: canDecide, assignee, approvalsNeeded, onOverdue: rules.on_overdue ?? null,
          dueInMs, remindInMs: dueInMs !== null && settings.reminderPercent > 0 ? Math.round((dueInMs * settings.reminderPercent) / 100) : null,
        });
        if (!opened) continue;
        const decision = store.decisionOf(opened);
        await store.addEvent(tx, {
          decision: opened, type: "opened",
          detail: { assignee: { kind: decision.assignee.kind, name: decision.assignee.name, role: decision.assignee.role }, approvals_needed: opened.approvalsNeeded, due_at: decision.due_at, ...(assignee.unresolved ? { reason: assignee.unresolved } : {}) },
        });
        const subject = `decision:${opened.id}`;
        if (opened.remindAt) await setTimer(tx, { runId: t.runId, name: DECISION_TIMER, subject, at: opened.remindAt, payload: DecisionTimer.parse({ decision_id: opened.id, what: "remind" }) });
        if (opened.dueAt) await setTimer(tx, { runId: t.runId, name: DECISION_TIMER, subject, at: opened.dueAt, payload: DecisionTimer.parse({ decision_id: opened.id, what: "due" }) });
        await notify(tx, { type: "decision.waiting", decision: notified(opened) });
        if (!canDecide.decidable) await tellUndecidable(tx, opened, canDecide.reason, notify);
      } else if (waitedBefore && !waitsNow) {
        let closed = recorder.closedAs?.(change) ?? closing(t, change.key);
        if (closed.state === "decided" && t.actor === DEADLINE.name) closed = { ...closed, state: "expired" };
        const row = await store.closeDecision(tx, t.runId, change.key, { ...closed, decidedBy: closed.state === "cancelled" ? null : t.actor });
        if (!row) continue;
        await store.addEvent(tx, { decision: row, type: closed.state, by: closed.state === "decided" ? { id: row.decidedById, name: t.actor } : null, detail: { outcome: closed.outcome } });
        if (closed.state === "expired") await notify(tx, { type: "decision.overdue", decision: notified(row) });
        if (closed.state !== "cancelled") await notify(tx, { type: "decision.decided", decision: notified(row) });
      }
    }
  };
}
