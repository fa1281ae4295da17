/**
 * A node's turns as every run told as a conversation shows them, whichever front door's node it is: it started (live,
 * the "is working" bubble; once it answered, a line), it was skipped (folded, with its reason), and it failed (with
 * Retry while it can be retried, or the note that it is tried again by itself). Each door names its node and draws
 * its avatar.
 */
import type { ReactNode } from "react";
import { type RetryControl, RetryAction, Time, TypingDots } from "./Chat";

/** A node that started: `live` while it works (or revises after a request for changes), else a line across the conversation. */
export function NodeStarted({ name, detail = "", line, avatar, verb, revising, attempt, at, live }: {
  /** The node as the live bubble names it, and `detail` after that name: "(prompt) ". */
  name: string;
  detail?: string;
  /** The node as the line names it once it answered. */
  line: string;
  avatar: ReactNode;
  /** What it is doing while it works: "working", "running". */
  verb: string;
  revising: boolean;
  attempt: number;
  at: string;
  live: boolean;
}) {
  if (live) {
    const doing = revising ? "revising after the feedback" : verb;
    return (
      <article className="message message-agent" aria-label={`${name} is ${doing}`}>
        {avatar}
        <div className="bubble bubble-working" role="status">
          <TypingDots />
          <span>
            <strong>{name}</strong> {detail}is {doing}
            {attempt > 1 ? `, attempt ${attempt}` : ""}…
          </span>
        </div>
      </article>
    );
  }
  return (
    <p className="system-line">
      <span>
        {line} {revising ? "started a revision" : "started"}
        {attempt > 1 ? ` · attempt ${attempt}` : ""} · <Time at={at} />
      </span>
    </p>
  );
}

/** A node skipped, folded: its reason under it. */
export function NodeSkipped({ name, at, reason }: { name: string; at: string; reason: string }) {
  return (
    <details className="turn-skipped turn-not-run">
      <summary>
        {name} skipped · <Time at={at} />
      </summary>
      <p className="turn-skipped-reason">
        <span className="cancel-reason-label">Reason</span> {reason}
      </p>
    </details>
  );
}

/** A node's failure, with Retry while it can be retried, or the note that it is tried again by itself (`retrying`). */
export function NodeFailed({ label, author, avatar, retrying = false, attempt, at, error, retry }: {
  /** The bubble's name for assistive technology ("Review failed"), and its header ("Review failed", "Something went wrong"). */
  label: string;
  author: string;
  avatar: ReactNode;
  retrying?: boolean;
  /** The attempt that failed, where the door counts them. */
  attempt?: number;
  at: string;
  error: string;
  retry: RetryControl | null;
}) {
  return (
    <article className="message message-agent" aria-label={label}>
      {avatar}
      <div className={`bubble ${retrying ? "bubble-retrying" : "bubble-error"}`} role={retry ? "alert" : undefined}>
        <header className="message-meta">
          <span className="message-author">
            {author}
            {retrying ? "; it is tried again automatically" : ""}
          </span>
          {attempt !== undefined && attempt > 1 ? <span className="version-badge">attempt {attempt}</span> : null}
          <Time at={at} />
        </header>
        <p className="error-text">{error}</p>
        {retry ? <RetryAction retry={retry} /> : null}
      </div>
    </article>
  );
}

/**
 * A node's bubble (its output, its wait for a person): its avatar, its name as the heading with `tags` beside it
 * (a kind, a badge, the waiting chip) and the time, then `children` in a body of class `body`.
 */
export function NodeMessage({ label, avatar, name, tags, at, awaiting = false, className, card, body, children }: {
  label: string;
  avatar: ReactNode;
  name: string;
  tags?: ReactNode;
  /** When it happened; left out where the bubble is no moment of its own. */
  at?: string;
  /** A wait that can be answered now. */
  awaiting?: boolean;
  /** More of the article's class, and the bubble's ("turn-card"). */
  className?: string;
  card?: string;
  body: string;
  children: ReactNode;
}) {
  return (
    <article className={["message message-agent", className, awaiting ? "is-awaiting" : ""].filter(Boolean).join(" ")} aria-label={label}>
      {avatar}
      <div className={`bubble bubble-agent${card ? ` ${card}` : ""}`}>
        <header className="message-meta turn-head">
          <h2 className="message-author">{name}</h2>
          {tags}
          {at !== undefined ? <Time at={at} /> : null}
        </header>
        <div className={body}>{children}</div>
      </div>
    </article>
  );
}
