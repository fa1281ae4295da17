/**
 * Who may take a decision, how it changes hands and how it is taken: a reviewer claims one (then it is hers) or
 * releases it; an operator assigns it to a person or a role; anyone who may decides it here or through its front
 * door's own endpoint; its deadline reminds, escalates or decides. The front doors' decision commands (a pipeline
 * approval, a workflow's approval or answer, a flow's review or completion) call `admitDecision` inside their engine
 * transaction, so the same assignment, separation and quorum rules hold whichever door a decision is taken through.
 * Each command locks the decision's engine run first (engine.onRun), then the decision: the product's one lock order.
 */
import type { Executor } from "../../db/client";
import type { DecisionRow } from "../../db/schema";
import type { Engine } from "../engine/engine";
import { Refusal } from "../lib/refusal";
import { isUuid } from "../lib/uuid";
import { roleAllows } from "../people/roles";
import { DecisionError } from "./errors";
import { decidability, type Person } from "./decidability";
import { type Notify, type ReadPolicy, DecisionTimer, notified, tellUndecidable } from "./record";
import { type AssignBody, DEADLINE, type DecideBody, type Decider, type Decision, type DecisionOutcome } from "./schemas";
import * as store from "./store";

/** An account to assign a decision to, as the people front door knows it. */
export type FindAccount = (accountId: string) => Promise<{ id: string; name: string; role: "analyst" | "reviewer" | "operator"; active: boolean } | undefined>;

/**
 * How a front door takes the decisions of its runs: `decide` applies the outcome through the door's own command (which
 * calls admitDecision, like its own endpoint), `cancel` stops the run (a deadline's `cancel` outcome). Each runs its own
 * transaction.
 */
export interface DecisionHandler {
  decide(decision: Decision, body: DecideBody, by: Decider): Promise<void>;
  cancel(decision: Decision, reason: string, by: Decider): Promise<void>;
}

const forbidden = (message: string) => new DecisionError("forbidden", message);

function whoMay(row: DecisionRow): string {
  return row.assigneeAccountId ? `${row.assigneeName ?? "the person it is assigned to"} (it is assigned to them)` : `anyone with the ${row.assigneeRole} role`;
}

const approvalsSoFar = (n: number, needed: number) => `${n} of ${needed} approval${needed === 1 ? "" : "s"}`;

/**
 * Admits `by` taking the node's open decision with `outcome`, or refuses (403, naming who may): one assigned to someone
 * else, one for a role `by` does not have, or one on a run `by` started when the decision does not allow
 * self-approval. An approval of a decision that needs several approvers is recorded, and answers false until the last
 * one needed: the caller then applies no event (the gate still waits). A request for changes or a rejection is
 * applied at once. MUST be called inside engine.onRun of the decision's run; no open decision for the node means
 * nothing waits, which the front door's own checks answer (true).
 */
export async function admitDecision(tx: Executor, engineRunId: string, nodeKey: string, by: Decider, outcome: DecisionOutcome): Promise<boolean> {
  const open = await store.lockOpenDecision(tx, engineRunId, nodeKey);
  if (!open) return true;
  refuseUnlessMayDecide(open, by);
  if (outcome === "approve" && open.approvalsNeeded > 1 && !by.system) {
    const approvals = store.approvalsOf(open);
    if (by.accountId === null) throw forbidden(`"${open.title}" needs ${open.approvalsNeeded} different people's approvals: sign in as an account to approve it`);
    if (approvals.some((a) => a.account_id === by.accountId)) {
      throw new DecisionError("conflict", `you approved "${open.title}" already (${approvalsSoFar(approvals.length, open.approvalsNeeded)}): it waits for another person's approval`);
    }
    const now = new Date().toISOString();
    const row = await store.setApprovals(tx, open.id, [...approvals, { account_id: by.accountId, by: by.name ?? "someone", at: now }]);
    const given = approvals.length + 1;
    if (given < open.approvalsNeeded) {
      await store.addEvent(tx, { decision: row, type: "approved", by: { id: by.accountId, name: by.name }, detail: { approvals: given, approvals_needed: open.approvalsNeeded } });
      return false;
    }
  }
  await store.markDecider(tx, open.id, by.system ? null : by.accountId);
  return true;
}

/** Refuses (403, naming who may) anyone but who may take the open decision `open`: its assignee, its role, not the run's starter when separated. */
function refuseUnlessMayDecide(open: DecisionRow, by: Decider): void {
  const why = whyNotDecider(open, by);
  if (why) throw forbidden(why);
}

