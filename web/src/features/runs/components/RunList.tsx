/** The sidebar's runs: newest first, a page at a time, with domain, what each waits for, and a badge on runs waiting for my review. */
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Link, paths } from "../../../lib/router";
import { describeRunState } from "../../../lib/runStatus";
import { formatRelative } from "../../../lib/time";
import { roleAllows, roles, useSession } from "../../../lib/session";
import type { Role, RunPhase, RunSummary } from "../../../lib/trpc";
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

/** Whom a review waits for, as the sidebar names them: "you", the assigned person, or the role ("a reviewer"). */
function waitingForWhom(run: RunSummary, meId: string | null | undefined): string {
  const assignee = run.waiting_for;
  if (!assignee) return "a reviewer";
  if (assignee.kind === "account") return meId && assignee.id === meId ? "you" : (assignee.name ?? "someone");
  return `${/^[aeiou]/.test(assignee.role) ? "an" : "a"} ${assignee.role}`;
}

/**
 * What the run waits for, in words: "Waiting for Rita Ramos · Requirements", "Requirements agent drafting", ... Never
 * "your review" unless the review is the signed-in person's to take.
 */
export function runStatusLine(run: RunSummary, meId: string | null | undefined): string {
  const agent = run.current_agent?.name ?? null;
  const { phase } = run.state;
  if (phase === "waiting_approval") return `Waiting for ${waitingForWhom(run, meId)}${agent ? ` · ${agent}` : ""}`;
  if (agent && phase === "in_progress") return `${agent} agent drafting`;
  if (agent && phase === "retrying") return `${agent} agent revising`;
  return describeRunState(run.state, agent);
}

/** Whether the review a run waits for is the signed-in person's to take: assigned to her, or to her role on a run she did not submit. */
function reviewIsMine(run: RunSummary, me: { id: string | null; role: Role } | null | undefined): boolean {
  const assignee = run.waiting_for;
  if (!run.is_waiting_for_user) return false;
  if (me === undefined) return true; // outside the sign-in gate nothing is hidden
  if (!assignee || !me) return false;
  if (assignee.kind === "account") return assignee.id === me.id;
  const submittedByMe = me.id !== null && run.submitted_by?.id === me.id;
  return roles.includes(assignee.role as Role) && roleAllows(me.role, assignee.role as Role) && !submittedByMe;
}

export function RunItems({ runs, activeRunId, onNavigate }: { runs: RunSummary[]; activeRunId: string | null; onNavigate?: () => void }) {
  const me = useSession();
  return (
    <ul className="run-list">
      {runs.map((run) => {
        const phase = phaseClass[run.state.phase];
        const mine = reviewIsMine(run, me);
        return (
          <li key={run.run_id}>
            <Link
              to={paths.run(run.run_id)}
              className={`run-item phase-${phase}`}
              aria-current={run.run_id === activeRunId ? "page" : undefined}
              onNavigate={onNavigate}
            >
              <span className="run-item-top">
                <span className="run-domain" title={run.domain}>
                  {run.domain}
                </span>
                {mine ? (
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
                {runStatusLine(run, me?.id)}
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
