/** One component per kind of conversation message; each renders only what its message holds. */
import { memo, type MouseEvent, type ReactNode, useEffect, useRef, useState } from "react";
import { AgentAvatar } from "../../../components/AgentAvatar";
import { ArtifactView } from "../../../components/artifacts/ArtifactView";
import { ChangesMade } from "../../../components/artifacts/ChangesMade";
import { readEnvelope } from "../../../components/artifacts/shape";
import { CancelledNote, HumanTurn, RetryAction, type RetryControl, Time, TypingDots } from "../../../components/Chat";
import { NodeFailed } from "../../../components/NodeTurns";
import { ReviewedOutput } from "../../../components/review/InlineReview";
import { Link, paths } from "../../../lib/router";
import type { ConversationMessage } from "../../../lib/trpc";
import type { ArtifactNote } from "../utils/annotate";
import { decidedLine } from "../utils/decidedLine";
import { forkPoint } from "../utils/forkPoint";

export type { RetryControl };

type MessageOf<K extends ConversationMessage["kind"]> = Extract<ConversationMessage, { kind: K }>;

/** A version of the brief, by whoever wrote it; `edit`: the "Edit brief" control on the latest one, when she may. */
export const BriefMessage = memo(function BriefMessage({ message, edit }: { message: MessageOf<"brief">; edit?: ReactNode }) {
  const label = message.version > 1 ? `Brief, version ${message.version}` : "Brief";
  const extra = (
    <>
      {message.version > 1 ? <span className="version-badge">v{message.version}</span> : null}
      <span className="tag tag-light">{message.domain}</span>
    </>
  );
  return (
    <HumanTurn label={label} author={<span className="message-author">{message.version > 1 ? "Edited brief" : "Brief"}</span>} extra={extra} actor={message.by} at={message.at}>
      <p className="brief-text">{message.brief}</p>
      {edit}
    </HumanTurn>
  );
});

/** `retry`: the agent has been working longer than the server allows before an operator may retry it (the run's `retry_allowed`). */
export const WorkingMessage = memo(function WorkingMessage({ message, live, retry = null }: { message: MessageOf<"agent_working">; live: boolean; retry?: RetryControl | null }) {
  const text = message.is_feedback ? `revising after your feedback` : `working on the ${message.agent.artifact_type} output`;
  if (!live) {
    return (
      <p className="system-line">
        <span>
          {message.agent.name} agent started{message.is_feedback ? " a revision" : ""} · <Time at={message.at} />
        </span>
      </p>
    );
  }
  return (
    <article className="message message-agent" aria-label={`${message.agent.name} agent is working`}>
      <AgentAvatar agent={message.agent} />
      <div className="bubble bubble-working" role="status">
        <TypingDots />
        <span>
          <strong>{message.agent.name}</strong> is {text}…
        </span>
        {retry ? (
          <>
            <p className="muted small">This is taking longer than expected. Retrying gives up this call and calls the agent again.</p>
            <RetryAction retry={retry} />
          </>
        ) : null}
      </div>
    </article>
  );
});

const reviewLabel: Record<ArtifactNote["review"], string | null> = {
  awaiting_review: "Awaiting your review",
  approved: "Approved",
  changes_requested: "Changes requested",
  unreviewed: null,
};

/** The element id of an output's turn: the step bar and the arrival link to it. */
export const outputElementId = (messageId: string) => `output-${messageId}`;

export interface ArtifactMessageProps {
  message: MessageOf<"artifact">;
  note: ArtifactNote;
  /** Whether the signed-in person may take the review the output waits for (default: yes, as outside the sign-in gate). */
  decidable?: boolean;
  /** The run, so the output is shown for inline review (comments, diff, edit) where the app provides it. */
  runId?: string;
  /** A request to open this output, scroll to it and focus it; each new number is a new request (0: none). */
  reveal?: number;
  /** Where the reviewer's decision on this output is taken: the "Skip to the decision" link moves focus there. */
  onSkipToDecision?: () => void;
}

/**
 * An agent's output. An output that was decided (approved, or sent back and superseded) reads as one line (who
 * decided, when, what changed) until opened, so the page is as long as what still needs reading; the one waiting for
 * review is open, with "Skip to the decision" first in it for a keyboard past its comment buttons.
 */
