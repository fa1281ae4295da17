/** A part's small "Comment" button, named for its part ("Comment on CAP-001"), with how many threads it has. */
import type { PartInfo } from "../../../components/artifacts/parts";
import { useReviewSession } from "./ReviewSession";

export function CommentButton({ part, name }: { part: PartInfo; name: string }) {
  const session = useReviewSession();
  const count = session.threads.byAnchor.get(part.anchor)?.length ?? 0;
  if (!session.canComment && count === 0) return null;
  return (
    <span className="part-comment" data-part={part.anchor}>
      {session.canComment ? (
        <button
          type="button"
          className="comment-button"
          aria-label={`Comment on ${name}`}
          aria-expanded={session.composing?.anchor === part.anchor && session.composing.quote === undefined}
          onClick={() => session.startComment({ anchor: part.anchor, label: name })}
        >
          <svg className="icon" viewBox="0 0 20 20" aria-hidden="true">
            <path d="M4 4.5h12v8H9l-3.5 3v-3H4z" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinejoin="round" />
          </svg>
          Comment
        </button>
      ) : null}
      {count > 0 && session.margin ? <span className="part-count">{count === 1 ? "1 comment" : `${count} comments`}</span> : null}
    </span>
  );
}
