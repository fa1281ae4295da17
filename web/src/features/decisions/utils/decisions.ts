/** How a decision reads in the inbox: what it asks, where its conversation is, who it waits for. */
import { type ArrivedFrom, paths } from "../../../lib/router";
import type { Decision, DecisionView, RouterInputs } from "../../../lib/trpc";

export const KIND_LABELS: Record<Decision["kind"], string> = { review: "Review", approval: "Approval", answer: "Question", completion: "Input needed" };

export const OUTCOME_LABELS: Record<NonNullable<Decision["outcome"]>, string> = {
  approve: "Approved", request_changes: "Changes requested", reject: "Rejected", answer: "Answered", complete: "Completed", cancelled: "Run ended",
};

export const VIEWS: { view: DecisionView; label: string }[] = [
  { view: "role", label: "For my role" },
  { view: "mine", label: "Assigned to me" },
  { view: "unassigned", label: "Unassigned" },
  { view: "overdue", label: "Overdue" },
  { view: "undecidable", label: "Nobody can decide" },
  { view: "decided", label: "Decided by me" },
  { view: "all", label: "All" },
];

/** The view a link asks for (`/app/reviews?view=undecidable`), when it names one. */
export function linkedView(search: string): DecisionView | undefined {
  const view = new URLSearchParams(search).get("view");
  return VIEWS.find((option) => option.view === view)?.view;
}

/** The page where the decision is taken: the run's conversation, whichever front door's (a plain flow run's too). */
export function decisionPage(decision: Pick<Decision, "front_door" | "run_id" | "engine_run_id">): string {
  switch (decision.front_door) {
    case "pipeline":
      return paths.run(decision.run_id);
    case "yaml":
      return paths.workflows.run(decision.run_id);
    case "steps":
      return paths.steps.run(decision.run_id);
    case "flow":
      return paths.flowRun(decision.engine_run_id);
  }
}

/** A decision's page opened from the inbox (or a notification of it) keeps "Reviews" highlighted in the top bar. */
export const fromReviews: ArrivedFrom = { section: "inbox" };

/** Who may take it: a person once assigned, otherwise everyone with the role. */
export function assigneeText(assignee: Decision["assignee"]): string {
  if (assignee.kind === "account") return assignee.name ?? "a person";
  return `any ${assignee.role}`;
}

/** The tab title with the count of decisions waiting for me in front, as mail clients do. */
export function withCount(title: string, count: number | undefined): string {
  return count ? `(${count}) ${title}` : title;
}

const RANK = { analyst: 0, reviewer: 1, operator: 2 } as const;
type Role = keyof typeof RANK;
const isRole = (role: string): role is Role => role in RANK;

/** Where an operator may hand a decision: active people whose role covers it (not for a quorum), and the roles. */
export function assignTargets(
  decision: Pick<Decision, "assignee" | "approvals_needed">,
  accounts: readonly { id: string; name: string; role: Role; active: boolean }[],
): { value: string; label: string; short: string; to: RouterInputs["decisions"]["assign"]["to"] }[] {
  const needed = isRole(decision.assignee.role) ? RANK[decision.assignee.role] : RANK.reviewer;
  const roles = (["reviewer", "operator"] as const)
    .filter((role) => !(decision.assignee.kind === "role" && decision.assignee.role === role))
    .map((role) => ({ value: `role:${role}`, label: `Every ${role}`, short: `every ${role}`, to: { role } }));
  const people =
    decision.approvals_needed > 1
      ? []
      : accounts
          .filter((a) => a.active && RANK[a.role] >= needed && a.id !== decision.assignee.id)
          .map((a) => ({ value: `account:${a.id}`, label: `${a.name} (${a.role})`, short: a.name, to: { account_id: a.id } }));
  return [...people, ...roles];
}

/** "1 of 2 approvals: approved by Rita Ramos" while a quorum gathers; nothing for a single approver. */
export function approvalsText(decision: Pick<Decision, "approvals" | "approvals_needed">): string | null {
  if (decision.approvals_needed <= 1) return null;
  const by = decision.approvals.map((a) => a.by).join(", ");
  return `${decision.approvals.length} of ${decision.approvals_needed} approvals${by ? `: approved by ${by}` : ""}`;
}

/** Whether an open decision is past its due time. */
export const isOverdue = (decision: Pick<Decision, "state" | "due_at">, now = Date.now()): boolean =>
  decision.state === "open" && decision.due_at !== null && Date.parse(decision.due_at) < now;
