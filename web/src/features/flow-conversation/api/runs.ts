/**
 * A plain flow run told as a conversation (polled every second while it is running or waiting for a person, left
 * alone once it has ended), and what a person does on it through the flows' commands: complete a UX node with their
 * input, approve a review gate or request changes with feedback, retry a failed node, cancel the run. Each action
 * stays pending until the conversation is read again, so a gate never offers a decision twice.
 */
import { pollWhileActive } from "../../../lib/runPolling";
import { trpc } from "../../../lib/trpc";
import { isFlowRunActive } from "../utils/turns";

export function useFlowConversation(runId: string) {
  return trpc.engine.runs.conversation.useQuery({ id: runId }, { refetchInterval: pollWhileActive(isFlowRunActive) });
}

function useRefreshRun() {
  const utils = trpc.useUtils();
  return (result: { runId: string }) =>
    Promise.all([
      utils.engine.runs.conversation.invalidate({ id: result.runId }),
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
