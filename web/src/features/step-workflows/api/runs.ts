/**
 * Step workflow runs: the list, one run told as a conversation (read again when its change marker moves), and what a
 * person does on it: cancel it, resume it once it failed or was cancelled, retry a failed step. After each, the
 * run, its conversation, the lists and the engine's view of the same run are read again.
 */
import { changesPolling, invalidateDecisionsAndReviews, useRunChanges } from "../../../lib/runChanges";
import { pollRunList } from "../../../lib/runPolling";
import { type StepRun, trpc } from "../../../lib/trpc";

/** Recent runs, of one workflow or of all; read often while one of them is running. */
export function useStepRuns(workflow?: string) {
  return trpc.steps.runs.useQuery(workflow ? { workflow } : undefined, { refetchInterval: pollRunList });
}

/**
 * The run's reads are not polled themselves: its change marker (`workflows.changes`, a step run's too) is polled
 * every 1.5 s until the run has ended, and when it moves the run, its conversation and its engine run (the graph) are
 * read again. Answers why updates paused (the marker's error), or null.
 */
function useStepChanges(runId: string): unknown {
  const utils = trpc.useUtils();
  const changes = trpc.workflows.changes.useQuery({ runId }, changesPolling);
  return useRunChanges(runId, changes, () =>
    Promise.all([
      utils.steps.conversation.invalidate({ runId }),
      utils.steps.run.invalidate({ runId }),
      utils.engine.runs.get.invalidate({ id: runId }),
      invalidateDecisionsAndReviews(utils, runId),
    ]),
  );
}

/** The run as a conversation, with why it is not up to date (`refreshError`: its last read failed, or its marker's). */
export function useStepConversation(runId: string) {
  const changesError = useStepChanges(runId);
  const conversation = trpc.steps.conversation.useQuery({ runId });
  return { ...conversation, refreshError: conversation.error ?? changesError };
}

/** The run with its steps, for the graph view's header; read again when its change marker moves. */
export function useStepRun(runId: string) {
  useStepChanges(runId);
  return trpc.steps.run.useQuery({ runId });
}

function useRefresh() {
  const utils = trpc.useUtils();
  return async (run: StepRun) => {
    utils.steps.run.setData({ runId: run.id }, run);
    utils.steps.conversation.setData({ runId: run.id }, (previous) => (previous ? { ...previous, run } : previous));
    await Promise.all([
      utils.steps.conversation.invalidate({ runId: run.id }),
      utils.steps.run.invalidate({ runId: run.id }),
      utils.steps.runs.invalidate(),
      // Its marker: a resumed run is watched again.
      utils.workflows.changes.invalidate({ runId: run.id }),
      utils.engine.runs.get.invalidate({ id: run.id }),
    ]);
  };
}

export function useCancelStepRun() {
  return trpc.steps.cancel.useMutation({ onSuccess: useRefresh() });
}

export function useResumeStepRun() {
  return trpc.steps.resume.useMutation({ onSuccess: useRefresh() });
}

export function useRetryStep() {
  return trpc.steps.retry.useMutation({ onSuccess: useRefresh() });
}
