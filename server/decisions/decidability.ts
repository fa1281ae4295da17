/**
 * Whether anyone can take a decision now, and if not why and what would fix it: a pure function of the decision's
 * rules and the people who can sign in. A decision nobody can take would wait for ever, so the product computes this
 * when a decision opens and whenever people, roles, assignments, approvals or the policy change (commands.ts), marks it
 * in the inbox, its conversation and `GET /api/decisions`, and tells the operators.
 */
import { roleAllows } from "../people/roles";
import type { Role } from "../people/schemas";
import type { Decidability } from "./schemas";

/** Someone who can sign in now: an account that accepted its invitation and is not disabled. */
export interface Person {
  id: string;
  name: string;
  role: Role;
}

/** What decidability reads of a decision. */
export interface WhoMayDecide {
  assigneeRole: string;
  assigneeAccountId: string | null;
  assigneeName: string | null;
  approvalsNeeded: number;
  /** The accounts whose approval it has already (a quorum's partial approvals). */
  approvedBy: readonly (string | null)[];
  selfApproval: boolean;
  startedById: string | null;
  startedByName: string | null;
}

const ROLES: readonly Role[] = ["analyst", "reviewer", "operator"];
const isRole = (role: string): role is Role => (ROLES as readonly string[]).includes(role);
const withArticle = (role: string) => `${/^[aeiou]/.test(role) ? "an" : "a"} ${role}`;

/**
 * The assignee, when it is a person, must be able to sign in (and, when separated, not have started the run); a role
 * must have, among the people who can sign in and may act for it, as many as the approvals still needed who have not
 * approved yet and, when separated, did not start the run.
 */
export function decidability(d: WhoMayDecide, people: readonly Person[]): Decidability {
  const separated = !d.selfApproval && d.startedById !== null;
  if (d.assigneeAccountId !== null) {
    const assignee = people.find((p) => p.id === d.assigneeAccountId);
    const name = d.assigneeName ?? "the person it is assigned to";
    if (!assignee) return { decidable: false, cause: "assignee_inactive", reason: `it is assigned to ${name}, whose account is disabled or has not been activated` };
    if (separated && assignee.id === d.startedById) {
      return { decidable: false, cause: "separation", reason: `it is assigned to ${name}, who started this run, and separation of duties keeps them from deciding it` };
    }
    return { decidable: true };
  }
  const role = d.assigneeRole;
  const holders = isRole(role) ? people.filter((p) => roleAllows(p.role, role)) : [];
  const needed = Math.max(1, d.approvalsNeeded - d.approvedBy.length);
  const yetToApprove = holders.filter((p) => !d.approvedBy.includes(p.id));
  const eligible = yetToApprove.filter((p) => !(separated && p.id === d.startedById));
  if (eligible.length >= needed) return { decidable: true };
  if (holders.length === 0) return { decidable: false, cause: "no_one_with_role", reason: `nobody who can sign in is ${withArticle(role)} (or has a role that covers it)` };
  if (eligible.length < yetToApprove.length && yetToApprove.length >= needed) {
    const starter = d.startedByName ?? "the person who started this run";
    return {
      decidable: false,
      cause: "separation",
      reason: `${starter} started this run, and separation of duties keeps them from deciding it; nobody else ${needed === 1 ? `is ${withArticle(role)}` : `can give the ${needed} approvals still needed`}`,
    };
  }
  const approvals = `${needed} more approval${needed === 1 ? "" : "s"}`;
  const who = eligible.length === 0 ? "nobody" : eligible.length === 1 ? "only 1 person" : `only ${eligible.length} people`;
  return { decidable: false, cause: "quorum", reason: `it needs ${approvals} from different people, and ${who} who may give one can sign in` };
}
