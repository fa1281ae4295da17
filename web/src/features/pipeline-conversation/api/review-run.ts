/**
 * The reviewer's decisions, the retry of a failed agent and the cancellation of the run. Each mutation stays pending
 * until the conversation and the run's and the run list's markers are fetched again (the list follows its marker),
 * so the composer never offers a decision twice.
 */
import { type PipelineRun, trpc } from "../../../lib/trpc";

function useRefreshRun() {
  const utils = trpc.useUtils();
  return async (run: PipelineRun) => {
    utils.pipeline.conversation.setData({ runId: run.run_id }, (previous) => (previous ? { ...previous, run } : previous));
    // The decisions too: the review just taken closed, and the inbox's count with it. And the run's marker, which says
    // how often to ask again: an approved or rejected output sets an agent drafting (busy), read often again at once.
    await Promise.all([
      utils.pipeline.conversation.invalidate({ runId: run.run_id }),
      utils.pipeline.changes.invalidate({ runId: run.run_id }),
      utils.pipeline.listChanges.invalidate(),
      utils.decisions.invalidate(),
    ]);
  };
}

export function useApproveRun() {
  const refresh = useRefreshRun();
  return trpc.pipeline.approve.useMutation({ onSuccess: refresh });
}

export function useRejectRun() {
  const refresh = useRefreshRun();
  return trpc.pipeline.reject.useMutation({ onSuccess: refresh });
}

export function useRetryRun() {
  const refresh = useRefreshRun();
  return trpc.pipeline.retry.useMutation({ onSuccess: refresh });
}

/** Also refreshes the engine run, so the flow graph tab shows its nodes cancelled at once. */
export function useCancelRun() {
  const refresh = useRefreshRun();
  const utils = trpc.useUtils();
  return trpc.pipeline.cancel.useMutation({ onSuccess: (run) => Promise.all([refresh(run), utils.engine.runs.get.invalidate(), utils.engine.runs.list.invalidate()]) });
}

/** The submitter's new brief: the first agent starts over with it. */
export function useEditBrief() {
  const refresh = useRefreshRun();
  const utils = trpc.useUtils();
  return trpc.pipeline.editBrief.useMutation({ onSuccess: (run) => Promise.all([refresh(run), utils.engine.runs.get.invalidate()]) });
}
