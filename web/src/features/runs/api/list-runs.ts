import { isRunActive } from "../../../lib/runStatus";
import { trpc } from "../../../lib/trpc";

/** The sidebar's runs, newest first; refreshed often while any run is moving, rarely otherwise (others may start runs too). */
export function useRunList() {
  return trpc.pipeline.listRuns.useQuery(undefined, {
    refetchInterval: (query) => (query.state.data?.some((run) => isRunActive(run.state)) ? 2500 : 15_000),
  });
}
