/**
 * Every database statement on the workflow tables, for both workflow front doors: definitions (versioned, never
 * updated), runs (the engine run's id, plus what the workflow adds) and their conversation turns. No other module
 * reads or writes `workflow_definitions`, `workflow_runs` or `workflow_turns`. Of the engine's tables it only reads
 * who started a run (`stitch_runs`, as the pipeline's store does) and, for a conversation's change marker, the run's
 * last event. Commands call these inside the engine's transaction, the projections inside the event's transaction,
 * executors and queries outside any.
 *
 * JSONB columns are parsed here with their schemas, so what leaves this module is typed: a definition by its format
 * (a YAML `WorkflowDefinition` or a `StepWorkflowDefinition`), a run's `inputs` and `outputs`. A stored value that
 * does not fit its schema is a bug of whoever wrote it, and fails loudly here rather than deep in a reader.
 *
 * Locks, in the product's one order (server/engine/engine.ts `onRun`):
 * - `lockName` takes an advisory lock per workflow name, in a registration's transaction before it reads the latest
 *   version; a registration touches no run, so it takes no run lock.
 * - `lockRun` locks a workflow run's row ONLY after the engine's run row, that is inside `engine.onRun`: every
 *   transaction that changes a run (commands, projections, executors' reports) locks the engine's row first.
 */
import { and, asc, desc, eq, getTableColumns, sql } from "drizzle-orm";
import { z } from "zod";
import { type Executor, rows } from "../../db/client";
import { RunStatus, type StartedBy } from "../engine/schemas";
import { type RunStepRow, type WorkflowDefinitionRow, type WorkflowRunRow, type WorkflowTurnRow, stitchRuns, workflowDefinitions, workflowRuns, workflowTurns } from "../../db/schema";
import { type CursorKey, type Keyed, afterCursor, cursorAt, keyedRows, mapItem } from "../lib/paging";
import { isUuid } from "../lib/uuid";
import { StepWorkflowDefinition } from "./steps/definition";
import { RenderedOutputs } from "./steps/templates";
import { LocatedIssue, WorkflowDefinition } from "./yaml/definition";

/** Which front door registered a definition and owns its runs. */
export const WorkflowFormat = z.enum(["yaml", "steps"]);
export type WorkflowFormat = z.infer<typeof WorkflowFormat>;

/** A definition's stored JSON, by its format: what the front door loaded and what it warned about (a step workflow never warns). */
const StoredDefinition = z.discriminatedUnion("format", [
  z.object({ format: z.literal("yaml"), definition: WorkflowDefinition, warnings: z.array(LocatedIssue) }),
  z.object({ format: z.literal("steps"), definition: StepWorkflowDefinition, warnings: z.tuple([]) }),
]);
export type StoredDefinition = z.infer<typeof StoredDefinition>;

/** What a run's row holds that its columns do not type: its format and status, its inputs, (a step run's, once it ended) its evaluated `outputs`. */
const StoredRun = z.object({
  format: WorkflowFormat,
  /** The engine run's status, as the projection wrote it. */
  status: RunStatus,
  inputs: z.record(z.string(), z.unknown()).nullable(),
  outputs: RenderedOutputs.nullable(),
});

export type DefinitionRow = Omit<WorkflowDefinitionRow, keyof StoredDefinition> & StoredDefinition;
export type YamlDefinitionRow = Extract<DefinitionRow, { format: "yaml" }>;
export type StepDefinitionRow = Extract<DefinitionRow, { format: "steps" }>;
/** A run's row, with who started it: its engine run's starter (read, never written, here: the engine's store writes it). */
export type RunRow = Omit<WorkflowRunRow, keyof z.infer<typeof StoredRun>> & z.infer<typeof StoredRun> & { startedBy: StartedBy | null };
export type TurnRow = WorkflowTurnRow;
export type NewTurn = Omit<typeof workflowTurns.$inferInsert, "id" | "createdAt">;

function definitionRow(row: WorkflowDefinitionRow): DefinitionRow {
  return { ...row, ...StoredDefinition.parse({ format: row.format, definition: row.definition, warnings: row.warnings }) };
}

