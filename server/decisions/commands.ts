/**
 * Who may take a decision, and how it changes hands: a reviewer claims one (then it is hers) or releases it; an operator
 * assigns it to a person or back to a role. The front doors' decision commands (a pipeline approval, a flow's review
 * or completion) call `assertMayDecide` inside their engine transaction, so the same rules hold whichever door a
 * decision is taken through. Each command locks the decision's engine run first (engine.onRun), then the decision:
 * the product's one lock order.
 */
import type { Executor } from "../../db/client";
import type { DecisionRow } from "../../db/schema";
import type { Engine } from "../engine/engine";
import { isUuid } from "../lib/uuid";
import { roleAllows } from "../people/roles";
import { DecisionError } from "./errors";
import type { AssignBody, Decider, Decision } from "./schemas";
import * as store from "./store";

/** An account to assign a decision to, as the people front door knows it. */
export type FindAccount = (accountId: string) => Promise<{ id: string; name: string; role: "analyst" | "reviewer" | "operator"; active: boolean } | undefined>;

const forbidden = (message: string) => new DecisionError("forbidden", message);

function whoMay(row: DecisionRow): string {
  return row.assigneeAccountId ? `${row.assigneeName ?? "the person it is assigned to"} (it is assigned to them)` : `anyone with the ${row.assigneeRole} role`;
}

/**
 * Refuses (403, naming who may) a decision that `by` may not take: one assigned to someone else, one for a role
 * `by` does not have, or one on a run `by` started when the decision does not allow self-approval. MUST be called
 * inside engine.onRun of the decision's run; no open decision for the node means nothing waits, which the front
 * door's own checks answer.
 */
export async function assertMayDecide(tx: Executor, engineRunId: string, nodeKey: string, by: Decider): Promise<void> {
  const open = await store.lockOpenDecision(tx, engineRunId, nodeKey);
  if (!open) return;
  if (!open.selfApproval && open.startedById !== null && open.startedById === by.accountId) {
    throw forbidden(`you started this run, and its reviews are for someone else (separation of duties): ${whoMay(open)} may decide "${open.title}"`);
  }
  if (open.assigneeAccountId !== null ? open.assigneeAccountId !== by.accountId : !roleAllows(by.role, open.assigneeRole as "reviewer")) {
    throw forbidden(`only ${whoMay(open)} may decide "${open.title}"`);
  }
}

export class DecisionCommands {
  constructor(
    private readonly engine: Engine,
    private readonly findAccount: FindAccount,
  ) {}

  /** The caller takes the decision: it is theirs until they release it or an operator reassigns it. Two claiming at once: one wins, the other is 409. */
  claim(id: string, by: Decider): Promise<Decision> {
    return this.onDecision(id, async (tx, row) => {
      if (by.accountId === null || by.name === null) throw forbidden("decisions are claimed by accounts: sign in as one to claim this");
      if (row.assigneeAccountId === by.accountId) return row;
      if (row.assigneeAccountId !== null) throw new DecisionError("conflict", `"${row.title}" is claimed by ${row.assigneeName ?? "someone else"} already`);
      if (!roleAllows(by.role, row.assigneeRole as "reviewer")) throw forbidden(`only ${whoMay(row)} may claim "${row.title}"`);
      if (!row.selfApproval && row.startedById === by.accountId) throw forbidden(`you started this run, and its reviews are for someone else (separation of duties)`);
      return store.setAssignee(tx, row.id, { role: row.assigneeRole, accountId: by.accountId, name: by.name });
    });
  }

  /** The assignee (or an operator) gives the decision back to everyone with its role. */
  release(id: string, by: Decider): Promise<Decision> {
    return this.onDecision(id, async (tx, row) => {
      if (row.assigneeAccountId === null) return row;
      if (row.assigneeAccountId !== by.accountId && !roleAllows(by.role, "operator")) throw forbidden(`only ${whoMay(row)}, or an operator, may release "${row.title}"`);
      return store.setAssignee(tx, row.id, { role: row.assigneeRole, accountId: null, name: null });
    });
  }

  /** An operator assigns the decision to an active account that may take it, or to a role. */
  async assign(id: string, to: AssignBody): Promise<Decision> {
    // Looked up before the transaction: the people front door reads on a connection of its own.
    const account = "account_id" in to ? await this.findAccount(to.account_id) : undefined;
    return this.onDecision(id, async (tx, row) => {
      if ("role" in to) return store.setAssignee(tx, row.id, { role: to.role, accountId: null, name: null });
      if (!account?.active) throw new DecisionError("bad_request", `account_id: no active account with id "${to.account_id}"`);
      if (!roleAllows(account.role, row.assigneeRole as "reviewer")) throw new DecisionError("bad_request", `account_id: ${account.name} is ${account.role === "analyst" ? "an" : "a"} ${account.role}, and "${row.title}" needs a ${row.assigneeRole}`);
      return store.setAssignee(tx, row.id, { role: row.assigneeRole, accountId: account.id, name: account.name });
    });
  }

  /** Runs `fn` on the open decision `id`: its engine run locked first, then the decision. */
  private async onDecision(id: string, fn: (tx: Executor, row: DecisionRow) => Promise<DecisionRow>): Promise<Decision> {
    const found = isUuid(id) ? await this.engine.database.run((db) => store.decisionById(db, id)) : undefined;
    if (!found) throw new DecisionError("not_found", `no decision with id "${id}"`);
    const row = await this.engine.onRun(found.engineRunId, async (_ops, tx) => {
      const locked = (await store.lockDecision(tx, id))!;
      if (locked.state !== "open") throw new DecisionError("conflict", `"${locked.title}" is ${locked.state} already; nothing waits for a person`);
      return fn(tx, locked);
    });
    return store.decisionOf(row);
  }
}
