/**
 * The comments beside an output: on a wide screen, every part's threads in the margin in reading order, each under
 * its part's name; and, wherever the screen, the threads whose part is gone, after the output.
 */
import type { ReviewAnchor } from "../../../lib/trpc";
import { CommentThread } from "./CommentThread";
import { PartComments, hasPartComments } from "./PartComments";
import { useReviewSession } from "./ReviewSession";

export function CommentMargin({ anchors }: { anchors: readonly ReviewAnchor[] }) {
  const session = useReviewSession();
  const placed = ["", ...anchors.map((a) => a.anchor)].filter((anchor, i, all) => all.indexOf(anchor) === i && hasPartComments(session, anchor));
  return (
    <aside className="comment-margin" aria-label="Comments">
      {placed.length === 0 ? <p className="muted small">No comments yet.{session.canComment ? " Use a part's Comment button." : ""}</p> : null}
      {placed.map((anchor) => (
        <PartComments key={anchor} anchor={anchor} showPart />
      ))}
    </aside>
  );
}

export function OutdatedThreads() {
  const { threads } = useReviewSession();
  if (threads.outdated.length === 0) return null;
  return (
    <section className="outdated-threads" aria-label="Comments on parts that are gone">
      <h4 className="mini-label">Comments on parts that are gone</h4>
      {threads.outdated.map((thread) => (
        <CommentThread key={thread.root.id} thread={thread} showPart />
      ))}
    </section>
  );
}
