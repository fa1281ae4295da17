/**
 * Workflow runs: the list, one run told as a conversation (polled while it can still change), and what a person does
 * on it: approve or reject an approval node, reply to an interactive loop, retry a failed node, cancel or resume the
 * run. Each action stays pending until the conversation is read again, so a turn never offers a decision twice.
 */
import { pollRunList, pollWhileActive as pollWhile } from "../../../lib/runPolling";
import { type AnyWorkflowRun, type WorkflowRun, trpc } from "../../../lib/trpc";
import { isWorkflowRunActive } from "../utils/turns";

/** Recent runs, of one workflow or of all; read often while one of them is moving. */
export function useWorkflowRuns(workflow?: string) {
  return trpc.workflows.runs.useQuery(workflow ? { workflow } : undefined, { refetchInterval: pollRunList(isWorkflowRunActive) });
}

/** Polls every second while the run is running or waiting for a person, and stops once it has ended. */
const pollWhileActive = pollWhile(isWorkflowRunActive);

export function useWorkflowConversation(runId: string) {
  return trpc.workflows.conversation.useQuery({ runId }, { refetchInterval: pollWhileActive });
}

/** A step workflow's run is the step workflows' pages' to show: here it is an error. */
function yamlRun(run: AnyWorkflowRun): WorkflowRun {
  if ("format" in run) throw new Error(`run ${run.id} is a step workflow's; open it under Step workflows`);
  return run;
}

/** The run alone (its status and nodes), for the graph view's header. */
export function useWorkflowRun(runId: string) {
  return trpc.workflows.run.useQuery({ runId }, { refetchInterval: pollWhileActive, select: yamlRun });
}

function useRefreshRun() {
  const utils = trpc.useUtils();
  return async (run: AnyWorkflowRun) => {
    if (!("format" in run)) utils.workflows.conversation.setData({ runId: run.id }, (previous) => (previous ? { ...previous, run } : previous));
    utils.workflows.run.setData({ runId: run.id }, run);
    await Promise.all([
      utils.workflows.conversation.invalidate({ runId: run.id }),
      utils.workflows.run.invalidate({ runId: run.id }),
      utils.workflows.runs.invalidate(),
      // The graph view of the same run reads the engine's side.
      utils.engine.runs.get.invalidate({ id: run.id }),
      // A decision taken closed, and the inbox's count with it.
      utils.decisions.invalidate(),
    ]);
  };
}

export function useApproveNode() {
  return trpc.workflows.approve.useMutation({ onSuccess: useRefreshRun() });
}

export function useRejectNode() {
  return trpc.workflows.reject.useMutation({ onSuccess: useRefreshRun() });
}

export function useReplyToNode() {
  return trpc.workflows.input.useMutation({ onSuccess: useRefreshRun() });
}

export function useRetryWorkflowNode() {
  return trpc.workflows.retry.useMutation({ onSuccess: useRefreshRun() });
}

export function useCancelWorkflowRun() {
  return trpc.workflows.cancel.useMutation({ onSuccess: useRefreshRun() });
}

export function useResumeWorkflowRun() {
  return trpc.workflows.resume.useMutation({ onSuccess: useRefreshRun() });
}
