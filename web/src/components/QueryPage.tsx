/**
 * A page made of one query's answer: the page once it is read (a later failed refresh is passed on, so the page can
 * say that updates paused while keeping the last good answer), the failure with "Try again", or a spinner. A query
 * whose page is refreshed by its run's change marker says why it is not up to date in `refreshError` (its own failed
 * read, or the marker's).
 */
import type { ReactNode } from "react";
import { PageLoadError } from "./ErrorNotice";
import { Spinner } from "./Spinner";

export function QueryPage<T>({ query, what, children }: {
  query: { data: T | undefined; error: unknown; refreshError?: unknown; refetch(): unknown };
  what: string;
  children(data: T, refreshError: unknown): ReactNode;
}) {
  if (query.data !== undefined) return children(query.data, "refreshError" in query ? query.refreshError : query.error);
  if (query.error) return <PageLoadError permanent={`This ${what} could not be opened`} transient={`The ${what} could not be loaded`} error={query.error} onRetry={() => void query.refetch()} />;
  return (
    <div className="page-pad">
      <Spinner label={`Loading the ${what}`} size="md" />
    </div>
  );
}
