/**
 * Workflow runs: the list, one run told as a conversation (read again when its change marker moves), and what a person
 * does on it: approve or reject an approval node, reply to an interactive loop, retry a failed node, cancel or resume
 * the run. Each action stays pending until the conversation is read again, so a turn never offers a decision twice.
 */
import { changesPolling, invalidateDecisionsAndReviews, useRunChanges } from "../../../lib/runChanges";
import { pollRunList } from "../../../lib/runPolling";
import { type AnyWorkflowRun, type WorkflowRun, trpc } from "../../../lib/trpc";

/** Recent runs, of one workflow or of all; read often while one of them is moving. */
export function useWorkflowRuns(workflow?: string) {
  return trpc.workflows.runs.useQuery(workflow ? { workflow } : undefined, { refetchInterval: pollRunList });
}

/**
 * The run's reads are not polled themselves: `workflows.changes`, one small read, is polled every 1.5 s while the run
 * can still change (never once it has ended), and when its marker moves the run, its conversation, its decisions and
 * comments, and its engine run (the graph) are read again. Answers why updates paused (the marker's error), or null.
 */
function useWorkflowChanges(runId: string): unknown {
  const utils = trpc.useUtils();
  const changes = trpc.workflows.changes.useQuery({ runId }, changesPolling);
  return useRunChanges(runId, changes, () =>
    Promise.all([
      utils.workflows.conversation.invalidate({ runId }),
      utils.workflows.run.invalidate({ runId }),
      utils.engine.runs.get.invalidate({ id: runId }),
      invalidateDecisionsAndReviews(utils, runId),
    ]),
  );
}

/** The run as a conversation, with why it is not up to date (`refreshError`: its last read failed, or its marker's). */
export function useWorkflowConversation(runId: string) {
  const changesError = useWorkflowChanges(runId);
  const conversation = trpc.workflows.conversation.useQuery({ runId });
  return { ...conversation, refreshError: conversation.error ?? changesError };
}

/** A step workflow's run is the step workflows' pages' to show: here it is an error. */
function yamlRun(run: AnyWorkflowRun): WorkflowRun {
  if ("format" in run) throw new Error(`run ${run.id} is a step workflow's; open it under Step workflows`);
  return run;
}

/** The run alone (its status and nodes), for the graph view's header; read again when its change marker moves. */
export function useWorkflowRun(runId: string) {
  useWorkflowChanges(runId);
  return trpc.workflows.run.useQuery({ runId }, { select: yamlRun });
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
      // Its marker: a resumed run is watched again.
      utils.workflows.changes.invalidate({ runId: run.id }),
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
