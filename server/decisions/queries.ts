/**
 * The reviewer's inbox: the decisions waiting for people, read with the caller's roles (a decision assigned to a role
 * is for everyone whose role may do what it asks: reviewers and operators for a reviewer's decision).
 */
import type { Database } from "../../db/client";
import { decodeCursor, encodeCursor } from "../lib/paging";
import { isUuid } from "../lib/uuid";
import { roleAllows } from "../people/roles";
import type { Identity, Role } from "../people/schemas";
import { DecisionError } from "./errors";
import type { Decision, DecisionActivity, DecisionListQuery, DecisionPage } from "./schemas";
import * as store from "./store";

const ROLES: readonly Role[] = ["analyst", "reviewer", "operator"];

/** The roles whose decisions the caller may take. */
const rolesOf = (identity: Identity): Role[] => ROLES.filter((role) => roleAllows(identity.role, role));

export class DecisionQueries {
  constructor(private readonly database: Database) {}

  async list(identity: Identity, query: DecisionListQuery): Promise<DecisionPage> {
    const caller = { accountId: identity.accountId, roles: rolesOf(identity) };
    let before;
    try {
      before = query.cursor ? decodeCursor(query.cursor, "uuid") : undefined;
    } catch {
      throw new DecisionError("bad_request", "cursor: not a cursor of the decisions list; pass the next_cursor of the page before");
    }
    const [found, openForMe, undecidable] = await Promise.all([
      this.database.run((db) => store.listDecisions(db, { ...caller, view: query.view, state: query.state, runId: query.run_id, q: query.q || undefined, limit: query.limit + 1, before })),
      this.database.run((db) => store.countOpenFor(db, caller)),
      this.database.run((db) => store.countUndecidable(db)),
    ]);
    const page = found.slice(0, query.limit);
    return {
      items: page.map(({ item }) => store.decisionOf(item)),
      next_cursor: found.length > query.limit ? encodeCursor(page[page.length - 1]!.key) : null,
      open_for_me: openForMe,
      undecidable,
    };
  }

  /** How many open decisions the caller may take: the navigation's count. */
  countOpenForMe(identity: Identity): Promise<number> {
    return this.database.run((db) => store.countOpenFor(db, { accountId: identity.accountId, roles: rolesOf(identity) }));
  }

  /** What happened to the decisions of a run (the front door's id of it), oldest first. */
  async activity(runId: string): Promise<{ items: DecisionActivity[] }> {
    return { items: await this.database.run((db) => store.listActivity(db, runId)) };
  }

  /** Moves whenever a decision of the engine run opens, is claimed, assigned, approved, reminded, escalated or closed. */
  async activityMarker(engineRunId: string): Promise<string> {
    return `d${await this.database.run((db) => store.activityMarker(db, engineRunId))}`;
  }

  async get(id: string): Promise<Decision> {
    const row = isUuid(id) ? await this.database.run((db) => store.decisionById(db, id)) : undefined;
    if (!row) throw new DecisionError("not_found", `no decision with id "${id}"`);
    return store.decisionOf(row);
  }
}
