/**
 * The reviewer's inbox: every decision a run waits for, whichever front door owns the run (a pipeline output, a
 * workflow's approval or question, a flow's gate), with what it asks, whose run it is, since when it waits and who
 * may take it. One click opens the page where it is decided. Filters by view, and a search over titles and domains.
 */
import "../inbox.css";
import { useEffect, useId, useState } from "react";
import { EmptyState } from "../../../components/EmptyState";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Spinner } from "../../../components/Spinner";
import { Link, navigate } from "../../../lib/router";
import { useCan, useMe } from "../../../lib/session";
import { formatDateTime, formatRelative } from "../../../lib/time";
import type { Decision, DecisionView } from "../../../lib/trpc";
import { useClaimDecision, useDecision, useDecisions } from "../api/decisions";
import { KIND_LABELS, OUTCOME_LABELS, VIEWS, approvalsText, assigneeText, decisionPage, fromReviews, isOverdue, linkedView } from "../utils/decisions";
import { UndecidableNotice } from "../../../components/Undecidable";
import { AssignDecision } from "./AssignDecision";
import { useNotificationSetting } from "../api/notifications";
import { turnNotificationsOff, turnNotificationsOn } from "../utils/notifications";

export function InboxPage() {
  useOpenLinkedDecision();
  const reviewer = useCan("reviewer");
  const operator = useCan("operator");
  // A link may name the view (the landing sends operators to `?view=undecidable`); drawn on the server there is no address.
  const [view, setView] = useState<DecisionView>(() => (typeof window === "undefined" ? undefined : linkedView(window.location.search)) ?? (reviewer ? "role" : "all"));
  const [q, setQ] = useState("");
  const decisions = useDecisions(view, q);
  const searchId = useId();
  return (
    <div className="page-pad inbox">
      <header className="run-header">
        <h1 className="run-title">Reviews</h1>
        <p className="muted small">
          {reviewer
            ? "Everything waiting for a person: outputs to review, approvals, questions and gates, from every run."
            : "What runs wait for. Reviewers decide; you can follow each one from here."}
        </p>
        {reviewer ? <NotificationSwitch /> : null}
      </header>
      <div className="inbox-filters">
        <div className="inbox-views" role="group" aria-label="Show">
          {VIEWS.filter((option) => operator || option.view !== "undecidable").map((option) => (
            <button key={option.view} type="button" className="chip-button" aria-pressed={view === option.view} onClick={() => setView(option.view)}>
              {option.label}
            </button>
          ))}
        </div>
        <div className="inbox-search">
          <label htmlFor={searchId} className="visually-hidden">
            Search reviews
          </label>
          <input id={searchId} className="input" type="search" placeholder="Search by title or domain" value={q} onChange={(event) => setQ(event.target.value)} />
        </div>
      </div>
      {decisions.isPending ? (
        <p className="muted">
          <Spinner label="Loading reviews" /> Loading reviews…
        </p>
      ) : decisions.isError && !decisions.data ? (
        <ErrorNotice title="The reviews could not be loaded" error={decisions.error} />
      ) : decisions.data.items.length === 0 ? (
        <EmptyState title={q.trim() ? "Nothing matches" : view === "decided" ? "Nothing decided yet" : view === "undecidable" ? "Every decision has someone who can take it" : "Nothing is waiting"}>
          {q.trim() ? "Try other words, or another view." : "Decisions appear here as soon as a run waits for a person."}
        </EmptyState>
      ) : (
        <ul className="inbox-list" aria-label="Reviews">
          {decisions.data.items.map((decision) => (
            <DecisionItem key={decision.id} decision={decision} />
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * "Turn on notifications": the browser asks its permission only when the person clicks it, never on load. Once on,
 * each decision newly waiting for them is a notification while the app is open in a tab.
 */
function NotificationSwitch() {
  const setting = useNotificationSetting();
  const [asking, setAsking] = useState(false);
  if (setting === "unsupported") return null;
  if (setting === "denied") {
    return <p className="inbox-notifications muted small">Notifications are blocked for this site in the browser's settings.</p>;
  }
  if (setting === "on") {
    return (
      <p className="inbox-notifications muted small">
        Notifications are on: each new decision waiting for you shows while Stitch is open.{" "}
        <button type="button" className="button button-secondary button-small" onClick={turnNotificationsOff}>
          Turn off notifications
        </button>
      </p>
    );
  }
  return (
    <p className="inbox-notifications muted small">
      <button
        type="button"
        className="button button-secondary button-small"
        disabled={asking}
        aria-busy={asking}
        onClick={() => {
          setAsking(true);
          void turnNotificationsOn().finally(() => setAsking(false));
        }}
      >
        Turn on notifications
      </button>{" "}
      to hear of each new decision waiting for you while Stitch is open.
    </p>
  );
}

function DecisionItem({ decision }: { decision: Decision }) {
  const open = decision.state === "open";
  return (
    <li className={`inbox-item${open ? "" : " inbox-item-closed"}${isOverdue(decision) ? " inbox-item-overdue" : ""}`}>
      <DecisionSummary decision={decision} />
      {open ? (
        <div className="inbox-item-actions">
          <ClaimAction decision={decision} />
          <AssignDecision decision={decision} />
        </div>
      ) : null}
    </li>
  );
}

/** Claim an open decision for a role I have, or release the one I claimed; a refusal (someone was faster) says who has it. */
function ClaimAction({ decision }: { decision: Decision }) {
  const reviewer = useCan("reviewer");
  const me = useMe();
  const { claim, release } = useClaimDecision();
  if (!reviewer || !me?.id) return null;
  const mine = decision.assignee.kind === "account" && decision.assignee.id === me.id;
  if (decision.assignee.kind === "account" && !mine) return null;
  const action = mine ? release : claim;
  return (
    <div className="inbox-actions">
      <button type="button" className="button button-secondary button-small" disabled={action.isPending} aria-busy={action.isPending}
        onClick={() => action.mutate({ decisionId: decision.id })}>
        {mine ? "Release to the team" : "Claim it"}
        <span className="visually-hidden">: {decision.title}</span>
      </button>
      {action.error ? <p className="hint hint-error" role="alert">{action.error.message}</p> : null}
    </div>
  );
}

function DecisionSummary({ decision }: { decision: Decision }) {
  const open = decision.state === "open";
  return (
    <>
      <div className="inbox-item-head">
        <span className={`inbox-kind kind-${decision.kind}`}>{KIND_LABELS[decision.kind]}</span>
        <Link to={decisionPage(decision)} from={fromReviews} className="inbox-title">
          {decision.title}
        </Link>
      </div>
      <p className="inbox-meta muted small">
        {decision.started_by?.name ? <>Started by {decision.started_by.name} · </> : null}
        {open ? (
          <>
            Waiting since <time dateTime={decision.waiting_since} title={formatDateTime(decision.waiting_since)}>{formatRelative(decision.waiting_since)}</time> · for{" "}
            {assigneeText(decision.assignee)}
          </>
        ) : (
          <>
            {decision.outcome ? OUTCOME_LABELS[decision.outcome] : "Closed"}
            {decision.decided_by ? ` by ${decision.decided_by}` : ""}
            {decision.decided_at ? <> · <time dateTime={decision.decided_at}>{formatRelative(decision.decided_at)}</time></> : null}
          </>
        )}
        {decision.due_at ? (
          <>
            {" "}
            · {isOverdue(decision) ? <strong className="inbox-overdue">overdue since</strong> : "due"} <time dateTime={decision.due_at}>{formatDateTime(decision.due_at)}</time>
          </>
        ) : null}
        {approvalsText(decision) ? <> · {approvalsText(decision)}</> : null}
      </p>
      {open ? <UndecidableNotice decision={decision} /> : null}
    </>
  );
}

/**
 * `/app/reviews?decision=<id>` (the link in a notification's email or webhook): opens the page where that decision is
 * taken, in place of the inbox; an unknown id leaves the inbox as it is.
 */
function useOpenLinkedDecision(): void {
  // Drawn on the server (web/src/serverRender.tsx) there is no address to read: the app's own render reads it.
  const [linked] = useState(() => (typeof window === "undefined" ? null : new URLSearchParams(window.location.search).get("decision")));
  const decision = useDecision(linked);
  useEffect(() => {
    if (decision.data) navigate(decisionPage(decision.data), { replace: true, from: fromReviews });
  }, [decision.data]);
}
