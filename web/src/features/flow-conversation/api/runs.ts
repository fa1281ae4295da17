/**
 * A plain flow run told as a conversation (read again when its change marker moves, which is polled while the run is
 * running or waiting for a person and left alone once it has ended), and what a person does on it through the flows'
 * commands: complete a UX node with their input, approve a review gate or request changes with feedback, retry a
 * failed node, cancel the run. Each action stays pending until the conversation is read again, so a gate never offers
 * a decision twice.
 */
import { changesPolling, invalidateDecisionsAndReviews, useRunChanges } from "../../../lib/runChanges";
import { trpc } from "../../../lib/trpc";

/**
 * The run as a conversation, not polled itself: `engine.runs.changes`, one small read, is polled every 1.5 s until
 * the run has ended, and when its marker moves the conversation, the run's graph, its decisions and its comments are
 * read again. `refreshError` says why the page is not up to date: its last read failed, or the marker's.
 */
export function useFlowConversation(runId: string) {
  const utils = trpc.useUtils();
  const changes = trpc.engine.runs.changes.useQuery({ id: runId }, changesPolling);
  const changesError = useRunChanges(runId, changes, () =>
    Promise.all([
      utils.engine.runs.conversation.invalidate({ id: runId }),
      utils.engine.runs.get.invalidate({ id: runId }),
      invalidateDecisionsAndReviews(utils, runId),
    ]),
  );
  const conversation = trpc.engine.runs.conversation.useQuery({ id: runId });
  return { ...conversation, refreshError: conversation.error ?? changesError };
}

function useRefreshRun() {
  const utils = trpc.useUtils();
  return (result: { runId: string }) =>
    Promise.all([
      utils.engine.runs.conversation.invalidate({ id: result.runId }),
      // Its marker: a run moved on by this action is watched until it ends.
      utils.engine.runs.changes.invalidate({ id: result.runId }),
      // The graph of the same run, the engine's run list, and the decision just taken (the inbox's count with it).
      utils.engine.runs.get.invalidate({ id: result.runId }),
      utils.engine.runs.list.invalidate(),
      utils.decisions.invalidate(),
    ]);
}

export function useCompleteFlowNode() {
  return trpc.engine.runs.completeNode.useMutation({ onSuccess: useRefreshRun() });
}

export function useReviewFlowNode() {
  return trpc.engine.runs.reviewNode.useMutation({ onSuccess: useRefreshRun() });
}

export function useRetryFlowNode() {
  return trpc.engine.runs.retryNode.useMutation({ onSuccess: useRefreshRun() });
}

export function useCancelFlowRun() {
  return trpc.engine.runs.cancel.useMutation({ onSuccess: useRefreshRun() });
}
