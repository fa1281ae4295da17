/**
 * The comments beside an output: on a wide screen, every part's threads in the margin in reading order, each under
 * its part's name and level with its part (a comment being written opens beside the row it is about, not at the top
 * of the margin); and, wherever the screen, the threads whose part is gone, after the output.
 */
import { useLayoutEffect, useRef } from "react";
import type { ReviewAnchor } from "../../../lib/trpc";
import { CommentThread } from "./CommentThread";
import { PartComments, hasPartComments } from "./PartComments";
import { useReviewSession } from "./ReviewSession";

export function CommentMargin({ anchors }: { anchors: readonly ReviewAnchor[] }) {
  const session = useReviewSession();
  const placed = ["", ...anchors.map((a) => a.anchor)].filter((anchor, i, all) => all.indexOf(anchor) === i && hasPartComments(session, anchor));
  const margin = useRef<HTMLElement>(null);
  // After every render and whenever the output's layout moves (a diagram drawn, a part opened, the window resized).
  useLayoutEffect(() => {
    const aside = margin.current;
    if (!aside) return;
    alignWithParts(aside);
    const observer = new ResizeObserver(() => alignWithParts(aside));
    if (aside.parentElement) observer.observe(aside.parentElement);
    return () => observer.disconnect();
  });
  return (
    <aside ref={margin} className="comment-margin" aria-label="Comments">
      {placed.length === 0 ? <p className="muted small">No comments yet.{session.canComment ? " Use a part's Comment button." : ""}</p> : null}
      {placed.map((anchor) => (
        <PartComments key={anchor} anchor={anchor} showPart />
      ))}
    </aside>
  );
}

/**
 * Moves each part's comments down to the height of their part (its comment button, `data-part`), in reading order, so
 * none is above its part and none overlaps the one before: a group's top is the lower of where the groups before it
 * end and where its part is.
 */
function alignWithParts(aside: HTMLElement) {
  const groups = [...aside.querySelectorAll<HTMLElement>(":scope > [data-anchor]")];
  for (const group of groups) group.style.marginTop = "";
  const layout = aside.parentElement;
  for (const group of groups) {
    const anchor = group.dataset.anchor ?? "";
    const part = anchor ? layout?.querySelector(`[data-part="${CSS.escape(anchor)}"]`) : null;
    if (!part) continue;
    const below = part.getBoundingClientRect().top - group.getBoundingClientRect().top;
    if (below > 0) group.style.marginTop = `${below}px`;
  }
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
