/**
 * What a workflow run's page reads of the run beside its turns (which turns are live, `annotateTurns` in
 * components/turns.ts says): whether it can still change, whether it can be resumed, and how a turn names its node.
 */
import type { WorkflowRun, WorkflowRunStatus } from "../../../lib/trpc";

/** A run keeps changing (and is polled) while a node runs or a person is awaited. */
export function isWorkflowRunActive(status: WorkflowRunStatus): boolean {
  return status === "running" || status === "waiting_for_user";
}

/** Prefix of the cancel reason the server writes when a rejected approval stops the run (the only cancellation it resumes). */
const rejectionPrefix = "rejected at ";

/** A failed run, or one cancelled by a rejected approval, can be resumed; the server refuses any other. */
export function isResumable(run: Pick<WorkflowRun, "status" | "cancel_reason">): boolean {
  return run.status === "failed" || (run.status === "cancelled" && (run.cancel_reason ?? "").startsWith(rejectionPrefix));
}

/** A run is over once it completed or was cancelled: nothing in it can be answered or retried (a failed run can). */
export const isWorkflowRunOver = (status: WorkflowRunStatus) => status === "completed" || status === "cancelled";
