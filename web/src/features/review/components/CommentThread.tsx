/**
 * One thread on a part: its first comment with who wrote it and when, what it quotes, the replies, and where it
 * stands: resolved, outdated (its part is gone), its part changed in the version under review, sent to the agent with
 * a version. Anyone who reads the run may reply; its author or a reviewer resolves and re-opens it. The same thread
 * in every conversation.
 */
import { useState } from "react";
import { Time } from "../../../components/Chat";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Spinner } from "../../../components/Spinner";
import type { ReviewComment } from "../../../lib/trpc";
import { useReopenComment, useResolveComment } from "../api/review";
import type { Thread } from "../utils/threads";
import { CommentBox } from "./CommentBox";
import { mayResolve, useReviewSession } from "./ReviewSession";

function Comment({ comment }: { comment: ReviewComment }) {
  return (
    <div className="comment">
      <p className="comment-meta">
        <strong>{comment.author.name}</strong> · <Time at={comment.created_at} />
      </p>
      <p className="comment-text">{comment.text}</p>
    </div>
  );
}

function ThreadTags({ root, version }: { root: ReviewComment; version: number }) {
  const tags = [
    root.resolved ? { tone: "resolved", text: root.resolved_by ? `Resolved by ${root.resolved_by}` : "Resolved" } : null,
    root.outdated ? { tone: "outdated", text: "Outdated" } : null,
    root.changed ? { tone: "changed", text: `Changed in v${version}` } : null,
    root.sent_with_version !== null ? { tone: "sent", text: `Sent with v${root.sent_with_version}` } : null,
    root.version !== version ? { tone: "version", text: `On v${root.version}` } : null,
  ].filter((tag) => tag !== null);
  if (tags.length === 0) return null;
  return (
    <span className="thread-tags">
      {tags.map((tag) => (
        <span key={tag.tone} className={`thread-tag thread-tag-${tag.tone}`}>
          {tag.text}
        </span>
      ))}
    </span>
  );
}

/** `showPart`: name the part above the thread (in the margin and among outdated threads, away from the part). */
export function CommentThread({ thread, showPart = false }: { thread: Thread; showPart?: boolean }) {
  const session = useReviewSession();
  const [replying, setReplying] = useState(false);
  const resolve = useResolveComment();
  const reopen = useReopenComment();
  const { root } = thread;
  const toggle = root.resolved ? reopen : resolve;
  const quoteDiffers = root.quote !== "" && !root.quote.startsWith(root.label) && root.quote.length < 300;
  return (
    <article className={`comment-thread${root.resolved ? " is-resolved" : ""}`} aria-label={`Comment by ${root.author.name} on ${root.label}`}>
      <header className="thread-head">
        {showPart ? <span className="thread-part">{root.label}</span> : null}
        <ThreadTags root={root} version={session.version} />
      </header>
      {quoteDiffers ? <blockquote className="comment-quote">{root.quote}</blockquote> : null}
      <Comment comment={root} />
      {thread.replies.map((reply) => (
        <Comment key={reply.id} comment={reply} />
      ))}
      {replying ? (
        <CommentBox decisionId={session.decisionId} target={{ anchor: root.anchor, label: root.label }} replyTo={root.id} onDone={() => setReplying(false)} />
      ) : (
        <div className="thread-actions">
          <button type="button" className="button button-ghost button-small" onClick={() => setReplying(true)} aria-label={`Reply to ${root.author.name} on ${root.label}`}>
            Reply
          </button>
          {mayResolve(thread, session.me) ? (
            <button
              type="button"
              className="button button-ghost button-small"
              disabled={toggle.isPending}
              aria-busy={toggle.isPending}
              aria-label={`${root.resolved ? "Re-open" : "Resolve"} ${root.author.name}'s comment on ${root.label}`}
              onClick={() => toggle.mutate({ commentId: root.id })}
            >
              {toggle.isPending ? <Spinner /> : null}
              {root.resolved ? "Re-open" : "Resolve"}
            </button>
          ) : null}
        </div>
      )}
      {toggle.error ? <ErrorNotice title="The thread did not change" error={toggle.error} /> : null}
    </article>
  );
}
