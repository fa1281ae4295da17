/** The sidebar's runs: newest first, with domain, status and a badge on runs waiting for review. */
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
  const runs = useRunList();
  return (
    <nav className="run-nav" aria-label="Runs">
      <div className="run-nav-head">
        <h2 className="sidebar-title">Runs</h2>
        {runs.data ? <span className="count">{runs.data.length}</span> : null}
      </div>
      {runs.isPending ? (
        <ul className="run-list" aria-busy="true">
          {Array.from({ length: 4 }, (_, i) => (
            <li key={i} className="run-item skeleton-row">
              <span className="skeleton skeleton-line" />
              <span className="skeleton skeleton-line short" />
            </li>
          ))}
        </ul>
      ) : runs.isError && !runs.data ? (
        <ErrorNotice title="Runs could not be loaded" error={runs.error} />
      ) : runs.data.length === 0 ? (
        <p className="sidebar-empty">No runs yet. Submit a brief to start the first one.</p>
      ) : (
        <RunItems runs={runs.data} activeRunId={activeRunId} onNavigate={onNavigate} />
      )}
    </nav>
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
                  <span className="badge" title="Waiting for your review">
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
