/**
 * How often a workflow front door's lists of runs are read again: often while one of them is active, now and then
 * otherwise (others start runs too). One run's page polls only its change marker (lib/runChanges.ts).
 */

/** The `refetchInterval` of a query of recent runs. */
export function pollRunList<S>(isActive: (status: S) => boolean) {
  return (query: { state: { data?: readonly { status: S }[] } }): number => (query.state.data?.some((run) => isActive(run.status)) ? 2000 : 15_000);
}
