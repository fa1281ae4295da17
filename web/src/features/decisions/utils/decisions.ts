/** How a decision reads in the inbox: what it asks, where its conversation is, who it waits for. */
import { paths } from "../../../lib/router";
import type { Decision, DecisionView } from "../../../lib/trpc";

export const KIND_LABELS: Record<Decision["kind"], string> = { review: "Review", approval: "Approval", answer: "Question", completion: "Input needed" };

export const OUTCOME_LABELS: Record<NonNullable<Decision["outcome"]>, string> = {
  approve: "Approved", request_changes: "Changes requested", reject: "Rejected", answer: "Answered", complete: "Completed", cancelled: "Run ended",
};

export const VIEWS: { view: DecisionView; label: string }[] = [
  { view: "role", label: "For my role" },
  { view: "mine", label: "Assigned to me" },
  { view: "unassigned", label: "Unassigned" },
  { view: "overdue", label: "Overdue" },
  { view: "decided", label: "Decided" },
  { view: "all", label: "All" },
];

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

/** Who may take it: a person once assigned, otherwise everyone with the role. */
export function assigneeText(assignee: Decision["assignee"]): string {
  if (assignee.kind === "account") return assignee.name ?? "a person";
  return `any ${assignee.role}`;
}

/** The tab title with the count of decisions waiting for me in front, as mail clients do. */
export function withCount(title: string, count: number | undefined): string {
  return count ? `(${count}) ${title}` : title;
}
