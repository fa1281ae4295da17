/**
 * Every database statement of inline review, and the only writer of `review_comments`, `review_drafts` and `review_edits`. Rows are
 * typed here; commands call the writes inside the engine run's transaction (its lock first, then these rows).
 */
import { and, asc, desc, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import { type Executor, rows } from "../../db/client";
import { type ReviewCommentRow, type ReviewEditRow, decisions, reviewComments, reviewDrafts, reviewEdits } from "../../db/schema";

export type { ReviewCommentRow, ReviewEditRow };

/**
 * What moves whenever a comment of an engine run is written, resolved, re-opened or sent with a request for changes:
 * its comments' counts and latest times, as one string (read by the comments' index on the engine run).
 */
export async function changeMarker(db: Executor, engineRunId: string): Promise<string> {
  const [found] = await rows<Record<string, unknown>>(db, sql`
    SELECT count(*) AS comments, count(resolved_at) AS resolved, count(sent_with_version) AS sent,
      max(created_at) AS written, max(resolved_at) AS last_resolved
    FROM review_comments WHERE engine_run_id = ${engineRunId}`);
  const text = (value: unknown) => (value instanceof Date ? value.toISOString() : String(value ?? ""));
  return ["comments", "resolved", "sent", "written", "last_resolved"].map((key) => text(found?.[key])).join("/");
}

/** A node's comments (all rounds of its output), oldest first. */
export async function listComments(db: Executor, engineRunId: string, nodeKey: string): Promise<ReviewCommentRow[]> {
  return db
    .select()
    .from(reviewComments)
    .where(and(eq(reviewComments.engineRunId, engineRunId), eq(reviewComments.nodeKey, nodeKey)))
    .orderBy(asc(reviewComments.createdAt), asc(reviewComments.id));
}

export async function commentById(db: Executor, id: string): Promise<ReviewCommentRow | undefined> {
  const [row] = await db.select().from(reviewComments).where(eq(reviewComments.id, id));
  return row;
}

export async function insertComment(
  tx: Executor,
  c: Pick<ReviewCommentRow, "engineRunId" | "nodeKey" | "decisionId" | "version" | "anchor" | "label" | "quote" | "text" | "replyTo" | "authorId" | "authorName">,
): Promise<ReviewCommentRow> {
  const [row] = await tx.insert(reviewComments).values(c).returning();
  return row!;
}

/** Resolves (`by` given) or re-opens a thread; a re-opened thread goes with the next request for changes again. */
export async function setResolved(tx: Executor, id: string, by: string | null): Promise<ReviewCommentRow> {
  const [row] = await tx
    .update(reviewComments)
    .set(by === null ? { resolvedAt: null, resolvedBy: null, sentWithVersion: null } : { resolvedAt: sql`now()`, resolvedBy: by })
    .where(eq(reviewComments.id, id))
    .returning();
  return row!;
}

/** The threads a request for changes carries: first comments neither resolved nor sent yet. */
export async function openThreads(tx: Executor, engineRunId: string, nodeKey: string): Promise<ReviewCommentRow[]> {
  return tx
    .select()
    .from(reviewComments)
    .where(and(
      eq(reviewComments.engineRunId, engineRunId), eq(reviewComments.nodeKey, nodeKey), isNull(reviewComments.replyTo),
      isNull(reviewComments.resolvedAt), isNull(reviewComments.sentWithVersion),
    ))
    .orderBy(asc(reviewComments.createdAt), asc(reviewComments.id));
}

export async function markSent(tx: Executor, ids: readonly string[], version: number): Promise<void> {
  if (ids.length > 0) await tx.update(reviewComments).set({ sentWithVersion: version }).where(inArray(reviewComments.id, [...ids]));
}

/** The output each decision of a node held for review (YAML approvals, Stitch review gates), oldest first. */
export async function reviewedOutputs(db: Executor, engineRunId: string, nodeKey: string): Promise<{ id: string; reviewed: unknown; waitingSince: string; decidedAt: string | null }[]> {
  return db
    .select({ id: decisions.id, reviewed: decisions.reviewed, waitingSince: decisions.waitingSince, decidedAt: decisions.decidedAt })
    .from(decisions)
    .where(and(eq(decisions.engineRunId, engineRunId), eq(decisions.nodeKey, nodeKey), isNotNull(decisions.reviewed)))
    .orderBy(asc(decisions.waitingSince), asc(decisions.id));
}

// ---- Edits -------------------------------------------------------------------------------------------------------

/** A person's edited versions of the outputs a node's decisions reviewed, oldest first. */
export async function editsOfNode(db: Executor, engineRunId: string, nodeKey: string): Promise<ReviewEditRow[]> {
  return db
    .select()
    .from(reviewEdits)
    .where(and(eq(reviewEdits.engineRunId, engineRunId), eq(reviewEdits.nodeKey, nodeKey)))
    .orderBy(asc(reviewEdits.createdAt), asc(reviewEdits.id));
}

/** The latest edit of the node's open decision, if any. */
export async function latestEditOfOpenDecision(db: Executor, engineRunId: string, nodeKey: string): Promise<ReviewEditRow | undefined> {
  const [row] = await db
    .select({ edit: reviewEdits })
    .from(reviewEdits)
    .innerJoin(decisions, eq(decisions.id, reviewEdits.decisionId))
    .where(and(eq(decisions.engineRunId, engineRunId), eq(decisions.nodeKey, nodeKey), eq(decisions.state, "open")))
    .orderBy(desc(reviewEdits.createdAt), desc(reviewEdits.id))
    .limit(1);
  return row?.edit;
}

export async function insertEdit(tx: Executor, e: Pick<ReviewEditRow, "decisionId" | "engineRunId" | "nodeKey" | "output" | "authorId" | "authorName" | "note">): Promise<ReviewEditRow> {
  // clock_timestamp: two edits in one transaction (a test's) still keep their order.
  const [row] = await tx.insert(reviewEdits).values({ ...e, createdAt: sql`clock_timestamp()` }).returning();
  return row!;
}

// ---- Drafts -----------------------------------------------------------------------------------------------------

export async function draftOf(db: Executor, decisionId: string, person: string): Promise<{ text: string; updatedAt: string } | undefined> {
  const [row] = await db
    .select({ text: reviewDrafts.text, updatedAt: reviewDrafts.updatedAt })
    .from(reviewDrafts)
    .where(and(eq(reviewDrafts.decisionId, decisionId), eq(reviewDrafts.person, person)));
  return row;
}

/** Keeps the person's draft; an empty one is deleted (sent, or erased). */
export async function saveDraft(tx: Executor, decisionId: string, person: string, text: string): Promise<string | null> {
  if (text === "") {
    await tx.delete(reviewDrafts).where(and(eq(reviewDrafts.decisionId, decisionId), eq(reviewDrafts.person, person)));
    return null;
  }
  const [row] = await tx
    .insert(reviewDrafts)
    .values({ decisionId, person, text })
    .onConflictDoUpdate({ target: [reviewDrafts.decisionId, reviewDrafts.person], set: { text, updatedAt: sql`now()` } })
    .returning({ updatedAt: reviewDrafts.updatedAt });
  return row!.updatedAt;
}
