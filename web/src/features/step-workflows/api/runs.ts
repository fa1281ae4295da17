/**
 * Step workflow runs: the list, one run told as a conversation (polled every second while it runs), and what a
 * person does on it: cancel it, resume it once it failed or was cancelled, retry a failed step. After each, the
 * run, its conversation, the lists and the engine's view of the same run are read again.
 */
import { pollRunList, pollWhileActive } from "../../../lib/runPolling";
import { type StepRun, trpc } from "../../../lib/trpc";
import { isStepRunActive } from "../utils/turns";

/** Recent runs, of one workflow or of all; read often while one of them is running. */
export function useStepRuns(workflow?: string) {
  return trpc.steps.runs.useQuery(workflow ? { workflow } : undefined, { refetchInterval: pollRunList(isStepRunActive) });
}

/** Every second until the run has ended, or its read failed for good. */
const untilEnded = pollWhileActive(isStepRunActive);

export function useStepConversation(runId: string) {
  return trpc.steps.conversation.useQuery({ runId }, { refetchInterval: untilEnded });
}

/** The run with its steps, for the graph view's header. */
export function useStepRun(runId: string) {
  return trpc.steps.run.useQuery({ runId }, { refetchInterval: untilEnded });
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