/** Why `by` may not take the open decision `open`, or undefined when she may. */
function whyNotDecider(open: DecisionRow, by: Decider): string | undefined {
  if (by.system) return undefined;
  if (!open.selfApproval && open.startedById !== null && open.startedById === by.accountId) {
    return `you started this run, and its decisions are for someone else (separation of duties): ${whoMay(open)} may decide "${open.title}"`;
  }
  if (open.assigneeAccountId !== null ? open.assigneeAccountId !== by.accountId : !roleAllows(by.role, open.assigneeRole as "reviewer")) {
    return `only ${whoMay(open)} may decide "${open.title}"`;
  }
  return undefined;
}

/**
 * The nodes of engine run `engineRunId` whose open decisions `by` may take (their keys), read in the caller's
 * transaction without a lock: where a reviewer may fork the run from (server/forks/rule.ts).
 */
export async function nodesWaitingFor(tx: Executor, engineRunId: string, by: Decider): Promise<string[]> {
  const open = await store.openDecisionsOfRun(tx, engineRunId);
  return open.filter((row) => whyNotDecider(row, by) === undefined).map((row) => row.nodeKey);
}

/**
 * The node's open decision, locked, when `by` may take it (an edit of the output under review is for whoever may decide
 * it); 403 as admitDecision refuses, and undefined when nothing waits. MUST be called inside engine.onRun of its run.
 */
export async function admitDecider(tx: Executor, engineRunId: string, nodeKey: string, by: Decider): Promise<Decision | undefined> {
  const open = await store.lockOpenDecision(tx, engineRunId, nodeKey);
  if (!open) return undefined;
  refuseUnlessMayDecide(open, by);
  return store.decisionOf(open);
}

/** A decision's separation rule as it stands (the policy's, when the definition set none) and whether anyone can take it. */
function assess(row: DecisionRow, people: readonly Person[], policySelfApproval: boolean) {
  const selfApproval = row.selfApprovalByPolicy ? policySelfApproval : row.selfApproval;
  return { selfApproval, canDecide: decidability({ ...store.rulesOf(row), selfApproval }, people) };
}

/** Whether `by` may take the open decision (the app shows an edit control only then); no lock, no refusal. */
export function mayDecide(decision: Decision, by: Decider): boolean {
  if (decision.state !== "open") return false;
  if (!decision.self_approval && decision.started_by?.id && decision.started_by.id === by.accountId) return false;
  return decision.assignee.kind === "account" ? decision.assignee.id === by.accountId : roleAllows(by.role, decision.assignee.role as "reviewer");
}

export class DecisionCommands {
  private readonly handlers = new Map<Decision["front_door"], DecisionHandler>();

  constructor(
    private readonly engine: Engine,
    private readonly findAccount: FindAccount,
    private readonly notify: Notify,
    private readonly readPolicy: ReadPolicy,
  ) {}

  /**
   * Computes again, for every open decision, whether anyone can take it (and its separation rule, when it follows the
   * policy): called after people, roles or the policy changed. Read first without locks; each decision whose answer
   * changed is then written under its engine run's lock, then its own (the product's one lock order), and computed
   * once more there, so a change made meanwhile is not overwritten with a stale answer.
   */
  async reassess(): Promise<void> {
    const { rows, people, policy } = await this.engine.database.run(async (db) => ({ rows: await store.openDecisions(db), people: await store.peopleWhoCanSignIn(db), policy: await this.readPolicy(db) }));
    for (const row of rows) {
      const { selfApproval, canDecide } = assess(row, people, policy.selfApproval);
      if (store.sameDecidability(row, selfApproval, canDecide)) continue;
      await this.engine.onRun(row.engineRunId, async (_ops, tx) => {
        const locked = await store.lockDecision(tx, row.id);
        if (locked?.state === "open") await this.reassessLocked(tx, locked);
      });
    }
  }

  /**
   * The decision `row` (locked, after its run) assessed again with the people and the policy as they are now: written
   * when the answer changed, the conversation told, and the operators told when nobody can take it any more.
   */
  private async reassessLocked(tx: Executor, row: DecisionRow): Promise<DecisionRow> {
    const { selfApproval, canDecide } = assess(row, await store.peopleWhoCanSignIn(tx), (await this.readPolicy(tx)).selfApproval);
    if (store.sameDecidability(row, selfApproval, canDecide)) return row;
    const updated = await store.setDecidability(tx, row.id, selfApproval, canDecide);
    if (!canDecide.decidable) await tellUndecidable(tx, updated, canDecide.reason, this.notify);
    else if (!row.decidable) await store.addEvent(tx, { decision: updated, type: "decidable" });
    return updated;
  }

  /** Registers how a front door takes its runs' decisions (`decide`, and a deadline's outcome). */
  useHandler(frontDoor: Decision["front_door"], handler: DecisionHandler): void {
    this.handlers.set(frontDoor, handler);
  }

