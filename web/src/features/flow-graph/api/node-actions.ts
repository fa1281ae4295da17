/**
 * What a person can do to one node of an engine run (complete a UX node, review a gate, retry a failure)
 * and to the run as a whole (cancel it).
 */
import { trpc } from "../../../lib/trpc";

function useRefreshEngineRun() {
  const utils = trpc.useUtils();
  return (result: { runId: string }) =>
    Promise.all([utils.engine.runs.get.invalidate({ id: result.runId }), utils.engine.runs.list.invalidate(), utils.pipeline.invalidate()]);
}

export function useCompleteNode() {
  const refresh = useRefreshEngineRun();
  return trpc.engine.runs.completeNode.useMutation({ onSuccess: refresh });
}

export function useRetryNode() {
  const refresh = useRefreshEngineRun();
  return trpc.engine.runs.retryNode.useMutation({ onSuccess: refresh });
}

export function useReviewNode() {
  const refresh = useRefreshEngineRun();
  return trpc.engine.runs.reviewNode.useMutation({ onSuccess: refresh });
}

export function useCancelEngineRun() {
  const refresh = useRefreshEngineRun();
  return trpc.engine.runs.cancel.useMutation({ onSuccess: refresh });
}
