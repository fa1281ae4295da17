/**
 * Pieces every run told as a conversation shares, whichever front door the run belongs to: a turn's time, a person's
 * turn, the "is working" dots, a line across the conversation (a person's retry or resumption, the run's outcome), a failure's Retry, the cancellation's
 * closing note, a run page's title row, the tabs between a run's conversation and its graph, and the page itself.
 * Their stylesheet holds the conversation's page, turns, bubbles, system lines and inline composer.
 */
import type { ReactNode, RefObject } from "react";
import { errorMessage } from "../lib/errors";
import { Link } from "../lib/router";
import { useCan } from "../lib/session";
import { formatDateTime, formatTime } from "../lib/time";
import { useFollowNewMessages } from "../lib/useFollowNewMessages";
import { PersonAvatar } from "./AgentAvatar";
import { ErrorNotice } from "./ErrorNotice";
import { StopIcon } from "./icons";
import { Spinner } from "./Spinner";
import "./Chat.css";

/** When a turn happened: the time of day, the full date and time on hover. */
export function Time({ at }: { at: string }) {
  return (
    <time dateTime={at} title={formatDateTime(at)}>
      {formatTime(at)}
    </time>
  );
}

/**
 * A person's turn (what they started the run with, a decision, their words): a bubble on the right with what it is
 * (`author`: a name, or a decision's badge), by whom and when, what they wrote (`children`), and their avatar.
 * `extra`: more of the header (a version badge, a tag); `quiet`: a decision with no words, drawn smaller.
 */
export function HumanTurn({ label, author, extra, actor, actorWord = "by", at, className, quiet = false, children }: {
  label: string;
  author: ReactNode;
  extra?: ReactNode;
  actor: string | null | undefined;
  /** How the person is named: "by" someone (the default), "from" someone (a run's input). */
  actorWord?: string;
  at: string;
  className?: string;
  quiet?: boolean;
  children?: ReactNode;
}) {
  return (
    <article className="message message-human" aria-label={label}>
      <div className={["bubble", "bubble-human", quiet ? "bubble-decision" : "", className ?? ""].filter(Boolean).join(" ")}>
        <header className="message-meta">
          {author}
          {extra}
          {actor ? <span className="muted">{actorWord} {actor}</span> : null}
          <Time at={at} />
        </header>
        {children}
      </div>
      <PersonAvatar name={actor} />
    </article>
  );
}

export function TypingDots() {
  return (
    <span className="typing" aria-hidden="true">
      <span />
      <span />
      <span />
    </span>
  );
}

/** Past this a text is cut, so one huge output does not stall the page; the graph view has the whole of it. */
export const shownChars = 50_000;
export const cutLongText = (text: string) => (text.length > shownChars ? `${text.slice(0, shownChars)}\n…` : text);

/** A line across the conversation (a retry, a resumption, the outcome): what happened, by whom, and when. */
export function SystemLine({ at, actor, tone, children }: { at: string; actor: string | null; tone?: "success" | "failed" | "cancelled"; children: ReactNode }) {
  return (
    <p className={`system-line${tone ? ` system-line-${tone}` : ""}`}>
      <span>
        {children}
        {actor ? ` by ${actor}` : ""} · <Time at={at} />
      </span>
    </p>
  );
}

/** A person retried a node (or step) `name`. */
export function RetriedLine({ name, at, actor }: { name: string; at: string; actor: string | null }) {
  return (
    <SystemLine at={at} actor={actor}>
      {name} retried
    </SystemLine>
  );
}

/** A person resumed the run. */
export function ResumedLine({ at, actor }: { at: string; actor: string | null }) {
  return (
    <SystemLine at={at} actor={actor}>
      Run resumed
    </SystemLine>
  );
}

const outcomes: Record<string, { text: string; tone: "success" | "failed" | "cancelled" }> = {
  completed: { text: "Run completed", tone: "success" },
  failed: { text: "Run failed", tone: "failed" },
  cancelled: { text: "Run ended: cancelled", tone: "cancelled" },
};

/** How the run ended (`outcome`: completed, failed, cancelled), as a line across the conversation. */
export function OutcomeLine({ at, actor, outcome }: { at: string; actor: string | null; outcome: string | null }) {
  const { text, tone } = outcomes[outcome ?? ""] ?? { text: `Run ended: ${outcome ?? "unknown"}`, tone: "cancelled" };
  return (
    <SystemLine at={at} actor={actor} tone={tone}>
      {text}
    </SystemLine>
  );
}

export interface RetryControl {
  pending: boolean;
  error: unknown;
  onRetry(): void;
}

/** "Retry" under a failure, and why the server refused it; only operators retry, and anyone else reads so. */
export function RetryAction({ retry }: { retry: RetryControl }) {
  if (!useCan("operator")) return <p className="muted small waiting-note">An operator can retry it.</p>;
  return (
    <div className="error-actions">
      <button type="button" className="button button-danger" onClick={retry.onRetry} disabled={retry.pending} aria-busy={retry.pending}>
        {retry.pending ? <Spinner /> : null}
        Retry
      </button>
      {retry.error && !retry.pending ? (
        <span className="hint hint-error" role="alert">
          {errorMessage(retry.error)}
        </span>
      ) : null}
    </div>
  );
}

/** A run's last word when someone (or something) stopped it: who and when on the line, the reason under it. */
export function CancelledNote({ at, actor, reason }: { at: string; actor: string | null; reason: string | null }) {
  return (
    <article className="cancelled-note" aria-label="Run cancelled">
      <p className="system-line system-line-cancelled">
        <span>
          <StopIcon />
          Run cancelled{actor ? ` by ${actor}` : ""} · <Time at={at} />
        </span>
      </p>
      {reason ? (
        <p className="cancel-reason">
          <span className="cancel-reason-label">Reason</span> {reason}
        </p>
      ) : null}
    </article>
  );
}

/** A run page's title, then its status and actions; focus lands on the title once "Cancel run" is gone. */
export function RunTitleRow({ title, titleRef, children }: { title: ReactNode; titleRef: RefObject<HTMLHeadingElement | null>; children: ReactNode }) {
  return (
    <div className="run-title-row">
      <h1 className="run-title" ref={titleRef} tabIndex={-1}>
        {title}
      </h1>
      {children}
    </div>
  );
}

/** The switch between a run's conversation and its flow graph. */
export function RunTabs({ conversation, graph, view }: { conversation: string; graph: string; view: "conversation" | "graph" }) {
  return (
    <nav className="tabs" aria-label="Run views">
      <Link to={conversation} className="tab" aria-current={view === "conversation" ? "page" : undefined}>
        Conversation
      </Link>
      <Link to={graph} className="tab" aria-current={view === "graph" ? "page" : undefined}>
        Flow graph
      </Link>
    </nav>
  );
}

/**
 * A run's page as a conversation: its header, a note when the latest state could not be fetched (the last good one
 * stays on screen), and the turns, followed as new ones arrive while the reader is at the end.
 */
export function RunConversation({ className, header, refreshError, count, children }: { className: string; header: ReactNode; refreshError: unknown; count: number; children: ReactNode }) {
  const turnsRef = useFollowNewMessages(count);
  return (
    <div className={`conversation ${className}`}>
      {header}
      {refreshError ? <ErrorNotice title="Updates paused: the latest state could not be fetched" error={refreshError} /> : null}
      <div className="messages" ref={turnsRef} role="log" aria-label="Conversation" aria-live="polite">
        {children}
      </div>
    </div>
  );
}
