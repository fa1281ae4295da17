/** What each role may do: each role may do everything the one before it may (analyst < reviewer < operator). */
import { roleRequired, signInRequired } from "./errors";
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
