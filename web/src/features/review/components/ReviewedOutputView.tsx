/**
 * An output shown for review in a conversation (the review feature's `ReviewedOutput`): the decision its node waits
 * (or waited) for, found from the run; on the version under review, a comment button on each part and the threads
 * under the part (narrow screens) or in the margin (wide ones), "Comment on selection", the outline of parts no
 * renderer lays out, and "Edit" for whoever may decide; on a version that revises another, what changed since it.
 * Older versions are shown as they are, with their diff. While nothing is read yet, the output is shown plain.
 */
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { PartsProvider, type PartsRendering } from "../../../components/artifacts/parts";
import type { ReviewedOutputProps } from "../../../components/review/InlineReview";
import { useSession } from "../../../lib/session";
import type { ReviewComment, ReviewOutput } from "../../../lib/trpc";
import { useComments, useReviewOutput, useTargetDecision } from "../api/review";
import { threadsOf } from "../utils/threads";
import { useWide } from "../utils/useWide";
import { CommentButton } from "./CommentButton";
import { CommentMargin, OutdatedThreads } from "./CommentMargin";
import { DiffPanel } from "./DiffPanel";
import { OutputEditor } from "./OutputEditor";
import { PartComments, hasPartComments } from "./PartComments";
import { PartsOutline, outlineParts } from "./PartsOutline";
import { type CommentTarget, type ReviewSession, ReviewSessionProvider } from "./ReviewSession";
import { SelectionComment } from "./SelectionComment";
import "../review.css";

const noComments: ReviewComment[] = [];

export function ReviewedOutputView({ target, claim, children }: ReviewedOutputProps) {
  const { decision, refresh } = useTargetDecision(target);
  const output = useReviewOutput(decision?.id);
  const data = output.data;
  // Behind the conversation: it shows a version newer than the decision's (an agent's revision waits under a new
  // decision, or someone edited it), or a node waiting while the decision read is closed. Read again until caught up.
  const behind = data !== undefined && target.version !== undefined && target.version > data.version;
  const decisionOpen = decision?.state === "open";
  const stale = behind || (target.waiting === true && !decisionOpen);
  const { refetch } = output;
  useEffect(() => {
    if (!stale) return;
    const catchUp = () => (decisionOpen ? void refetch() : refresh());
    catchUp();
    const timer = setInterval(catchUp, 4000);
    return () => clearInterval(timer);
  }, [stale, decisionOpen, refetch, refresh]);
  if (!decision || !data) {
    return (
      <>
        {claim}
        {children}
      </>
    );
  }
  const shownVersion = target.version ?? data.version;
  const revises = data.versions.find((v) => v.version === shownVersion)?.revises ?? null;
  const diff = revises !== null ? <DiffPanel decisionId={decision.id} output={data} version={shownVersion} revises={revises} claim={claim} open={shownVersion === data.version} /> : claim;
  if (shownVersion !== data.version) {
    return (
      <>
        {diff}
        {children}
      </>
    );
  }
  return (
    <UnderReview output={data} open={decision.state === "open"} diff={diff}>
      {children}
    </UnderReview>
  );
}

function UnderReview({ output, open, diff, children }: { output: ReviewOutput; open: boolean; diff: ReactNode; children: ReactNode }) {
  const me = useSession();
  const comments = useComments(output.decision_id, open);
  const threads = useMemo(() => threadsOf(comments.data?.items ?? noComments), [comments.data]);
  const [composing, setComposing] = useState<CommentTarget | null>(null);
  const [editing, setEditing] = useState(false);
  const trigger = useRef<HTMLElement | null>(null);
  const [box, wideScreen] = useWide<HTMLDivElement>(760);
  // The margin takes room from the output only while it holds something (a thread, a comment being written): an output
  // without comments keeps its full width, so a wide table fits instead of scrolling.
  const wide = wideScreen && (threads.byAnchor.size > 0 || composing !== null);
  const main = useRef<HTMLDivElement | null>(null);
  const [shownAnchors, setShownAnchors] = useState<ReadonlySet<string>>(new Set());

  const startComment = useCallback((target: CommentTarget) => {
    trigger.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setComposing(target);
  }, []);
  const stopComment = useCallback(() => {
    setComposing(null);
    // Back where the person was: the part's button.
    requestAnimationFrame(() => trigger.current?.focus());
  }, []);
  const session: ReviewSession = useMemo(
    () => ({ decisionId: output.decision_id, version: output.version, canComment: open, me, threads, composing, startComment, stopComment, margin: wide }),
    [output.decision_id, output.version, open, me, threads, composing, startComment, stopComment, wide],
  );
  const shown = useCallback((anchor: string) => {
    setShownAnchors((before) => (before.has(anchor) ? before : new Set(before).add(anchor)));
    return () =>
      setShownAnchors((before) => {
        const after = new Set(before);
        after.delete(anchor);
        return after;
      });
  }, []);
  const rendering: PartsRendering = useMemo(
    () => ({
      parts: output.anchors,
      button: (part, name) => <CommentButton part={part} name={name} />,
      threads: (anchor) => (wide ? null : <PartComments anchor={anchor} />),
      shown,
    }),
    [output.anchors, wide, shown],
  );
  const outline = output.format === "artifact" ? [] : outlineParts(output);
  // Under each part on a narrow screen; what no part shows (a line, the whole text, a selection's part) after the output.
  const elsewhere = wide ? [] : ["", ...output.anchors.map((a) => a.anchor)].filter((anchor, i, all) => all.indexOf(anchor) === i && !shownAnchors.has(anchor) && hasPartComments(session, anchor));

  return (
    <ReviewSessionProvider value={session}>
      <div ref={box} className={`reviewed-output${wide ? " has-margin" : ""}`}>
        <div className="review-toolbar">
          <span className="muted small">{threads.open === 0 ? "No open comments" : threads.open === 1 ? "1 open comment" : `${threads.open} open comments`}</span>
          <SelectionComment root={main} output={output} />
          {output.editable && !editing ? (
            <button type="button" className="button button-secondary button-small" onClick={() => setEditing(true)}>
              Edit v{output.version}
            </button>
          ) : null}
        </div>
        {diff}
        <div className="reviewed-layout">
          <div className="reviewed-main" ref={main}>
            {editing ? (
              <OutputEditor output={output} onClose={() => setEditing(false)} />
            ) : (
              <PartsProvider value={rendering}>
                {children}
                <PartsOutline parts={outline} />
              </PartsProvider>
            )}
            {elsewhere.length > 0 ? (
              <section className="other-comments" aria-label="Comments on other parts">
                {elsewhere.map((anchor) => (
                  <PartComments key={anchor} anchor={anchor} showPart />
                ))}
              </section>
            ) : null}
            <OutdatedThreads />
          </div>
          {wide ? <CommentMargin anchors={output.anchors} /> : null}
        </div>
      </div>
    </ReviewSessionProvider>
  );
}