export const ArtifactMessage = memo(function ArtifactMessage({ message, note, decidable = true, runId, reveal = 0, onSkipToDecision }: ArtifactMessageProps) {
  const folded = note.superseded || note.decided !== undefined;
  const [expanded, setExpanded] = useState(!folded);
  // When it is decided or a newer version arrives, this one folds away, so the reviewer reads what comes next; scroll
  // anchoring keeps what is on screen in place.
  const [wasFolded, setWasFolded] = useState(folded);
  if (folded !== wasFolded) {
    setWasFolded(folded);
    if (folded) setExpanded(false);
  }
  const article = useRef<HTMLElement>(null);
  useEffect(() => {
    if (reveal === 0) return;
    setExpanded(true);
    // After the page's own move to its top (App.tsx), once the opened output is laid out.
    const frame = requestAnimationFrame(() => {
      if (typeof article.current?.scrollIntoView === "function") article.current.scrollIntoView({ block: "start" });
      article.current?.focus({ preventScroll: true });
    });
    return () => cancelAnimationFrame(frame);
  }, [reveal]);
  const envelope = readEnvelope(message.content);
  // Someone who may not decide (an analyst, the brief's submitter, anyone but its assignee) reads that it waits for review, not for theirs.
  const label = note.review === "awaiting_review" && !decidable ? "Awaiting review" : reviewLabel[note.review];
  const bodyId = `${message.id}-body`;
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    onSkipToDecision?.();
  };
  return (
    <article
      ref={article}
      id={outputElementId(message.id)}
      tabIndex={-1}
      className={`message message-agent${note.review === "awaiting_review" ? " is-awaiting" : ""}${expanded ? "" : " is-folded"}`}
      aria-label={`${message.agent.name} output, version ${message.version}`}
    >
      <AgentAvatar agent={message.agent} />
      <div className="bubble bubble-agent">
        <header className="message-meta artifact-head">
          <div className="artifact-title">
            <h2 className="message-author">{message.agent.name}</h2>
            <span className="version-badge" title={`Version ${message.version}`}>
              v{message.version}
            </span>
            <Time at={message.at} />
            {message.edited_by ? <span className="edited-by">Edited by {message.edited_by}</span> : <span className="made-by" title={message.made_by.detail}>{message.made_by.label}</span>}
            {message.copied_from ? (
              <span className="copied-from">
                Copied from <Link to={paths.run(message.copied_from.run_id)}>{message.copied_from.run_id}</Link> v{message.copied_from.version}
              </span>
            ) : null}
            {label || note.superseded ? (
              <span className="artifact-chips">
                {label ? <span className={`review-chip review-${note.review}`}>{label}</span> : null}
                {note.superseded ? <span className="review-chip review-superseded">Superseded</span> : null}
              </span>
            ) : null}
            {!expanded && folded ? <span className="artifact-summary">{decidedLine(note, envelope.changes)}</span> : null}
            {note.review === "awaiting_review" && decidable && onSkipToDecision ? (
              <a className="skip-to-decision" href="#decision" onClick={skip}>
                Skip to the decision
              </a>
            ) : null}
          </div>
          <button
            type="button"
            className="icon-button"
            aria-expanded={expanded}
            aria-controls={bodyId}
            onClick={() => setExpanded((open) => !open)}
            title={expanded ? "Collapse" : "Expand"}
          >
            <svg className={`icon chevron${expanded ? " open" : ""}`} viewBox="0 0 20 20" aria-hidden="true">
              <path d="M6 8l4 4 4-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
            <span className="visually-hidden">{expanded ? "Collapse" : "Expand"} {message.agent.name} version {message.version}</span>
          </button>
        </header>
        <div id={bodyId} hidden={!expanded} className="artifact-body">
          {runId ? (
            <ReviewedOutput
              target={{ runId, nodeId: `review_${message.agent.slug}`, version: message.version }}
              claim={note.isRevision && !message.edited_by ? <ChangesMade changes={envelope.changes} justification={envelope.justification} title={`What changed in version ${message.version}`} label={`What changed in version ${message.version}, as ${message.agent.name} tells it`} /> : null}
            >
              <ArtifactView artifactType={message.artifact_type} artifact={envelope.artifact} />
            </ReviewedOutput>
          ) : (
            <>
              {note.isRevision ? <ChangesMade changes={envelope.changes} justification={envelope.justification} title={`What changed in version ${message.version}`} label={`What changed in version ${message.version}, as ${message.agent.name} tells it`} /> : null}
              <ArtifactView artifactType={message.artifact_type} artifact={envelope.artifact} />
            </>
          )}
          {!note.isRevision && envelope.justification ? (
            <details className="agent-notes">
              <summary>Agent's notes</summary>
              <ChangesMade changes={envelope.changes} justification={envelope.justification} title="Agent's notes" />
            </details>
          ) : null}
        </div>
        {!expanded && !folded ? <p className="muted small collapsed-note">Collapsed.</p> : null}
      </div>
    </article>
  );
});

