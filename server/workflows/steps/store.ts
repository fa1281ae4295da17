/**
 * Every database statement of the step workflows. They share the workflow tables with the YAML workflows
 * (`workflow_definitions` with format `steps`, `workflow_runs`, `workflow_turns`) and read their steps from the
 * `run_steps` view. Commands call them inside the engine's transaction, the projection inside the event's, the
 * executor and queries outside any.
 */
import { and, asc, desc, eq, getTableColumns, sql } from "drizzle-orm";
import { type Executor, rows } from "../../../db/client";
import { type RunStepRow, runSteps, workflowDefinitions, workflowRuns, workflowTurns } from "../../../db/schema";
import { isUuid } from "../../lib/uuid";
import { type CursorKey, type Keyed, afterCursor, cursorAt, keyedRows } from "../../lib/paging";

export const STEPS_FORMAT = "steps";

export type DefinitionRow = typeof workflowDefinitions.$inferSelect;
export type RunRow = typeof workflowRuns.$inferSelect;
export type TurnRow = typeof workflowTurns.$inferSelect;
export type NewTurn = Omit<typeof workflowTurns.$inferInsert, "id" | "createdAt">;
export type { RunStepRow };

const isRunId = isUuid;

/**
 * Serialises the registrations of one name, whichever front door registers it (the YAML workflows take the same
 * lock), so that two at once get versions n and n+1.
 */
