/** The threads on one part and the comment being written on it: under the part on a narrow screen, in the margin on a wide one. */
import { CommentBox } from "./CommentBox";
import { CommentThread } from "./CommentThread";
import { useReviewSession } from "./ReviewSession";

export function PartComments({ anchor, showPart = false }: { anchor: string; showPart?: boolean }) {
  const session = useReviewSession();
  const threads = session.threads.byAnchor.get(anchor) ?? [];
  const composing = session.composing?.anchor === anchor ? session.composing : null;
  if (threads.length === 0 && !composing) return null;
  return (
    <div className="part-comments" data-anchor={anchor}>
      {threads.map((thread) => (
        <CommentThread key={thread.root.id} thread={thread} showPart={showPart} />
      ))}
      {composing ? <CommentBox decisionId={session.decisionId} target={composing} onDone={session.stopComment} /> : null}
    </div>
  );
}

/** Whether a part has anything to show beside it. */
export function hasPartComments(session: ReturnType<typeof useReviewSession>, anchor: string): boolean {
  return (session.threads.byAnchor.get(anchor)?.length ?? 0) > 0 || session.composing?.anchor === anchor;
}