type StarterColumns = { startedById: string | null; startedByName: string | null };

function runRow({ startedById, startedByName, ...row }: WorkflowRunRow & StarterColumns): RunRow {
  const startedBy = startedById === null && startedByName === null ? null : { id: startedById, name: startedByName };
  return { ...row, ...StoredRun.parse({ format: row.format, status: row.status, inputs: row.inputs ?? null, outputs: row.outputs ?? null }), startedBy };
}

/** A run's columns, with its engine run's starter (a left join on the engine run, whose id the workflow run shares). */
const runColumns = { ...getTableColumns(workflowRuns), startedById: stitchRuns.startedById, startedByName: stitchRuns.startedByName };
const withStarter = eq(stitchRuns.id, workflowRuns.id);

// ---- Definitions ------------------------------------------------------------------------------

/**
 * Serialises the registrations of one name, whichever front door registers it, so that two at once get versions n and
 * n+1 and a name never gets versions of two formats. Taken first in a registration's transaction.
 */
export async function lockName(tx: Executor, name: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`workflow:${name}`}))`);
}

/** The latest version registered under `name`, in either format. */
export async function latestDefinition(db: Executor, name: string): Promise<DefinitionRow | undefined> {
  const [row] = await db.select().from(workflowDefinitions).where(eq(workflowDefinitions.name, name)).orderBy(desc(workflowDefinitions.version)).limit(1);
  return row && definitionRow(row);
}

export async function definitionById(db: Executor, id: string): Promise<DefinitionRow | undefined> {
  const [row] = await db.select().from(workflowDefinitions).where(eq(workflowDefinitions.id, id));
  return row && definitionRow(row);
}

/** The definition a fork of `run` runs: the one the run ran (`original`), or its workflow's latest (`latest`). */
export function forkDefinition(db: Executor, run: Pick<RunRow, "workflow" | "definitionId">, version: "original" | "latest"): Promise<DefinitionRow | undefined> {
  return version === "latest" ? latestDefinition(db, run.workflow) : definitionById(db, run.definitionId);
}

export async function insertDefinition(
  tx: Executor, values: StoredDefinition & { name: string; version: number; source: string; flowId: string },
): Promise<DefinitionRow> {
  const [row] = await tx.insert(workflowDefinitions).values(values).returning();
  return definitionRow(row!);
}

/** The format of the workflow registered under `name` (undefined for none): a name keeps the format of its first version. */
export async function definitionFormat(db: Executor, name: string): Promise<WorkflowFormat | undefined> {
  const [row] = await db.select({ format: workflowDefinitions.format }).from(workflowDefinitions).where(eq(workflowDefinitions.name, name)).limit(1);
  return row && WorkflowFormat.parse(row.format);
}

/** The latest version of every workflow (of one format, or of both), newest registration first. */
export async function listLatestDefinitions(db: Executor, format?: WorkflowFormat): Promise<DefinitionRow[]> {
  const found = await rows<WorkflowDefinitionRow>(db, sql`
    SELECT * FROM (
      SELECT DISTINCT ON (name) id, name, version, format, source, definition, warnings, flow_id AS "flowId", created_at AS "createdAt"
      FROM workflow_definitions ORDER BY name, version DESC
    ) latest
    ${format ? sql`WHERE format = ${format}` : sql``} ORDER BY "createdAt" DESC, name`);
  return found.map(definitionRow);
}

/** Every version registered under `name`, newest first. */
export function listVersions(db: Executor, name: string): Promise<Pick<WorkflowDefinitionRow, "version" | "createdAt">[]> {
  return db.select({ version: workflowDefinitions.version, createdAt: workflowDefinitions.createdAt }).from(workflowDefinitions)
    .where(eq(workflowDefinitions.name, name)).orderBy(desc(workflowDefinitions.version));
}

// ---- Runs -------------------------------------------------------------------------------------

export async function insertRun(
  tx: Executor,
  run: { id: string; definitionId: string; workflow: string; version: number; format: WorkflowFormat; message: string; inputs: Record<string, unknown> | null },
): Promise<void> {
  await tx.insert(workflowRuns).values(run);
}

/**
 * Locks the run's row until the transaction ends. Only ever called inside `engine.onRun`, after the engine's run row
 * (see the lock order above), so that no two transactions take the two in opposite orders.
 */
export async function lockRun(tx: Executor, runId: string): Promise<RunRow | undefined> {
  if (!isUuid(runId)) return undefined;
  const [row] = await tx.select(runColumns).from(workflowRuns).leftJoin(stitchRuns, withStarter).where(eq(workflowRuns.id, runId)).for("update", { of: workflowRuns });
  return row && runRow(row);
}

/** A run, of either format (undefined for an id that is no workflow run's). */
export async function findRun(db: Executor, runId: string): Promise<RunRow | undefined> {
  if (!isUuid(runId)) return undefined;
  const [row] = await db.select(runColumns).from(workflowRuns).leftJoin(stitchRuns, withStarter).where(eq(workflowRuns.id, runId));
  return row && runRow(row);
}

/** The format of the run (undefined for an id that is no workflow run's); a run's format never changes. */
export async function runFormat(db: Executor, runId: string): Promise<WorkflowFormat | undefined> {
  if (!isUuid(runId)) return undefined;
  const [row] = await db.select({ format: workflowRuns.format }).from(workflowRuns).where(eq(workflowRuns.id, runId));
  return row && WorkflowFormat.parse(row.format);
}

/** Up to `limit` runs (of one workflow, of one format) after the cursor, newest first, each with its cursor key. */
export async function listRuns(db: Executor, options: { workflow?: string; format?: WorkflowFormat; limit: number; before?: CursorKey }): Promise<Keyed<RunRow>[]> {
  const found = await db.select({ ...runColumns, cursorAt: cursorAt(workflowRuns.createdAt) }).from(workflowRuns).leftJoin(stitchRuns, withStarter)
    .where(and(
      options.workflow === undefined ? undefined : eq(workflowRuns.workflow, options.workflow),
      options.format === undefined ? undefined : eq(workflowRuns.format, options.format),
      afterCursor(workflowRuns.createdAt, workflowRuns.id, options.before),
    ))
    .orderBy(desc(workflowRuns.createdAt), desc(workflowRuns.id)).limit(options.limit);
  return keyedRows(found).map(mapItem(runRow));
}

/** The run's status, and its cancellation reason when given (null clears it). */
export async function updateRunStatus(tx: Executor, runId: string, status: string, cancelReason?: string | null): Promise<void> {
  await tx.update(workflowRuns)
    .set({ status, ...(cancelReason === undefined ? {} : { cancelReason }), updatedAt: sql`now()` })
    .where(eq(workflowRuns.id, runId));
}

/** A step run's evaluated `outputs` (null while it runs again after a retry or a resumption). */
export async function setRunOutputs(tx: Executor, runId: string, outputs: RenderedOutputs | null): Promise<void> {
  await tx.update(workflowRuns).set({ outputs, updatedAt: sql`now()` }).where(eq(workflowRuns.id, runId));
}

/** A `workflow_runs` row (with its starter) as `to_jsonb` writes it: snake_case keys, timestamps as text. */
const RunJson = z.object({
  id: z.string(), definition_id: z.string(), workflow: z.string(), version: z.number(), format: z.string(), message: z.string(),
  inputs: z.unknown(), status: z.string(), cancel_reason: z.string().nullable(), outputs: z.unknown().transform((v) => v ?? null),
  created_at: z.string(), updated_at: z.string(), started_by_id: z.string().nullable(), started_by_name: z.string().nullable(),
});
/** The run's `run_steps` rows as `jsonb_agg(to_jsonb(...))` writes them (null: none yet). */
const StepsJson = z
  .array(
    z.object({
      id: z.string(), run_id: z.string(), step_id: z.string(), status: z.string(), input: z.unknown().transform((v) => v ?? null),
      output: z.unknown().transform((v) => v ?? null), error: z.string().nullable(), attempts: z.number(),
      started_at: z.string().nullable(), completed_at: z.string().nullable(),
    }),
  )
  .nullable()
  .transform((steps) => steps ?? []);

/**
 * A step run and its `run_steps` rows read by ONE statement, so that they are of one moment (a run never shows
 * `completed` beside a step still running). Timestamps come back as text.
 */
export async function findRunWithSteps(db: Executor, runId: string): Promise<{ run: RunRow; steps: RunStepRow[] } | undefined> {
  if (!isUuid(runId)) return undefined;
  const [found] = await rows<{ run: unknown; steps: unknown }>(db, sql`
    SELECT to_jsonb(r) || jsonb_build_object('started_by_id', e.started_by_id, 'started_by_name', e.started_by_name) AS run,
      (SELECT jsonb_agg(to_jsonb(s)) FROM run_steps s WHERE s.run_id = r.id) AS steps
    FROM workflow_runs r LEFT JOIN stitch_runs e ON e.id = r.id WHERE r.id = ${runId}`);
  if (!found) return undefined;
  const run = RunJson.parse(found.run);
  return {
    run: runRow({
      id: run.id, definitionId: run.definition_id, workflow: run.workflow, version: run.version, format: run.format,
      message: run.message, inputs: run.inputs, status: run.status, cancelReason: run.cancel_reason,
      outputs: run.outputs, createdAt: run.created_at, updatedAt: run.updated_at,
      startedById: run.started_by_id, startedByName: run.started_by_name,
    }),
    steps: StepsJson.parse(found.steps).map((s) => ({
      id: s.id, runId: s.run_id, stepId: s.step_id, status: s.status, input: s.input, output: s.output,
      error: s.error, attempts: s.attempts, startedAt: s.started_at, completedAt: s.completed_at,
    })),
  };
}

/**
 * What moves whenever anything a workflow run's conversation shows changes: its row (status, outputs), its last turn
 * and its engine run's last event (serial ids, so a newer one is always larger), read in one statement. Undefined for
 * an id that is no workflow run's.
 */
export async function changeMarker(db: Executor, runId: string): Promise<{ marker: string; status: RunStatus } | undefined> {
  if (!isUuid(runId)) return undefined;
  const [found] = await rows<{ status: string; updated_at: unknown; turn: unknown; event: unknown }>(db, sql`
    SELECT r.status, r.updated_at,
      (SELECT max(t.id) FROM workflow_turns t WHERE t.run_id = r.id) AS turn,
      (SELECT max(e.id) FROM stitch_run_events e WHERE e.run_id = r.id) AS event
    FROM workflow_runs r WHERE r.id = ${runId}`);
  if (!found) return undefined;
  const updatedAt = found.updated_at instanceof Date ? found.updated_at.toISOString() : String(found.updated_at);
  return { marker: [updatedAt, found.status, found.turn ?? 0, found.event ?? 0].join("/"), status: RunStatus.parse(found.status) };
}

// ---- Turns ------------------------------------------------------------------------------------

export async function insertTurns(tx: Executor, turns: readonly NewTurn[]): Promise<void> {
  if (turns.length > 0) await tx.insert(workflowTurns).values([...turns]);
}

/** The run's turns, oldest first. */
export function listTurns(db: Executor, runId: string): Promise<TurnRow[]> {
  return db.select().from(workflowTurns).where(eq(workflowTurns.runId, runId)).orderBy(asc(workflowTurns.id));
}

/** The payloads of a node's turns of one kind, oldest first (a loop's iterations), parsed with the kind's `payload` schema. */
export async function listNodeTurnPayloads<T>(db: Executor, runId: string, nodeId: string, kind: string, payload: z.ZodType<T>): Promise<T[]> {
  const found = await db.select({ payload: workflowTurns.payload }).from(workflowTurns)
    .where(and(eq(workflowTurns.runId, runId), eq(workflowTurns.nodeId, nodeId), eq(workflowTurns.kind, kind)))
    .orderBy(asc(workflowTurns.id));
  return found.map((turn) => payload.parse(turn.payload));
}