export async function lockWorkflowName(tx: Executor, name: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${"workflow:" + name}))`);
}

/** The latest version registered under `name`, in either format. */
export async function latestVersionOf(db: Executor, name: string): Promise<DefinitionRow | undefined> {
  const found = await db.select().from(workflowDefinitions).where(eq(workflowDefinitions.name, name)).orderBy(desc(workflowDefinitions.version)).limit(1);
  return found[0];
}

export async function definitionById(db: Executor, id: string): Promise<DefinitionRow | undefined> {
  return (await db.select().from(workflowDefinitions).where(eq(workflowDefinitions.id, id)))[0];
}

export async function addDefinition(tx: Executor, values: typeof workflowDefinitions.$inferInsert): Promise<DefinitionRow> {
  return (await tx.insert(workflowDefinitions).values({ ...values, format: STEPS_FORMAT }).returning())[0]!;
}

/** The latest version of every step workflow, newest registration first. */
export function latestStepWorkflows(db: Executor): Promise<DefinitionRow[]> {
  return rows<DefinitionRow>(db, sql`
    SELECT * FROM (
      SELECT DISTINCT ON (name) id, name, version, format, source, definition, warnings, flow_id AS "flowId", created_at AS "createdAt"
      FROM workflow_definitions ORDER BY name, version DESC
    ) latest
    WHERE format = ${STEPS_FORMAT} ORDER BY "createdAt" DESC`);
}

export function versionsOf(db: Executor, name: string): Promise<{ version: number; createdAt: string }[]> {
  return db
    .select({ version: workflowDefinitions.version, createdAt: workflowDefinitions.createdAt })
    .from(workflowDefinitions)
    .where(and(eq(workflowDefinitions.name, name), eq(workflowDefinitions.format, STEPS_FORMAT)))
    .orderBy(desc(workflowDefinitions.version));
}

export async function addRun(tx: Executor, run: { id: string; definitionId: string; workflow: string; version: number; inputs: Record<string, unknown> }): Promise<void> {
  await tx.insert(workflowRuns).values({ ...run, format: STEPS_FORMAT, message: "" });
}

/** A run, of either format (undefined for an id that is no run's). */
export async function runById(db: Executor, runId: string): Promise<RunRow | undefined> {
  if (!isRunId(runId)) return undefined;
  return (await db.select().from(workflowRuns).where(eq(workflowRuns.id, runId)))[0];
}

/** The run's row, locked until the transaction ends: a command on a run never interleaves with another on it. */
export async function lockRunRow(tx: Executor, runId: string): Promise<RunRow | undefined> {
  if (!isRunId(runId)) return undefined;
  return (await tx.select().from(workflowRuns).where(eq(workflowRuns.id, runId)).for("update"))[0];
}

/** Up to `limit` step runs after the cursor, newest first, each with its cursor key. */
export async function stepRunsOf(db: Executor, options: { workflow?: string; limit: number; before?: CursorKey }): Promise<Keyed<RunRow>[]> {
  const found = await db
    .select({ ...getTableColumns(workflowRuns), cursorAt: cursorAt(workflowRuns.createdAt) })
    .from(workflowRuns)
    .where(and(
      eq(workflowRuns.format, STEPS_FORMAT), options.workflow === undefined ? undefined : eq(workflowRuns.workflow, options.workflow),
      afterCursor(workflowRuns.createdAt, workflowRuns.id, options.before),
    ))
    .orderBy(desc(workflowRuns.createdAt), desc(workflowRuns.id))
    .limit(options.limit);
  return keyedRows(found);
}

/** The run's status, and its cancellation reason when given (null clears it). */
export async function setRunStatus(tx: Executor, runId: string, status: string, cancelReason?: string | null): Promise<void> {
  const reason = cancelReason === undefined ? {} : { cancelReason };
  await tx.update(workflowRuns).set({ status, ...reason, updatedAt: sql`now()` }).where(eq(workflowRuns.id, runId));
}

/** The run's evaluated `outputs` (null while it runs again after a resumption). */
export async function setRunOutputs(tx: Executor, runId: string, outputs: unknown): Promise<void> {
  await tx.update(workflowRuns).set({ outputs, updatedAt: sql`now()` }).where(eq(workflowRuns.id, runId));
}

export async function addTurns(db: Executor, turns: readonly NewTurn[]): Promise<void> {
  if (turns.length === 0) return;
  await db.insert(workflowTurns).values(turns.map((turn) => ({ ...turn })));
}

export function turnsOf(db: Executor, runId: string): Promise<TurnRow[]> {
  return db.select().from(workflowTurns).where(eq(workflowTurns.runId, runId)).orderBy(asc(workflowTurns.id));
}

/** The run's `run_steps` rows (any order). */
export function stepsOf(db: Executor, runId: string): Promise<RunStepRow[]> {
  if (!isRunId(runId)) return Promise.resolve([]);
  return db.select().from(runSteps).where(eq(runSteps.runId, runId));
}

/**
 * The run and its `run_steps` rows read by ONE statement, so that they are of one moment (a run never shows
 * `completed` beside a step still running). Timestamps come back as text.
 */
export async function runWithSteps(db: Executor, runId: string): Promise<{ run: RunRow; steps: RunStepRow[] } | undefined> {
  if (!isRunId(runId)) return undefined;
  const [found] = await rows<{ run: Record<string, unknown>; steps: Record<string, unknown>[] | null }>(db, sql`
    SELECT to_jsonb(r) AS run,
      (SELECT jsonb_agg(to_jsonb(s)) FROM run_steps s WHERE s.run_id = r.id) AS steps
    FROM workflow_runs r WHERE r.id = ${runId}`);
  if (!found) return undefined;
  const run = found.run;
  return {
    run: {
      id: String(run.id), definitionId: String(run.definition_id), workflow: String(run.workflow), version: Number(run.version), format: String(run.format),
      message: String(run.message), inputs: run.inputs, status: String(run.status), cancelReason: (run.cancel_reason as string | null) ?? null,
      outputs: run.outputs ?? null, createdAt: String(run.created_at), updatedAt: String(run.updated_at),
    },
    steps: (found.steps ?? []).map((s) => ({
      id: String(s.id), runId: String(s.run_id), stepId: String(s.step_id), status: String(s.status), input: s.input ?? null, output: s.output ?? null,
      error: (s.error as string | null) ?? null, attempts: Number(s.attempts), startedAt: (s.started_at as string | null) ?? null, completedAt: (s.completed_at as string | null) ?? null,
    })),
  };
}