  /** The caller takes the decision: it is theirs until they release it or an operator reassigns it. Two claiming at once: one wins, the other is 409. */
  claim(id: string, by: Decider): Promise<Decision> {
    return this.onDecision(id, async (tx, row) => {
      if (by.accountId === null || by.name === null) throw forbidden("decisions are claimed by accounts: sign in as one to claim this");
      if (row.assigneeAccountId === by.accountId) return row;
      if (row.assigneeAccountId !== null) throw new DecisionError("conflict", `"${row.title}" is claimed by ${row.assigneeName ?? "someone else"} already`);
      if (row.approvalsNeeded > 1) throw new DecisionError("conflict", `"${row.title}" needs ${row.approvalsNeeded} different people's approvals, so no one person can claim it`);
      if (!roleAllows(by.role, row.assigneeRole as "reviewer")) throw forbidden(`only ${whoMay(row)} may claim "${row.title}"`);
      if (!row.selfApproval && row.startedById === by.accountId) throw forbidden(`you started this run, and its decisions are for someone else (separation of duties)`);
      const claimed = await store.setAssignee(tx, row.id, { role: row.assigneeRole, accountId: by.accountId, name: by.name });
      await store.addEvent(tx, { decision: claimed, type: "claimed", by: { id: by.accountId, name: by.name } });
      return this.reassessLocked(tx, claimed);
    });
  }

  /** The assignee (or an operator) gives the decision back to everyone with its role. */
  release(id: string, by: Decider): Promise<Decision> {
    return this.onDecision(id, async (tx, row) => {
      if (row.assigneeAccountId === null) return row;
      if (row.assigneeAccountId !== by.accountId && !roleAllows(by.role, "operator")) throw forbidden(`only ${whoMay(row)}, or an operator, may release "${row.title}"`);
      const released = await store.setAssignee(tx, row.id, { role: row.assigneeRole, accountId: null, name: null });
      await store.addEvent(tx, { decision: released, type: "released", by: { id: by.accountId, name: by.name }, detail: { assignee: { kind: "role", name: null, role: released.assigneeRole } } });
      return this.reassessLocked(tx, released);
    });
  }

  /** An operator assigns the decision to an active account that may take it, or to a role. */
  async assign(id: string, to: AssignBody, by: Decider): Promise<Decision> {
    // Looked up before the transaction: the people front door reads on a connection of its own.
    const account = "account_id" in to ? await this.findAccount(to.account_id) : undefined;
    return this.onDecision(id, async (tx, row) => {
      let assigned: DecisionRow;
      if ("role" in to) {
        assigned = await store.setAssignee(tx, row.id, { role: to.role, accountId: null, name: null });
      } else {
        if (!account?.active) throw new DecisionError("bad_request", `account_id: no active account with id "${to.account_id}"`);
        if (!roleAllows(account.role, row.assigneeRole as "reviewer")) throw new DecisionError("bad_request", `account_id: ${account.name} is ${account.role === "analyst" ? "an" : "a"} ${account.role}, and "${row.title}" needs a ${row.assigneeRole}`);
        if (row.approvalsNeeded > 1) throw new DecisionError("conflict", `"${row.title}" needs ${row.approvalsNeeded} different people's approvals: assign it to a role, not to one person`);
        if (!row.selfApproval && row.startedById === account.id) throw new DecisionError("bad_request", `account_id: ${account.name} started this run, and its decisions are for someone else (separation of duties)`);
        assigned = await store.setAssignee(tx, row.id, { role: row.assigneeRole, accountId: account.id, name: account.name });
      }
      await this.assigned(tx, assigned, "assigned", { id: by.accountId, name: by.name });
      return this.reassessLocked(tx, assigned);
    });
  }

  /**
   * Takes the decision through the front door that owns it, with that door's rules (the same as its own endpoint's):
   * an approval, a request for changes, a rejection or an answer, as the decision's kind allows.
   */
  async decide(id: string, body: DecideBody, by: Decider): Promise<Decision> {
    const decision = await this.openDecision(id);
    await this.handlerOf(decision).decide(decision, body, by);
    return store.decisionOf((await this.engine.database.run((db) => store.decisionById(db, id)))!);
  }

