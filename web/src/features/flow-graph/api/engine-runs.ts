import { usePollInterval } from "../../../lib/runChanges";
import { livelinessOfStatus, pollEvery, pollRunList } from "../../../lib/runPolling";
import { type EngineRunStatus, trpc } from "../../../lib/trpc";

/** One engine run, polled as what it is doing asks (unless the page watches the run's change marker, which reads it again). */
export function useEngineRun(stitchRunId: string) {
  const interval = usePollInterval((query: { state: { data?: { status: EngineRunStatus } } }) => pollEvery[query.state.data ? livelinessOfStatus(query.state.data.status) : "busy"]);
  return trpc.engine.runs.get.useQuery({ id: stitchRunId }, { refetchInterval: interval });
}

export function useEngineRunList() {
  return trpc.engine.runs.list.useQuery({ limit: 100 }, { refetchInterval: pollRunList });
}

/** A flow's graph does not change once a run uses it. */
export function useFlow(flowId: string | undefined) {
  return trpc.engine.flows.get.useQuery({ id: flowId ?? "" }, { enabled: flowId !== undefined, staleTime: Number.POSITIVE_INFINITY });
}
