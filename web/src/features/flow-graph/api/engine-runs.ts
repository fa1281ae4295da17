import { usePollInterval } from "../../../lib/runChanges";
import { type Liveliness, pollEvery, pollRunList } from "../../../lib/runPolling";
import { type EngineRunStatus, trpc } from "../../../lib/trpc";

/** A worker or an agent at work (busy), only a person awaited (waiting), or the run has ended. */
function engineRunLiveliness(status: EngineRunStatus): Liveliness {
  return status === "running" ? "busy" : status === "waiting_for_user" ? "waiting" : "ended";
}

/** One engine run, polled as what it is doing asks (unless the page watches the run's change marker, which reads it again). */
export function useEngineRun(stitchRunId: string) {
  const interval = usePollInterval((query: { state: { data?: { status: EngineRunStatus } } }) => pollEvery[query.state.data ? engineRunLiveliness(query.state.data.status) : "busy"]);
  return trpc.engine.runs.get.useQuery({ id: stitchRunId }, { refetchInterval: interval });
}

export function useEngineRunList() {
  return trpc.engine.runs.list.useQuery({ limit: 100 }, { refetchInterval: pollRunList(engineRunLiveliness) });
}

/** A flow's graph does not change once a run uses it. */
export function useFlow(flowId: string | undefined) {
  return trpc.engine.flows.get.useQuery({ id: flowId ?? "" }, { enabled: flowId !== undefined, staleTime: Number.POSITIVE_INFINITY });
}
