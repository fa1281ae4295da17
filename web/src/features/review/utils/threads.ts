/**
 * The comments of an output as threads: each first comment with its replies, placed at the part where it is now
 * (`current_anchor`), or among the outdated ones when its part is gone; and which part a selected text belongs to.
 */
import type { ReviewAnchor, ReviewComment } from "../../../lib/trpc";

export interface Thread {
  root: ReviewComment;
  replies: ReviewComment[];
}

export interface Threads {
  /** By the anchor of the part in the version under review, in the order they were written. */
  byAnchor: Map<string, Thread[]>;
  /** Threads whose part is gone. */
  outdated: Thread[];
  /** Threads not resolved. */
  open: number;
  /** Open threads not sent with an earlier request for changes: what the next request for changes sends. */
  toSend: number;
}

export function threadsOf(comments: readonly ReviewComment[]): Threads {
  const replies = new Map<string, ReviewComment[]>();
  for (const comment of comments) {
    if (comment.reply_to) replies.set(comment.reply_to, [...(replies.get(comment.reply_to) ?? []), comment]);
  }
  const byAnchor = new Map<string, Thread[]>();
  const outdated: Thread[] = [];
  let open = 0;
  let toSend = 0;
  for (const root of comments) {
    if (root.reply_to) continue;
    const thread = { root, replies: replies.get(root.id) ?? [] };
    if (!root.resolved) open += 1;
    // A thread sent already waits for its revision: the next request for changes sends it again only once re-opened.
    if (!root.resolved && root.sent_with_version === null) toSend += 1;
    if (root.outdated || root.current_anchor === null) outdated.push(thread);
    else byAnchor.set(root.current_anchor, [...(byAnchor.get(root.current_anchor) ?? []), thread]);
  }
  return { byAnchor, outdated, open, toSend };
}

const normalize = (text: string) => text.replace(/\s+/g, " ").trim();

/**
 * The part a selected text is in: the smallest part whose text holds it (a line before its paragraph, a field before
 * its item); for a text output the whole text ("") when no part holds it all; undefined when nothing does.
 */
export function partOfSelection(anchors: readonly ReviewAnchor[], selection: string, text: string | null): ReviewAnchor | undefined {
  const wanted = normalize(selection);
  if (wanted === "") return undefined;
  const holding = anchors.filter((a) => normalize(a.quote).includes(wanted));
  holding.sort((a, b) => a.quote.length - b.quote.length);
  if (holding[0]) return holding[0];
  if (text !== null && normalize(text).includes(wanted)) return { anchor: "", label: "The whole output", quote: text };
  return undefined;
}
