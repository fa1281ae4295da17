/** Runs of the flow the designer shows: starting one, the last ones (for the list and the last input), one run live. */
import { usePollInterval } from "../../../lib/runChanges";
import { livelinessOfStatus, pollEvery, pollRunList } from "../../../lib/runPolling";
import { type EngineRunStatus, trpc } from "../../../lib/trpc";

export function useStartFlowRun() {
  const utils = trpc.useUtils();
  return trpc.engine.runs.start.useMutation({ onSuccess: () => utils.engine.runs.list.invalidate() });
}

/** The latest runs of every flow, for the flows list's "in progress" and "last run". */
export function useRecentRuns() {
  return trpc.engine.runs.list.useQuery({ limit: 100 }, { refetchInterval: pollRunList });
}

export function useFlowRuns(flowId: string | null) {
  return trpc.engine.runs.list.useQuery({ flowId: flowId ?? "", limit: 20 }, { enabled: flowId !== null });
}

/** One run, polled as what it is doing asks: the canvas's live view. */
export function useLiveRun(runId: string | null) {
  const interval = usePollInterval((query: { state: { data?: { status: EngineRunStatus } } }) => pollEvery[query.state.data ? livelinessOfStatus(query.state.data.status) : "busy"]);
  return trpc.engine.runs.get.useQuery({ id: runId ?? "" }, { enabled: runId !== null, refetchInterval: interval });
}

/** The input of the flow's newest run, offered in the run form; undefined until read, or when it never ran. */
export function useLastInput(flowId: string | null): unknown {
  const runs = useFlowRuns(flowId);
  const newest = runs.data?.[0]?.id ?? null;
  const run = trpc.engine.runs.get.useQuery({ id: newest ?? "" }, { enabled: newest !== null, staleTime: Number.POSITIVE_INFINITY });
  return run.data?.input;
}

export function useCancelFlowRun() {
  const utils = trpc.useUtils();
  return trpc.engine.runs.cancel.useMutation({ onSuccess: (_, input) => utils.engine.runs.get.invalidate({ id: input.runId }) });
}

/**
 * Operators: the flow's runs failed since a time, each forked at its failed node (`dry_run`: counted and named only).
 * A fork made is a new run: the flow's runs are read again.
 */
export function useForkFailedRuns() {
  const utils = trpc.useUtils();
  return trpc.engine.runs.forkFailed.useMutation({ onSuccess: (_, input) => (input.dry_run ? undefined : utils.engine.runs.list.invalidate()) });
}
