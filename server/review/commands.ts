/**
 * What people do in inline review: comment on a part of the output under review (or reply to a comment), resolve or
 * re-open a thread, keep their unsent feedback, and edit the output (through its front door). And what a request for
 * changes takes with it: `takeOpenComments`, called by each front door's reject command inside its transaction.
 * Each write runs in engine.onRun of the decision's run: the run's lock first, then these rows (the one lock order).
 */
import type { Executor } from "../../db/client";
import type { Engine } from "../engine/engine";
import type { Decider, Decision } from "../decisions/schemas";
import { isUuid } from "../lib/uuid";
import { roleAllows } from "../people/roles";
import { AnchorError, describeAnchor, textOf, valueAt } from "./anchors";
import { ReviewError } from "./errors";
import { type ReviewQueries, draftOwner } from "./queries";
import type { CommentBody, Draft, EditBody, ReviewComment, ReviewOutput, SentComment } from "./schemas";
import * as store from "./store";

const normalize = (text: string) => text.replace(/\s+/g, " ").trim();

export class ReviewCommands {
  constructor(
    private readonly engine: Engine,
    private readonly queries: ReviewQueries,
  ) {}

  /**
   * A comment on a part of the version under review (its anchor must name a part of it; a quote must be text of that
   * part), or a reply to a thread (which keeps the thread's part). New threads only while the decision is open.
   */
  async comment(decisionId: string, body: CommentBody, by: Decider): Promise<ReviewComment> {
    const { decision, current } = await this.queries.reviewed(decisionId);
    const id = await this.engine.onRun(decision.engine_run_id, async (_ops, tx) => {
      if (body.reply_to) {
        const thread = await store.commentById(tx, body.reply_to);
        if (!thread || thread.engineRunId !== decision.engine_run_id || thread.nodeKey !== decision.node_id) {
          throw new ReviewError("bad_request", `reply_to: no comment "${body.reply_to}" on "${decision.title}"`);
        }
        const root = thread.replyTo ? (await store.commentById(tx, thread.replyTo)) ?? thread : thread;
        const row = await store.insertComment(tx, {
          engineRunId: root.engineRunId, nodeKey: root.nodeKey, decisionId: decision.id, version: root.version, anchor: root.anchor, label: root.label,
          quote: root.quote, text: body.text, replyTo: root.id, authorId: by.accountId, authorName: by.name ?? "someone",
        });
        return row.id;
      }
      if (decision.state !== "open") throw new ReviewError("conflict", `"${decision.title}" is ${decision.state}: comment on the output waiting for review now`);
      let part;
      try {
        part = describeAnchor(current.output, body.anchor);
      } catch (error) {
        if (error instanceof AnchorError) throw new ReviewError("bad_request", `anchor: ${error.message}`);
        throw error;
      }
      if (!part) throw new ReviewError("bad_request", `anchor: version ${current.version} has no part "${body.anchor}"`);
      const quote = body.quote === undefined ? part.quote : body.quote.trim();
      if (body.quote !== undefined && !normalize(textOf(valueAt(current.output, body.anchor))).includes(normalize(quote))) {
        throw new ReviewError("bad_request", `quote: "${quote.slice(0, 80)}" is not text of ${part.label}`);
      }
      const row = await store.insertComment(tx, {
        engineRunId: decision.engine_run_id, nodeKey: decision.node_id, decisionId: decision.id, version: current.version, anchor: body.anchor,
        label: part.label, quote, text: body.text, replyTo: null, authorId: by.accountId, authorName: by.name ?? "someone",
      });
      return row.id;
    });
    return this.commentView(decisionId, id);
  }

  /** Marks a thread resolved (its author, or a reviewer). */
  resolve(commentId: string, by: Decider): Promise<ReviewComment> {
    return this.onThread(commentId, by, (tx, id) => store.setResolved(tx, id, by.name ?? "someone"));
  }

  /** Re-opens a thread: it goes with the next request for changes again. */
  reopen(commentId: string, by: Decider): Promise<ReviewComment> {
    return this.onThread(commentId, by, (tx, id) => store.setResolved(tx, id, null));
  }

  /** Keeps the caller's unsent feedback on the decision, as typed (empty: erased). */
  async saveDraft(decisionId: string, text: string, by: Decider): Promise<Draft> {
    // Only the decision is needed (saved as she types): not its output's versions.
    const decision = await this.queries.decision(decisionId);
    const updatedAt = await this.engine.database.transaction((tx) => store.saveDraft(tx, decision.id, draftOwner(by), text));
    return { decision_id: decision.id, text, updated_at: updatedAt };
  }

  /** Saves the caller's edited version through the front door that keeps the output's versions; it is then the one under review. */
  async edit(decisionId: string, body: EditBody, by: Decider): Promise<ReviewOutput> {
    const { decision, source } = await this.queries.reviewed(decisionId);
    if (!source.edit) throw new ReviewError("conflict", `the output of "${decision.title}" is not edited here: request changes instead`);
    if (decision.state !== "open") throw new ReviewError("conflict", `"${decision.title}" is ${decision.state} already; there is nothing to edit`);
    // The door refuses an output no one edit can replace (door.edits), with its reason.
    await source.edit(decision, body, by);
    return this.queries.output(decisionId, by);
  }

  private async onThread(commentId: string, by: Decider, change: (tx: Executor, threadId: string) => Promise<unknown>): Promise<ReviewComment> {
    const found = isUuid(commentId) ? await this.engine.database.run((db) => store.commentById(db, commentId)) : undefined;
    if (!found) throw new ReviewError("not_found", `no comment with id "${commentId}"`);
    const threadId = found.replyTo ?? found.id;
    await this.engine.onRun(found.engineRunId, async (_ops, tx) => {
      const thread = await store.commentById(tx, threadId);
      if (!thread) throw new ReviewError("not_found", `no comment with id "${commentId}"`);
      if (thread.authorId !== by.accountId && !roleAllows(by.role, "reviewer")) {
        throw new ReviewError("forbidden", `only ${thread.authorName}, who wrote it, or a reviewer may resolve or re-open this thread`);
      }
      await change(tx, threadId);
    });
    return this.commentView(found.decisionId, commentId);
  }

  private async commentView(decisionId: string, commentId: string): Promise<ReviewComment> {
    const { items } = await this.queries.comments(decisionId);
    return items.find((c) => c.id === commentId)!;
  }
}

/**
 * A request for changes takes the open threads of the node with it: each thread (its first comment and the replies)
 * as one comment for the agent, marked as sent with the version it was written on. MUST be called inside the run's
 * engine transaction, by the front door's reject command, before it hands the engine the rejection. `version`: the
 * version under review (the front doors that keep their own versions know it).
 */
export async function takeOpenComments(tx: Executor, decision: Pick<Decision, "engine_run_id" | "node_id">, version?: number): Promise<SentComment[]> {
  const threads = await store.openThreads(tx, decision.engine_run_id, decision.node_id);
  if (threads.length === 0) return [];
  const all = await store.listComments(tx, decision.engine_run_id, decision.node_id);
  const sent = threads.map((thread) => {
    const replies = all.filter((c) => c.replyTo === thread.id).map((c) => `${c.authorName} replied: ${c.text}`);
    return { anchor: thread.anchor, label: thread.label, quote: thread.quote, text: [thread.text, ...replies].join("\n") };
  });
  // Outputs kept with their decisions: the version under review is the one the newest thread was written on.
  await store.markSent(tx, threads.map((t) => t.id), version ?? Math.max(...threads.map((t) => t.version)));
  return sent;
}
