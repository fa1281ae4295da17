import { isRunActive } from "../../../lib/runStatus";
import { type RunSummary, trpc } from "../../../lib/trpc";

/** How many runs the sidebar asks for at a time. */
export const runsPageSize = 50;

/**
 * The sidebar's runs, newest first, a page at a time (`loadMore` asks for the next); refreshed often while any loaded
 * run is moving, rarely otherwise (others may start runs too). A refresh reads the loaded pages again from the first,
 * each after the one before, so a run created meanwhile shifts the pages without one being skipped or shown twice.
 */
export function useRunList() {
  const query = trpc.pipeline.listRuns.useInfiniteQuery(
    { limit: runsPageSize },
    {
      getNextPageParam: (page) => page.next_cursor ?? undefined,
      refetchInterval: (q) => (q.state.data?.pages.some((page) => page.items.some((run) => isRunActive(run.state))) ? 2500 : 15_000),
    },
  );
  const runs = query.data ? uniqueRuns(query.data.pages.flatMap((page) => page.items)) : undefined;
  return { ...query, runs };
}

/** A run answered by two pages (between their reads) is listed once. */
function uniqueRuns(runs: RunSummary[]): RunSummary[] {
  const seen = new Set<string>();
  return runs.filter((run) => !seen.has(run.run_id) && seen.add(run.run_id));
}
