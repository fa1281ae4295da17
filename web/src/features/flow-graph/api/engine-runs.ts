import { usePollInterval } from "../../../lib/runChanges";
import { type EngineRunStatus, trpc } from "../../../lib/trpc";

const activeStatuses = new Set<EngineRunStatus>(["running", "waiting_for_user"]);

/** One engine run, polled while it can still change (unless the page watches the run's change marker, which reads it again). */
export function useEngineRun(stitchRunId: string) {
  const interval = usePollInterval((query: { state: { data?: { status: EngineRunStatus } } }) => (query.state.data && !activeStatuses.has(query.state.data.status) ? false : 1500));
  return trpc.engine.runs.get.useQuery({ id: stitchRunId }, { refetchInterval: interval });
}

export function useEngineRunList() {
  return trpc.engine.runs.list.useQuery(
    { limit: 100 },
    { refetchInterval: (query) => (query.state.data?.some((run) => activeStatuses.has(run.status)) ? 3000 : 15_000) },
  );
}

/** A flow's graph does not change once a run uses it. */
export function useFlow(flowId: string | undefined) {
  return trpc.engine.flows.get.useQuery({ id: flowId ?? "" }, { enabled: flowId !== undefined, staleTime: Number.POSITIVE_INFINITY });
}
