/** What each role may do: each role may do everything the one before it may (analyst < reviewer < operator). */
import { PeopleError, roleRequired, signInRequired } from "./errors";
import type { Identity, Role } from "./schemas";

const rank: Record<Role, number> = { analyst: 1, reviewer: 2, operator: 3 };

export function roleAllows(role: Role | null, needed: Role): boolean {
  return role !== null && rank[role] >= rank[needed];
}

/** What a role is for, in the words the app and the refusals use. */
export const roleDescriptions: Record<Role, string> = {
  analyst: "submits briefs, starts workflows, reads runs and downloads exports",
  reviewer: "does what an analyst does, and approves, requests changes and completes human gates",
  operator: "does everything: retries, cancels, registers flows and workflows, manages accounts and tokens",
};

/** Refuses (401 without a caller, 403 with a lesser role, each naming `needed`) a caller whose role may not. */
export function requireRole(identity: Identity, needed: Role): void {
  if (identity.role === null) throw signInRequired(needed, identity.kind === "anonymous" ? identity.problem : undefined);
  if (!roleAllows(identity.role, needed)) throw roleRequired(needed, identity.role);
}

/**
 * Refuses a caller who neither has the role `needed` nor started the run herself: the analyst who submitted a run may
 * withdraw or restart it, as an operator may any run. `startedBy` is null for a run whose starter is not known.
 */
export function requireRoleOrStarter(caller: { accountId: string | null; role: Role | null }, startedBy: { id: string | null } | null, needed: Role): void {
  if (caller.role === null) throw signInRequired(needed);
  if (roleAllows(caller.role, needed)) return;
  if (caller.accountId !== null && startedBy?.id === caller.accountId) return;
  throw new PeopleError("forbidden", `this needs the ${needed} role, or to be the one who started this run; you are signed in as ${caller.role === "analyst" ? "an" : "a"} ${caller.role} and did not start it`, {
    required_role: needed,
    role: caller.role,
  });
}
