/**
 * The plain flows' own table: each person's open draft of a flow (`stitch_flow_drafts`), and nothing else; this module
 * is its one writer. Versions are the engine's (it runs them). Graphs read back are parsed with their schema.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { stitchFlowDrafts } from "../../db/schema";
import { StitchGraph } from "../engine/schemas";

export interface StoredDraft {
  flowId: string;
  name: string;
  graph: StitchGraph;
  baseVersion: number;
  updatedAt: string;
}

const iso = (value: string) => new Date(value).toISOString();
const toDraft = (row: typeof stitchFlowDrafts.$inferSelect): StoredDraft => ({
  flowId: row.flowId, name: row.name, graph: StitchGraph.parse(row.graph), baseVersion: row.baseVersion, updatedAt: iso(row.updatedAt),
});

/** Keeps a person's draft of a flow as it now stands, replacing the one before. */
export async function saveDraft(tx: Executor, person: string, draft: Omit<StoredDraft, "updatedAt">): Promise<StoredDraft> {
  const values = { flowId: draft.flowId, person, name: draft.name, graph: draft.graph, baseVersion: draft.baseVersion };
  const [row] = await tx
    .insert(stitchFlowDrafts)
    .values(values)
    .onConflictDoUpdate({ target: [stitchFlowDrafts.flowId, stitchFlowDrafts.person], set: { name: values.name, graph: values.graph, baseVersion: values.baseVersion, updatedAt: sql`now()` } })
    .returning();
  return toDraft(row!);
}

export async function findDraft(db: Executor, flowId: string, person: string): Promise<StoredDraft | undefined> {
  const [row] = await db.select().from(stitchFlowDrafts).where(and(eq(stitchFlowDrafts.flowId, flowId), eq(stitchFlowDrafts.person, person)));
  return row && toDraft(row);
}

/** A person's drafts, the latest changed first (new flows' drafts among them). */
export async function listDrafts(db: Executor, person: string): Promise<StoredDraft[]> {
  const found = await db.select().from(stitchFlowDrafts).where(eq(stitchFlowDrafts.person, person)).orderBy(desc(stitchFlowDrafts.updatedAt)).limit(200);
  return found.map(toDraft);
}

/** Discards a person's draft; true when there was one. */
export async function deleteDraft(tx: Executor, flowId: string, person: string): Promise<boolean> {
  const gone = await tx.delete(stitchFlowDrafts).where(and(eq(stitchFlowDrafts.flowId, flowId), eq(stitchFlowDrafts.person, person))).returning({ flowId: stitchFlowDrafts.flowId });
  return gone.length > 0;
}

/**
 * Discards a person's draft once a version holds exactly its graph (JSONB equality: key order does not count): what
 * the draft kept is saved. A draft that differs from what was saved is kept, as typed.
 */
export async function deleteDraftIfSaved(tx: Executor, flowId: string, person: string, graph: StitchGraph): Promise<void> {
  await tx.delete(stitchFlowDrafts).where(and(eq(stitchFlowDrafts.flowId, flowId), eq(stitchFlowDrafts.person, person), sql`${stitchFlowDrafts.graph} = ${JSON.stringify(graph)}::jsonb`));
}
