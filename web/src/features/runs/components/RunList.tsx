/** The sidebar's runs: newest first, a page at a time, with domain, status and a badge on runs waiting for review. */
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Link, paths } from "../../../lib/router";
import { describeRunState } from "../../../lib/runStatus";
import { formatRelative } from "../../../lib/time";
import type { RunPhase, RunSummary } from "../../../lib/trpc";
import { useRunList } from "../api/list-runs";
import "../runs.css";

/** Each phase's word in the list's class names: `status-waiting` draws the waiting dot, `status-working` the pulsing one. */
const phaseClass: Record<RunPhase, string> = {
  in_progress: "working",
  retrying: "retrying",
  waiting_approval: "waiting",
  failed: "failed",
  completed: "completed",
  cancelled: "cancelled",
};

export function RunList({ activeRunId, onNavigate }: { activeRunId: string | null; onNavigate?: () => void }) {
  const list = useRunList();
  const { runs } = list;
  return (
    <nav className="run-nav" aria-label="Runs">
      <div className="run-nav-head">
        <h2 className="sidebar-title">Runs</h2>
        {runs ? (
          <span className="count" title={list.hasNextPage ? "Runs loaded so far: there are older ones" : undefined}>
            {runs.length}
            {list.hasNextPage ? "+" : ""}
          </span>
        ) : null}
      </div>
      {list.isPending ? (
        <ul className="run-list" aria-busy="true">
          {Array.from({ length: 4 }, (_, i) => (
            <li key={i} className="run-item skeleton-row">
              <span className="skeleton skeleton-line" />
              <span className="skeleton skeleton-line short" />
            </li>
          ))}
        </ul>
      ) : !runs ? (
        <ErrorNotice title="Runs could not be loaded" error={list.error} />
      ) : runs.length === 0 ? (
        <p className="sidebar-empty">No runs yet. Submit a brief to start the first one.</p>
      ) : (
        <>
          <RunItems runs={runs} activeRunId={activeRunId} onNavigate={onNavigate} />
          {list.hasNextPage ? (
            <LoadMore pending={list.isFetchingNextPage} failed={list.isFetchNextPageError} onClick={() => void list.fetchNextPage()} />
          ) : null}
        </>
      )}
    </nav>
  );
}

/** Asks for the next page of older runs; says so when that failed, and lets the person try again. */
export function LoadMore({ pending, failed, onClick }: { pending: boolean; failed: boolean; onClick: () => void }) {
  return (
    <div className="run-list-more">
      {failed ? <p className="muted" role="status">Older runs could not be loaded.</p> : null}
      <button type="button" className="button button-secondary button-small" disabled={pending} aria-busy={pending} onClick={onClick}>
        {pending ? "Loading…" : failed ? "Try again" : "Load older runs"}
      </button>
    </div>
  );
}

export function RunItems({ runs, activeRunId, onNavigate }: { runs: RunSummary[]; activeRunId: string | null; onNavigate?: () => void }) {
  return (
    <ul className="run-list">
      {runs.map((run) => {
        const phase = phaseClass[run.state.phase];
        return (
          <li key={run.run_id}>
            <Link
              to={paths.run(run.run_id)}
              className={`run-item phase-${phase}`}
              aria-current={run.run_id === activeRunId ? "page" : undefined}
              onNavigate={onNavigate}
            >
              <span className="run-item-top">
                <span className="run-domain">{run.domain}</span>
                {run.is_waiting_for_user ? (
                  <span className="badge" title="Waiting for a review">
                    Review
                  </span>
                ) : null}
                <time className="run-time" dateTime={run.created_at}>
                  {formatRelative(run.created_at)}
                </time>
              </span>
              <span className={`run-status status-${phase}`}>
                <span className="status-dot" aria-hidden="true" />
                {describeRunState(run.state, run.current_agent?.name)}
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
