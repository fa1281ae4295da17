/**
 * The pipeline's turns drawn its own way (the rest as every door draws them, `Conversation`): the brief, an agent at
 * work, its output for inline review, an approval, a failure, the run completed, and forks. Each renders only what
 * its turn holds, and the agent it is about (the conversation's `agents`, `agentOf`).
 */
import { memo, type MouseEvent, type ReactNode, useEffect, useRef, useState } from "react";
import { AgentAvatar } from "../../../components/AgentAvatar";
import { ArtifactView } from "../../../components/artifacts/ArtifactView";
import { ChangesMade } from "../../../components/artifacts/ChangesMade";
import { readEnvelope } from "../../../components/artifacts/shape";
import { HumanTurn, RetryAction, type RetryControl, Time, TypingDots } from "../../../components/Chat";
import { NodeFailed } from "../../../components/NodeTurns";
import { ReviewedOutput } from "../../../components/review/InlineReview";
import { Link, paths } from "../../../lib/router";
import type { AgentRef, ConversationTurn } from "../../../lib/trpc";
import { reviewNodeId } from "../utils/agentOf";
import type { ArtifactNote } from "../utils/annotate";
import { decidedLine } from "../utils/decidedLine";
import { forkPoint } from "../utils/forkPoint";

export type { RetryControl };

export type TurnOf<K extends ConversationTurn["kind"]> = Extract<ConversationTurn, { kind: K }>;
type SystemEvent = TurnOf<"system">["body"]["event"];
/** A system turn of one event. */
export type SystemTurnOf<E extends SystemEvent> = TurnOf<"system"> & { body: Extract<TurnOf<"system">["body"], { event: E }> };

export const isEvent = <E extends SystemEvent>(turn: TurnOf<"system">, event: E): turn is SystemTurnOf<E> => turn.body.event === event;

/** A version of the brief, by whoever wrote it; `edit`: the "Edit brief" control on the latest one, when she may. */
export const BriefMessage = memo(function BriefMessage({ turn, edit }: { turn: TurnOf<"input">; edit?: ReactNode }) {
  const { version, domain } = turn.body;
  const label = version > 1 ? `Brief, version ${version}` : "Brief";
  const extra = (
    <>
      {version > 1 ? <span className="version-badge">v{version}</span> : null}
      <span className="tag tag-light">{domain}</span>
    </>
  );
  return (
    <HumanTurn label={label} author={<span className="message-author">{version > 1 ? "Edited brief" : "Brief"}</span>} extra={extra} actor={turn.who} at={turn.at}>
      <p className="brief-text">{turn.body.value}</p>
      {edit}
    </HumanTurn>
  );
});