  /**
   * A decision's timer came due (record.ts set it when the decision opened): its reminder tells the assignee; its
   * deadline applies `on_overdue` (escalates to a role or a person, or decides the outcome as the deadline) or, without
   * one, marks it overdue and tells. Nothing when the decision closed meanwhile: a decision taken in the same instant
   * as its deadline is the person's or the deadline's, whichever locked the run first. Safe to run again (a timer whose
   * process died is fired again): each step checks, under the run's lock, that it has not happened yet.
   */
  async fire(timer: unknown): Promise<void> {
    const { decision_id: id, what } = DecisionTimer.parse(timer);
    const found = await this.engine.database.run((db) => store.decisionById(db, id));
    if (found?.state !== "open") return;
    const decision = store.decisionOf(found);
    const onOverdue = decision.on_overdue;
    if (what === "due" && onOverdue && "outcome" in onOverdue) {
      // The deadline's own outcome, through the front door and as the system, in one transaction with the close (the
      // decision becomes `expired`, record.ts). A person who decided first leaves the door nothing to do: it refuses.
      const reason = onOverdue.reason ?? `no decision by ${decision.due_at}`;
      try {
        if (onOverdue.outcome === "cancel") await this.handlerOf(decision).cancel(decision, `overdue: ${reason}`, DEADLINE);
        else await this.handlerOf(decision).decide(decision, { outcome: onOverdue.outcome, comment: `overdue: ${reason}` }, DEADLINE);
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
      }
      return;
    }
    await this.engine.onRun(found.engineRunId, async (_ops, tx) => {
      const row = await store.lockDecision(tx, id);
      if (row?.state !== "open") return;
      if (what === "remind") {
        // Once overdue (a busy moment can bring both timers at once), a reminder has nothing left to say.
        if (row.remindedAt !== null || row.overdueAt !== null) return;
        await store.markReminded(tx, id);
        await store.addEvent(tx, { decision: row, type: "reminded", detail: { due_at: store.decisionOf(row).due_at } });
        await this.notify(tx, { type: "decision.due_soon", decision: notified(row) });
        return;
      }
      if (row.overdueAt !== null) return;
      await store.markOverdue(tx, id);
      await this.notify(tx, { type: "decision.overdue", decision: notified(row) });
      if (!onOverdue || !("escalate" in onOverdue)) {
        await store.addEvent(tx, { decision: row, type: "overdue" });
        return;
      }
      const to = onOverdue.escalate;
      const account = to.includes("@") ? await store.activeAccountByEmail(tx, to) : undefined;
      const escalated = await store.setAssignee(tx, id, account ? { role: row.assigneeRole, accountId: account.id, name: account.name } : { role: to.includes("@") ? row.assigneeRole : to, accountId: null, name: null });
      const reason = account || !to.includes("@") ? "overdue" : `overdue; no active account has the email ${to}, so it is for everyone with the ${row.assigneeRole} role`;
      await this.assigned(tx, escalated, "escalated", null, reason);
      await this.reassessLocked(tx, escalated);
    });
  }

  private async assigned(tx: Executor, row: DecisionRow, type: "assigned" | "escalated", by: { id: string | null; name: string | null } | null, reason?: string): Promise<void> {
    const { assignee } = store.decisionOf(row);
    await store.addEvent(tx, { decision: row, type, by, detail: { assignee: { kind: assignee.kind, name: assignee.name, role: assignee.role }, ...(reason ? { reason } : {}) } });
    await this.notify(tx, { type: "decision.assigned", decision: notified(row) });
  }

  private handlerOf(decision: Decision): DecisionHandler {
    const handler = this.handlers.get(decision.front_door);
    if (!handler) throw new DecisionError("conflict", `decisions of ${decision.front_door} runs are not taken here`);
    return handler;
  }

  private async openDecision(id: string): Promise<Decision> {
    const found = isUuid(id) ? await this.engine.database.run((db) => store.decisionById(db, id)) : undefined;
    if (!found) throw new DecisionError("not_found", `no decision with id "${id}"`);
    if (found.state !== "open") throw new DecisionError("conflict", `"${found.title}" is ${found.state} already; nothing waits for a person`);
    return store.decisionOf(found);
  }

  /** Runs `fn` on the open decision `id`: its engine run locked first, then the decision. */
  private async onDecision(id: string, fn: (tx: Executor, row: DecisionRow) => Promise<DecisionRow>): Promise<Decision> {
    const found = await this.openDecision(id);
    const row = await this.engine.onRun(found.engine_run_id, async (_ops, tx) => {
      const locked = (await store.lockDecision(tx, id))!;
      if (locked.state !== "open") throw new DecisionError("conflict", `"${locked.title}" is ${locked.state} already; nothing waits for a person`);
      return fn(tx, locked);
    });
    return store.decisionOf(row);
  }
}

/** The comment a request for changes or a rejection must carry, or a clear refusal (400). */
export function feedbackOf(body: DecideBody): string {
  const comment = body.comment?.trim();
  if (!comment) throw new DecisionError("bad_request", `comment: say what should change (a ${body.outcome === "reject" ? "rejection" : "request for changes"} needs its reason)`);
  return comment;
}

/** Refuses an outcome the decision's kind does not take, naming those it does. */
export function unsupportedOutcome(decision: Decision, allowed: readonly DecideBody["outcome"][]): DecisionError {
  return new DecisionError("bad_request", `outcome: "${decision.title}" is ${decision.kind === "answer" ? "an" : "a"} ${decision.kind}; it takes ${allowed.map((o) => `"${o}"`).join(" or ")}`);
}
