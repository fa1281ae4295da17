/**
 * Every database statement of the workflow front door, one function each: definitions (versioned, never updated),
 * runs (the engine run's id, plus what the workflow adds) and their conversation turns. Commands call them inside
 * the engine's transaction, the projection inside the event's transaction, queries outside any.
 */
import { and, asc, desc, eq, getTableColumns, sql } from "drizzle-orm";
import { type Executor, rows } from "../../../db/client";
import { workflowDefinitions, workflowRuns, workflowTurns } from "../../../db/schema";
import { isUuid } from "../../lib/uuid";
import { type CursorKey, type Keyed, afterCursor, cursorAt, keyedRows } from "../../lib/paging";

export type DefinitionRow = typeof workflowDefinitions.$inferSelect;
export type RunRow = typeof workflowRuns.$inferSelect;
export type TurnRow = typeof workflowTurns.$inferSelect;
export type NewTurn = typeof workflowTurns.$inferInsert;

/** Serialises registrations of one name, so two registering at once get versions n and n+1, never both n. */
export async function lockName(tx: Executor, name: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`workflow:${name}`}))`);
}

export async function latestVersion(tx: Executor, name: string): Promise<number> {
  const [row] = await rows<{ version: number | null }>(tx, sql`SELECT max(version) AS version FROM workflow_definitions WHERE name = ${name}`);
  return Number(row?.version ?? 0);
}

export async function insertDefinition(
  tx: Executor, d: { name: string; version: number; format: string; source: string; definition: unknown; warnings: unknown; flowId: string },
): Promise<DefinitionRow> {
  const [row] = await tx.insert(workflowDefinitions).values(d).returning();
  return row!;
}

/** The latest version of each workflow, newest registration first. */
export function listLatestDefinitions(db: Executor, format?: string): Promise<DefinitionRow[]> {
  return rows<DefinitionRow>(db, sql`
    SELECT DISTINCT ON (name) id, name, version, format, source, definition, warnings, flow_id AS "flowId", created_at AS "createdAt"
    FROM workflow_definitions ${format ? sql`WHERE format = ${format}` : sql``}
    ORDER BY name, version DESC`);
}

export function listVersions(db: Executor, name: string): Promise<Pick<DefinitionRow, "version" | "createdAt">[]> {
  return db.select({ version: workflowDefinitions.version, createdAt: workflowDefinitions.createdAt }).from(workflowDefinitions)
    .where(eq(workflowDefinitions.name, name)).orderBy(desc(workflowDefinitions.version));
}

export async function findDefinition(db: Executor, name: string, version?: number): Promise<DefinitionRow | undefined> {
  const [row] = await db.select().from(workflowDefinitions)
    .where(version === undefined ? eq(workflowDefinitions.name, name) : and(eq(workflowDefinitions.name, name), eq(workflowDefinitions.version, version)))
    .orderBy(desc(workflowDefinitions.version)).limit(1);
  return row;
}

export async function findDefinitionById(db: Executor, id: string): Promise<DefinitionRow | undefined> {
  const [row] = await db.select().from(workflowDefinitions).where(eq(workflowDefinitions.id, id));
  return row;
}

export async function insertRun(
  tx: Executor, run: { id: string; definitionId: string; workflow: string; version: number; format: string; message: string; inputs: unknown },
): Promise<void> {
  await tx.insert(workflowRuns).values(run);
}

/** Locks the run's row: a decision and the projection of one run never interleave with another command on it. */
export async function lockRun(tx: Executor, runId: string): Promise<RunRow | undefined> {
  if (!isUuid(runId)) return undefined;
  const [row] = await tx.select().from(workflowRuns).where(eq(workflowRuns.id, runId)).for("update");
  return row;
}

export async function findRun(db: Executor, runId: string): Promise<RunRow | undefined> {
  if (!isUuid(runId)) return undefined;
  const [row] = await db.select().from(workflowRuns).where(eq(workflowRuns.id, runId));
  return row;
}

/** Up to `limit` runs after the cursor, newest first, each with its cursor key. */
export async function listRuns(db: Executor, options: { workflow?: string; format?: string; limit: number; before?: CursorKey }): Promise<Keyed<RunRow>[]> {
  const found = await db.select({ ...getTableColumns(workflowRuns), cursorAt: cursorAt(workflowRuns.createdAt) }).from(workflowRuns)
    .where(and(
      options.workflow ? eq(workflowRuns.workflow, options.workflow) : undefined, options.format ? eq(workflowRuns.format, options.format) : undefined,
      afterCursor(workflowRuns.createdAt, workflowRuns.id, options.before),
    ))
    .orderBy(desc(workflowRuns.createdAt), desc(workflowRuns.id)).limit(options.limit);
  return keyedRows(found);
}

export async function updateRunStatus(tx: Executor, runId: string, status: string, cancelReason: string | null | undefined): Promise<void> {
  await tx.update(workflowRuns)
    .set({ status, ...(cancelReason !== undefined ? { cancelReason } : {}), updatedAt: sql`now()` })
    .where(eq(workflowRuns.id, runId));
}

export async function setOutputs(tx: Executor, runId: string, outputs: unknown): Promise<void> {
  await tx.update(workflowRuns).set({ outputs, updatedAt: sql`now()` }).where(eq(workflowRuns.id, runId));
}

export async function insertTurns(tx: Executor, turns: readonly NewTurn[]): Promise<void> {
  if (turns.length > 0) await tx.insert(workflowTurns).values([...turns]);
}

export function listTurns(db: Executor, runId: string): Promise<TurnRow[]> {
  return db.select().from(workflowTurns).where(eq(workflowTurns.runId, runId)).orderBy(asc(workflowTurns.id));
}

/** A node's turns of one kind, oldest first (a loop's iterations, an approval's rejections). */
export function listNodeTurns(db: Executor, runId: string, nodeId: string, kind: string): Promise<TurnRow[]> {
  return db.select().from(workflowTurns)
    .where(and(eq(workflowTurns.runId, runId), eq(workflowTurns.nodeId, nodeId), eq(workflowTurns.kind, kind)))
    .orderBy(asc(workflowTurns.id));
}