/** `retry`: the agent has been working longer than the server allows before an operator may retry it (the run's `retry_allowed`). */
export const WorkingMessage = memo(function WorkingMessage({ turn, agent, live, retry = null }: { turn: TurnOf<"started">; agent: AgentRef; live: boolean; retry?: RetryControl | null }) {
  const text = turn.body.revising ? `revising after your feedback` : `working on the ${agent.artifact_type} output`;
  if (!live) {
    return (
      <p className="system-line">
        <span>
          {agent.name} agent started{turn.body.revising ? " a revision" : ""} · <Time at={turn.at} />
        </span>
      </p>
    );
  }
  return (
    <article className="message message-agent" aria-label={`${agent.name} agent is working`}>
      <AgentAvatar agent={agent} />
      <div className="bubble bubble-working" role="status">
        <TypingDots />
        <span>
          <strong>{agent.name}</strong> is {text}…
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
export const outputElementId = (turnId: string) => `output-${turnId}`;

export interface ArtifactMessageProps {
  turn: TurnOf<"output">;
  agent: AgentRef;
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
export const ArtifactMessage = memo(function ArtifactMessage({ turn, agent, note, decidable = true, runId, reveal = 0, onSkipToDecision }: ArtifactMessageProps) {
  const { version, edited_by, made_by, copied_from } = turn.body;
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
  const envelope = readEnvelope(turn.body.value);
  // Someone who may not decide (an analyst, the brief's submitter, anyone but its assignee) reads that it waits for review, not for theirs.
  const label = note.review === "awaiting_review" && !decidable ? "Awaiting review" : reviewLabel[note.review];
  const bodyId = `${turn.id}-body`;
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    onSkipToDecision?.();
  };
  return (
    <article
      ref={article}
      id={outputElementId(turn.id)}
      tabIndex={-1}
      className={`message message-agent${note.review === "awaiting_review" ? " is-awaiting" : ""}${expanded ? "" : " is-folded"}`}
      aria-label={`${agent.name} output, version ${version}`}
    >
      <AgentAvatar agent={agent} />
      <div className="bubble bubble-agent">
        <header className="message-meta artifact-head">
          <div className="artifact-title">
            <h2 className="message-author">{agent.name}</h2>
            <span className="version-badge" title={`Version ${version}`}>
              v{version}
            </span>
            <Time at={turn.at} />
            {edited_by ? <span className="edited-by">Edited by {edited_by}</span> : <span className="made-by" title={made_by.detail}>{made_by.label}</span>}
            {copied_from ? (
              <span className="copied-from">
                Copied from <Link to={paths.run(copied_from.run_id)}>{copied_from.run_id}</Link> v{copied_from.version}
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
            <span className="visually-hidden">{expanded ? "Collapse" : "Expand"} {agent.name} version {version}</span>
          </button>
        </header>
        <div id={bodyId} hidden={!expanded} className="artifact-body">
          {runId ? (
            <ReviewedOutput
              target={{ runId, nodeId: reviewNodeId(agent.slug), version }}
              claim={note.isRevision && !edited_by ? <ChangesMade changes={envelope.changes} justification={envelope.justification} title={`What changed in version ${version}`} label={`What changed in version ${version}, as ${agent.name} tells it`} /> : null}
            >
              <ArtifactView artifactType={turn.body.artifact_type} artifact={envelope.artifact} />
            </ReviewedOutput>
          ) : (
            <>
              {note.isRevision ? <ChangesMade changes={envelope.changes} justification={envelope.justification} title={`What changed in version ${version}`} label={`What changed in version ${version}, as ${agent.name} tells it`} /> : null}
              <ArtifactView artifactType={turn.body.artifact_type} artifact={envelope.artifact} />
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

/** An approval, with the reviewer's comment quoted, and for one a fork copied, the run it was decided in. */
export const ApprovalMessage = memo(function ApprovalMessage({ turn }: { turn: TurnOf<"decided"> }) {
  const name = turn.node?.label ?? "";
  const { text, decided_in } = turn.body;
  const badge = (
    <span className="decision decision-approved">
      <svg className="icon" viewBox="0 0 20 20" aria-hidden="true">
        <path d="M5 10.5l3.2 3.2L15 7" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      Approved {name}
    </span>
  );
  return (
    <HumanTurn
      label={`Approved ${name}`} author={badge} actor={turn.who} at={turn.at} quiet={!text && !decided_in}
      extra={decided_in ? <span className="copied-from">decided in <Link to={paths.run(decided_in)}>{decided_in}</Link></span> : undefined}
    >
      {text ? <blockquote className="feedback-quote">{text}</blockquote> : null}
    </HumanTurn>
  );
});

/** An agent's failure (or the run's, naming no agent), with Retry while it is the failure the run is stuck on. */
export const ErrorMessage = memo(function ErrorMessage({ turn, retry }: { turn: TurnOf<"failed">; retry: RetryControl | null }) {
  const name = turn.node?.label;
  return (
    <NodeFailed
      label={name ? `${name} failed` : "Error"}
      author={name ? `${name} agent failed` : "Something went wrong"}
      avatar={<AgentAvatar agent={null} />}
      at={turn.at}
      error={turn.body.error}
      retry={retry}
    />
  );
});

export function CompletedLine({ turn }: { turn: TurnOf<"outcome"> }) {
  return (
    <p className="system-line system-line-success">
      <span>
        All agents approved · run completed <Time at={turn.at} />
      </span>
    </p>
  );
}

/** A fork's first turn: the run it came from, the agent it restarted at, who forked it, and the first feedback she gave. */
export function ForkedMessage({ turn, agent }: { turn: SystemTurnOf<"forked">; agent: AgentRef | null }) {
  const { from_run_id, feedback } = turn.body;
  const at = forkPoint(turn.node?.id ?? "", agent?.name ?? null);
  const author = (
    <span className="message-author">
      Forked from {at} of <Link to={paths.run(from_run_id)}>{from_run_id}</Link>
    </span>
  );
  return (
    <HumanTurn label={`Forked from ${at} of ${from_run_id}`} author={author} actor={turn.who} at={turn.at} quiet={!feedback}>
      {feedback ? <blockquote className="feedback-quote">{feedback}</blockquote> : null}
    </HumanTurn>
  );
}

/** A run forked from this one, where it was made. */
export function ForkedIntoLine({ turn, agent, runId }: { turn: SystemTurnOf<"forked_into">; agent: AgentRef | null; runId: string }) {
  const at = forkPoint(turn.node?.id ?? "", agent?.name ?? null);
  const fork = turn.body.fork_run_id;
  return (
    <p className="system-line">
      <span>
        Forked at {at}
        {turn.who ? ` by ${turn.who}` : ""} into <Link to={paths.run(fork)}>{fork}</Link> ·{" "}
        <Link to={paths.runCompare(runId, fork)} aria-label={`Compare with ${fork}`}>compare</Link> · <Time at={turn.at} />
      </span>
    </p>
  );
}
