import { livelinessOf, useMarkerMoves } from "../../../lib/runChanges";
import { listPollEvery } from "../../../lib/runPolling";
import { type RunSummary, trpc } from "../../../lib/trpc";

/** How many runs the sidebar asks for at a time. */
export const runsPageSize = 50;

/**
 * The sidebar's runs, newest first, a page at a time (`loadMore` asks for the next). They are not polled themselves:
 * the list's change marker (`pipeline.listChanges`, one small read) is, as often as its busiest run asks
 * (lib/runPolling.ts), and the runs are read again when it moves. A refresh reads the loaded pages
 * again from the first, each after the one before, so a run created meanwhile shifts the pages without one being
 * skipped or shown twice.
 */
export function useRunList() {
  const utils = trpc.useUtils();
  const changes = trpc.pipeline.listChanges.useQuery(undefined, { refetchInterval: (q) => listPollEvery[q.state.data ? livelinessOf(q.state.data) : "busy"] });
  useMarkerMoves("runs", changes.data, () => utils.pipeline.listRuns.invalidate());
  const query = trpc.pipeline.listRuns.useInfiniteQuery({ limit: runsPageSize }, { getNextPageParam: (page) => page.next_cursor ?? undefined });
  const runs = query.data ? uniqueRuns(query.data.pages.flatMap((page) => page.items)) : undefined;
  return { ...query, runs };
}

/** A run answered by two pages (between their reads) is listed once. */
function uniqueRuns(runs: RunSummary[]): RunSummary[] {
  const seen = new Set<string>();
  return runs.filter((run) => !seen.has(run.run_id) && seen.add(run.run_id));
}