export const ApprovalMessage = memo(function ApprovalMessage({ message }: { message: MessageOf<"approval"> }) {
  const badge = (
    <span className="decision decision-approved">
      <svg className="icon" viewBox="0 0 20 20" aria-hidden="true">
        <path d="M5 10.5l3.2 3.2L15 7" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      Approved {message.agent.name}
    </span>
  );
  return (
    <HumanTurn
      label={`Approved ${message.agent.name}`} author={badge} actor={message.actor} at={message.at} quiet={!message.comment && !message.decided_in}
      extra={message.decided_in ? <span className="copied-from">decided in <Link to={paths.run(message.decided_in)}>{message.decided_in}</Link></span> : undefined}
    >
      {message.comment ? <blockquote className="feedback-quote">{message.comment}</blockquote> : null}
    </HumanTurn>
  );
});

export const RejectionMessage = memo(function RejectionMessage({ message }: { message: MessageOf<"rejection"> }) {
  return (
    <HumanTurn label={`Requested changes to ${message.agent.name}`} author={<span className="decision decision-rejected">Requested changes to {message.agent.name}</span>} actor={message.actor} at={message.at}>
      <blockquote className="feedback-quote">{message.feedback}</blockquote>
    </HumanTurn>
  );
});

export const ErrorMessage = memo(function ErrorMessage({ message, retry }: { message: MessageOf<"error">; retry: RetryControl | null }) {
  return (
    <NodeFailed
      label={message.agent ? `${message.agent.name} failed` : "Error"}
      author={message.agent ? `${message.agent.name} agent failed` : "Something went wrong"}
      avatar={<AgentAvatar agent={null} />}
      at={message.at}
      error={message.error}
      retry={retry}
    />
  );
});

export function CompletedLine({ message }: { message: MessageOf<"completed"> }) {
  return (
    <p className="system-line system-line-success">
      <span>
        All agents approved · run completed <Time at={message.at} />
      </span>
    </p>
  );
}

/** The run's last word when someone stopped it: who and when on the line, the reason under it. */
export function CancelledLine({ message }: { message: MessageOf<"cancelled"> }) {
  return <CancelledNote at={message.at} actor={message.actor} reason={message.reason} />;
}

/** A fork's first turn: the run it came from, the agent it restarted at, who forked it, and the first feedback she gave. */
export function ForkedMessage({ message }: { message: MessageOf<"forked"> }) {
  const at = forkPoint(message.node_id, message.agent?.name ?? null);
  const author = (
    <span className="message-author">
      Forked from {at} of <Link to={paths.run(message.from_run_id)}>{message.from_run_id}</Link>
    </span>
  );
  return (
    <HumanTurn label={`Forked from ${at} of ${message.from_run_id}`} author={author} actor={message.actor} at={message.at} quiet={!message.feedback}>
      {message.feedback ? <blockquote className="feedback-quote">{message.feedback}</blockquote> : null}
    </HumanTurn>
  );
}

/** A run forked from this one, where it was made. */
export function ForkedIntoLine({ message, runId }: { message: MessageOf<"forked_into">; runId: string }) {
  const at = forkPoint(message.node_id, message.agent?.name ?? null);
  return (
    <p className="system-line">
      <span>
        Forked at {at}
        {message.actor ? ` by ${message.actor}` : ""} into <Link to={paths.run(message.fork_run_id)}>{message.fork_run_id}</Link> ·{" "}
        <Link to={paths.runCompare(runId, message.fork_run_id)} aria-label={`Compare with ${message.fork_run_id}`}>compare</Link> · <Time at={message.at} />
      </span>
    </p>
  );
}
