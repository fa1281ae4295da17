/**
 * Every database statement of the engine, one function each, and nothing else: the engine's shell decides, the
 * dispatcher delivers, and both come here to read and write. Bulk JSON crosses as one JSONB parameter
 * (jsonb_to_recordset), so a statement costs the same round trip for one row or ten thousand. The statements every
 * event runs (its lock, its reads, its write, a run's start) are written once (`statement`, db/statement.ts) and only
 * filled in at each run.
 */
import { randomUUID } from "node:crypto";
import { type Placeholder, type SQL, and, asc, desc, eq, ne, sql } from "drizzle-orm";
import { type Executor, rows } from "../../db/client";
import { type Placeholders, statement } from "../../db/statement";
import { stitchFlows, stitchRunEvents, stitchRuns } from "../../db/schema";
import { isUuid } from "../lib/uuid";
import { type CursorKey, afterCursor, cursorAt, keyedRows, mapItem } from "../lib/paging";
import { ExternalEvent, ForkOf, ForkedFrom, type ForkVersion, NodeFeedback, type FlowListItem, type FlowVersion, FlowVersionOrigin, type FlowVersionSummary, type NodeStatus, RunOwner, type RunOwnerKind, RunStatus, type StartedBy, StitchGraph } from "./schemas";
import type { NodeRow, RunCounts } from "./transition";
import { REDELIVERY_EVENT } from "./redelivery";

const json = (value: unknown) => JSON.stringify(value ?? null);
const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString());

// ---- Flows and their versions ---------------------------------------------------------------------------------

export interface StoredFlow {
  id: string;
  name: string;
  graph: StitchGraph;
  version: number;
  created_at: string;
  updated_at: string;
}

/** Who saved a version: an account's id and name, as a run's starter is kept. */
export type VersionAuthor = StartedBy;

/** A version to write: its graph, what its author said of it, and how it came to be. */
export interface NewFlowVersion {
  graph: StitchGraph;
  message: string;
  origin: FlowVersionOrigin;
  restoredFrom?: number | null;
  author: VersionAuthor | null;
}

interface FlowRowRead {
  id: string; name: string; graph: unknown; version: number; created_at: unknown; updated_at: unknown;
}

const toFlow = (row: FlowRowRead): StoredFlow => ({
  id: row.id, name: row.name, graph: StitchGraph.parse(row.graph), version: row.version, created_at: iso(row.created_at), updated_at: iso(row.updated_at),
});

/**
 * Creates a flow and its version 1 in one statement (under `id` when the caller chose it). Undefined when a flow with
 * that id exists already, and nothing is written then.
 */
export async function insertFlow(db: Executor, name: string, first: NewFlowVersion, id: string = randomUUID()): Promise<StoredFlow | undefined> {
  const [row] = await rows<FlowRowRead>(db, sql`
    WITH f AS (
      INSERT INTO stitch_flows (id, name, graph) VALUES (${id}, ${name}, ${json(first.graph)}::jsonb)
      ON CONFLICT (id) DO NOTHING
      RETURNING *
    ), v AS (
      INSERT INTO stitch_flow_versions (flow_id, version, graph, message, origin, author_id, author_name, created_at)
      SELECT f.id, 1, f.graph, ${first.message}, ${first.origin}, ${first.author?.id ?? null}, ${first.author?.name ?? null}, f.created_at FROM f
    )
    SELECT id, name, graph, version, created_at, updated_at FROM f`);
  return row && toFlow(row);
}

/** Stores a flow under a chosen id unless one is there: a front door's flow, registered at start-up, is always the same flow. */
export async function insertFlowIfAbsent(db: Executor, id: string, name: string, graph: StitchGraph): Promise<void> {
  await insertFlow(db, name, { graph, message: "Registered by the server", origin: "register", author: null }, id);
}

export async function findFlow(db: Executor, id: string): Promise<StoredFlow | undefined> {
  const [row] = await rows<FlowRowRead>(db, sql`SELECT id, name, graph, version, created_at, updated_at FROM stitch_flows WHERE id = ${id}`);
  return row ? toFlow(row) : undefined;
}

/** A flow's row as a save locks it: its name, its latest version, and whether a front door registered it. */
export interface LockedFlow {
  id: string;
  name: string;
  version: number;
  registered: boolean;
}

/**
 * Locks a flow's row for the rest of the transaction, so versions are added one at a time: the latest version read
 * here stays the latest until the transaction ends. FOR NO KEY UPDATE, so a run's start (which only takes the key
 * share lock of its foreign key) never waits for a save, nor a save for a start. No run is locked by a transaction
 * that saves a version, so this lock takes no part in the engine's order of run locks.
 */
export async function lockFlow(tx: Executor, id: string): Promise<LockedFlow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await rows<LockedFlow>(tx, sql`
    SELECT f.id, f.name, f.version,
      EXISTS (SELECT 1 FROM stitch_flow_versions v WHERE v.flow_id = f.id AND v.version = 1 AND v.origin = 'register') AS registered
    FROM stitch_flows f WHERE f.id = ${id} FOR NO KEY UPDATE OF f`);
  return row;
}

interface VersionRowRead {
  flow_id: string; version: number; message: string; origin: string; restored_from: number | null;
  author_id: string | null; author_name: string | null; created_at: unknown; graph?: unknown;
}

const toVersionSummary = (row: VersionRowRead): FlowVersionSummary => ({
  flow_id: row.flow_id, version: row.version, message: row.message, origin: FlowVersionOrigin.parse(row.origin), restored_from: row.restored_from,
  author: row.author_id === null && row.author_name === null ? null : { id: row.author_id, name: row.author_name }, created_at: iso(row.created_at),
});
const toVersion = (row: VersionRowRead): FlowVersion => ({ ...toVersionSummary(row), graph: StitchGraph.parse(row.graph) });

const VERSION_SUMMARY_COLUMNS = sql.raw("flow_id, version, message, origin, restored_from, author_id, author_name, created_at");

/**
 * Adds version `version` of a locked flow and makes it the flow's latest (its `graph` and `version`), in one
 * statement. The caller holds the flow's lock (`lockFlow`) and has checked that `version` is the next number.
 */
export async function appendFlowVersion(tx: Executor, flowId: string, version: number, next: NewFlowVersion): Promise<FlowVersion> {
  const [row] = await rows<VersionRowRead>(tx, sql`
    WITH v AS (
      INSERT INTO stitch_flow_versions (flow_id, version, graph, message, origin, restored_from, author_id, author_name)
      VALUES (${flowId}, ${version}, ${json(next.graph)}::jsonb, ${next.message}, ${next.origin}, ${next.restoredFrom ?? null}, ${next.author?.id ?? null}, ${next.author?.name ?? null})
      RETURNING *
    ), f AS (
      UPDATE stitch_flows SET graph = v.graph, version = v.version, updated_at = v.created_at FROM v WHERE stitch_flows.id = v.flow_id
    )
    SELECT ${VERSION_SUMMARY_COLUMNS}, graph FROM v`);
  return toVersion(row!);
}

export async function findFlowVersion(db: Executor, flowId: string, version: number): Promise<FlowVersion | undefined> {
  if (!isUuid(flowId)) return undefined;
  const [row] = await rows<VersionRowRead>(db, sql`
    SELECT ${VERSION_SUMMARY_COLUMNS}, graph FROM stitch_flow_versions WHERE flow_id = ${flowId} AND version = ${version}`);
  return row && toVersion(row);
}

/** A flow's versions, newest first, without their graphs. */
export async function listFlowVersions(db: Executor, flowId: string): Promise<FlowVersionSummary[]> {
  if (!isUuid(flowId)) return [];
  const found = await rows<VersionRowRead>(db, sql`
    SELECT ${VERSION_SUMMARY_COLUMNS} FROM stitch_flow_versions WHERE flow_id = ${flowId} ORDER BY version DESC`);
  return found.map(toVersionSummary);
}

/** Up to `limit` flows, the latest saved first. */
export async function listFlows(db: Executor, limit: number): Promise<FlowListItem[]> {
  const found = await rows<{
    id: string; name: string; version: number; author_id: string | null; author_name: string | null; saved_at: unknown; registered: boolean;
    runs_in_progress: number; last_id: string | null; last_status: string | null; last_version: number | null; last_at: unknown; created_at: unknown;
  }>(db, sql`
    SELECT f.id, f.name, f.version, v.author_id, v.author_name, v.created_at AS saved_at, first.origin = 'register' AS registered,
      (SELECT count(*)::int FROM stitch_runs r WHERE r.flow_id = f.id AND r.status IN ('running', 'waiting_for_user')) AS runs_in_progress,
      last.id AS last_id, last.status AS last_status, last.flow_version AS last_version, last.created_at AS last_at, f.created_at
    FROM stitch_flows f
    JOIN stitch_flow_versions v ON v.flow_id = f.id AND v.version = f.version
    JOIN stitch_flow_versions first ON first.flow_id = f.id AND first.version = 1
    LEFT JOIN LATERAL (
      SELECT r.id, r.status, r.flow_version, r.created_at FROM stitch_runs r WHERE r.flow_id = f.id ORDER BY r.created_at DESC, r.id DESC LIMIT 1
    ) last ON true
    ORDER BY v.created_at DESC, f.id
    LIMIT ${limit}`);
  return found.map((f) => ({
    id: f.id, name: f.name, version: f.version, saved_by: f.author_id === null && f.author_name === null ? null : { id: f.author_id, name: f.author_name },
    saved_at: iso(f.saved_at), registered: f.registered, runs_in_progress: f.runs_in_progress,
    last_run: f.last_id === null ? null : { id: f.last_id, status: RunStatus.parse(f.last_status), flow_version: f.last_version!, created_at: iso(f.last_at) },
    created_at: iso(f.created_at),
  }));
}

// ---- Runs -----------------------------------------------------------------------------------------------------

/** Creates a run of an existing flow; undefined when there is no such flow (nothing is written then). */
export interface NewRunOptions {
  runId?: string;
  /** The flow's version to run; its latest when absent. A version the flow does not have creates no run. */
  flowVersion?: number;
  owner?: { kind: RunOwnerKind; runId?: string };
  startedBy?: StartedBy | null;
  /** A fork: the run and node it is forked from, and which version it runs. */
  forkedFrom?: { runId: string; nodeId: string; version: ForkVersion };
}

/**
 * Creates a run of an existing flow and answers it as `lockRun` would: a row created by this transaction is locked by
 * it already, and no other transaction can see it before it commits. Undefined when there is no such flow (nothing
 * is written then).
 */
export async function insertRun(tx: Executor, flowId: string, input: unknown, options: NewRunOptions = {}): Promise<InsertedRun | undefined> {
  const runId = options.runId ?? randomUUID();
  return (await insertRuns(tx, [{ flowId, input, options: { ...options, runId } }])).get(runId);
}

/** A run created by this transaction, as `lockRun` answers it, and when it was created (the transaction's `now()`). */
export type InsertedRun = LockedRun & { createdAt: string };

/** A run to create: its id is chosen by the caller. */
export interface NewRun {
  flowId: string;
  input: unknown;
  options: NewRunOptions & { runId: string };
}

/**
 * Creates runs of existing flows, in one statement, and answers each as `insertRun` does, by its id. A run whose flow
 * does not exist is not created and is absent from the answer. Every flow id must be a UUID (see `isUuid`).
 */
export async function insertRuns(tx: Executor, runs: readonly NewRun[]): Promise<Map<string, InsertedRun>> {
  if (runs.length === 0) return new Map();
  const records = runs.map(({ flowId, input, options: { runId, owner, startedBy, flowVersion, forkedFrom } }) => ({
    id: runId, flow_id: flowId, flow_version: flowVersion ?? null, input: input ?? null, owner: owner?.kind ?? null, owner_run_id: owner ? (owner.runId ?? runId) : null,
    started_by_id: startedBy?.id ?? null, started_by_name: startedBy?.name ?? null,
    forked_from_run_id: forkedFrom?.runId ?? null, forked_from_node: forkedFrom?.nodeId ?? null, fork_version: forkedFrom?.version ?? null,
  }));
  const found = await insertRunsStatement.rows<LockedRunRow & { created_at: unknown }>(tx, { records: json(records) });
  return new Map(found.map((row) => [row.id, { ...toLockedRun(row), createdAt: iso(row.created_at) }]));
}

const insertRunsStatement = statement<"records">((p) => sql`
  WITH r AS (
    INSERT INTO stitch_runs (id, flow_id, flow_version, input, owner, owner_run_id, started_by_id, started_by_name, forked_from_run_id, forked_from_node, fork_version)
    SELECT x.id, f.id, coalesce(x.flow_version, f.version), x.input, x.owner, x.owner_run_id, x.started_by_id, x.started_by_name, x.forked_from_run_id, x.forked_from_node, x.fork_version
    FROM jsonb_to_recordset(${p.records}::jsonb)
      AS x(id uuid, flow_id uuid, flow_version int, input jsonb, owner text, owner_run_id text, started_by_id uuid, started_by_name text, forked_from_run_id uuid, forked_from_node text, fork_version text)
    JOIN stitch_flows f ON f.id = x.flow_id AND coalesce(x.flow_version, f.version) BETWEEN 1 AND f.version
    RETURNING *
  )
  SELECT ${LOCKED_RUN_COLUMNS}, r.created_at FROM r JOIN stitch_flows f ON f.id = r.flow_id`);

/** The owner columns as the API shows them. */
const ownerOf = (kind: string | null, runId: string | null): RunOwner | null => (kind ? RunOwner.parse({ front_door: kind, run_id: runId }) : null);

export interface LockedRun {
  id: string;
  flowId: string;
  /** The flow's name as the lock read it (what a plain flow's run is called). */
  flowName: string;
  /** The version of its flow the run runs (as text: it keys the engine's compiled graphs with the flow's id). */
  flowVersion: string;
  input: unknown;
  owner: RunOwner | null;
  startedBy: StartedBy | null;
  status: RunStatus;
  counts: RunCounts;
}

export { isUuid } from "../lib/uuid";

/**
 * Locks the run's row for the rest of the transaction: events of one run apply one at a time, in any process.
 * This MUST be the first row lock of any transaction that changes a run (engine.ts `onRun`): a front door's rows are
 * locked after it, never before, so two transactions can never wait for each other in a cycle.
 */
export async function lockRun(tx: Executor, runId: string): Promise<LockedRun | undefined> {
  if (!isUuid(runId)) return undefined;
  const [row] = await lockRunStatement.rows<LockedRunRow>(tx, { runId });
  return row && toLockedRun(row);
}

const lockRunStatement = statement<"runId">((p) => sql`
  SELECT ${LOCKED_RUN_COLUMNS}
  FROM stitch_runs r JOIN stitch_flows f ON f.id = r.flow_id
  WHERE r.id = ${p.runId} FOR UPDATE OF r`);

/**
 * Locks many runs' rows at once, in the order of their ids: two transactions that lock several runs this way lock the
 * ones they share in the same order, so neither can hold one the other waits for while waiting for one it holds. As
 * `lockRun`, before any other row lock of the transaction. Ids of no run are left out of the answer.
 */
export async function lockRuns(tx: Executor, runIds: readonly string[]): Promise<LockedRun[]> {
  const ids = runIds.filter(isUuid);
  if (ids.length === 0) return [];
  const found = await lockRunsStatement.rows<LockedRunRow>(tx, { ids: json(ids) });
  return found.map(toLockedRun);
}

const lockRunsStatement = statement<"ids">((p) => sql`
  SELECT ${LOCKED_RUN_COLUMNS}
  FROM stitch_runs r JOIN stitch_flows f ON f.id = r.flow_id
  WHERE r.id = ANY(ARRAY(SELECT jsonb_array_elements_text(${p.ids}::jsonb)::uuid))
  ORDER BY r.id FOR UPDATE OF r`);

interface LockedRunRow {
  id: string; flow_id: string; flow_name: string; flow_version: string; input: unknown; owner: string | null; owner_run_id: string | null; status: RunStatus;
  started_by_id: string | null; started_by_name: string | null; running_count: number; waiting_count: number; failed_count: number;
}

const LOCKED_RUN_COLUMNS = sql.raw(`r.id, r.flow_id, f.name AS flow_name, r.flow_version::text AS flow_version, r.input, r.owner, r.owner_run_id, r.status,
      r.started_by_id, r.started_by_name, r.running_count, r.waiting_count, r.failed_count`);

const toLockedRun = (row: LockedRunRow): LockedRun => ({
  id: row.id, flowId: row.flow_id, flowName: row.flow_name, flowVersion: row.flow_version, input: row.input, owner: ownerOf(row.owner, row.owner_run_id),
  startedBy: row.started_by_name === null && row.started_by_id === null ? null : { id: row.started_by_id, name: row.started_by_name },
  status: RunStatus.parse(row.status), counts: { running: row.running_count, waiting: row.waiting_count, failed: row.failed_count },
});

/** The flow a run executes and the version of its graph it runs, read without a lock. */
export async function readRunFlow(db: Executor, runId: string): Promise<{ flowId: string; flowVersion: string } | undefined> {
  if (!isUuid(runId)) return undefined;
  const [row] = await rows<{ flow_id: string; flow_version: string }>(db, sql`
    SELECT r.flow_id, r.flow_version::text AS flow_version FROM stitch_runs r WHERE r.id = ${runId}`);
  return row ? { flowId: row.flow_id, flowVersion: row.flow_version } : undefined;
}

export interface RunWithStates {
  id: string;
  flow_id: string;
  flow_version: number;
  owner: RunOwner | null;
  status: RunStatus;
  input: unknown;
  created_at: string;
  updated_at: string;
  /** Who started it, when known (not part of the API's run: the decisions and a run's conversation name them). */
  started_by: StartedBy | null;
  states: { node_id: string; status: NodeStatus; output: unknown; error: string | null }[];
  forked_from: ForkedFrom | null;
  forks: ForkOf[];
}

/** The runs of a flow failed now that changed (failed) at or after `since`, newest first. */
export async function listFailedRuns(db: Executor, flowId: string, since: string, limit: number): Promise<{ id: string; flowVersion: string; owner: RunOwner | null }[]> {
  const found = await rows<{ id: string; flow_version: string; owner: string | null; owner_run_id: string | null }>(db, sql`
    SELECT r.id, r.flow_version::text AS flow_version, r.owner, r.owner_run_id FROM stitch_runs r
    WHERE r.flow_id = ${flowId} AND r.status = 'failed' AND r.updated_at >= ${since}::timestamptz
    ORDER BY r.updated_at DESC, r.id DESC LIMIT ${limit}`);
  return found.map((row) => ({ id: row.id, flowVersion: row.flow_version, owner: ownerOf(row.owner, row.owner_run_id) }));
}

/**
 * The engine run a run's id names: the engine run itself (a plain flow run's id, a workflow run's, which are the engine
 * run's own), or the run a front door knows by its own id (a pipeline run's `RUN_...`, kept as `owner_run_id`), the
 * first made when more than one has it. Undefined when no run has that id.
 */
export async function findRunIdByAnyId(db: Executor, runId: string): Promise<string | undefined> {
  const [found] = isUuid(runId)
    ? await rows<{ id: string }>(db, sql`SELECT r.id FROM stitch_runs r WHERE r.id = ${runId}`)
    : await rows<{ id: string }>(db, sql`SELECT r.id FROM stitch_runs r WHERE r.owner_run_id = ${runId} ORDER BY r.created_at, r.id LIMIT 1`);
  return found?.id;
}

/** A run's fork columns, read beside its row (`r`): where it was forked from, as one JSON value, and its forks. */
const LINEAGE_COLUMNS = sql.raw(`
  CASE WHEN r.forked_from_run_id IS NULL THEN NULL ELSE json_build_object(
    'run_id', r.forked_from_run_id, 'node_id', r.forked_from_node, 'by', CASE WHEN r.started_by_id IS NULL AND r.started_by_name IS NULL THEN NULL
    ELSE json_build_object('id', r.started_by_id, 'name', r.started_by_name) END, 'at', r.created_at, 'version', r.fork_version, 'flow_version', r.flow_version) END AS forked_from,
  COALESCE((SELECT json_agg(json_build_object(
      'run_id', k.id, 'node_id', k.forked_from_node, 'by', CASE WHEN k.started_by_id IS NULL AND k.started_by_name IS NULL THEN NULL
      ELSE json_build_object('id', k.started_by_id, 'name', k.started_by_name) END, 'at', k.created_at, 'version', k.fork_version, 'flow_version', k.flow_version,
      'status', k.status) ORDER BY k.created_at, k.id)
    FROM stitch_runs k WHERE k.forked_from_run_id = r.id), '[]'::json) AS forks`);

/** The fork columns as read (LINEAGE_COLUMNS), parsed: JSON from the database enters through its schema. */
const lineageOf = (row: { forked_from: unknown; forks: unknown }): { forked_from: ForkedFrom | null; forks: ForkOf[] } => ({
  forked_from: row.forked_from === null ? null : ForkedFrom.parse(withIsoAt(row.forked_from)),
  forks: ForkOf.array().parse((Array.isArray(row.forks) ? row.forks : []).map(withIsoAt)),
});
const withIsoAt = (value: unknown): unknown =>
  value !== null && typeof value === "object" && "at" in value ? { ...value, at: iso((value as { at: unknown }).at) } : value;

/** Where a run was forked from and its forks, read without a lock; undefined when there is no such run. */
export async function readLineage(db: Executor, runId: string): Promise<{ forked_from: ForkedFrom | null; forks: ForkOf[] } | undefined> {
  if (!isUuid(runId)) return undefined;
  const [row] = await rows<{ forked_from: unknown; forks: unknown }>(db, sql`SELECT ${LINEAGE_COLUMNS} FROM stitch_runs r WHERE r.id = ${runId}`);
  return row && lineageOf(row);
}

/**
 * A run and its node states in one statement, so one snapshot: the run's status and its node states always belong
 * together (two reads could straddle an event's commit and answer, say, a running run whose last node has failed).
 */
export async function readRunWithStates(db: Executor, runId: string): Promise<RunWithStates | undefined> {
  const [run] = await rows<Omit<RunWithStates, "owner" | "started_by"> & {
    owner_kind: string | null; owner_run_id: string | null; started_by_id: string | null; started_by_name: string | null; forked_from: unknown; forks: unknown;
  }>(db, sql`
    SELECT r.id, r.flow_id, r.flow_version, r.owner AS owner_kind, r.owner_run_id, r.status, r.input, r.created_at, r.updated_at, r.started_by_id, r.started_by_name, ${LINEAGE_COLUMNS},
      COALESCE((SELECT json_agg(json_build_object('node_id', s.node_id, 'status', s.status, 'output', s.output, 'error', s.error))
                FROM stitch_node_states s WHERE s.run_id = r.id), '[]'::json) AS states
    FROM stitch_runs r WHERE r.id = ${runId}`);
  if (!run) return undefined;
  const { owner_kind, owner_run_id, started_by_id, started_by_name, forked_from, forks, ...rest } = run;
  return {
    ...rest, ...lineageOf({ forked_from, forks }), owner: ownerOf(owner_kind, owner_run_id), created_at: iso(run.created_at), updated_at: iso(run.updated_at),
    started_by: started_by_id === null && started_by_name === null ? null : { id: started_by_id, name: started_by_name },
  };
}

/**
 * What moves whenever anything happens to a run: its row (status, and `updated_at`, written by every accepted event)
 * and its last event (serial ids, so a newer one is always larger). One row, cheap: a conversation polls it.
 */
export async function changeMarker(db: Executor, runId: string): Promise<{ marker: string; status: RunStatus; owner: RunOwner | null } | undefined> {
  if (!isUuid(runId)) return undefined;
  const [found] = await rows<{ status: string; updated_at: unknown; owner: string | null; owner_run_id: string | null; event: unknown }>(db, sql`
    SELECT r.status, r.updated_at, r.owner, r.owner_run_id, (SELECT max(e.id) FROM stitch_run_events e WHERE e.run_id = r.id) AS event
    FROM stitch_runs r WHERE r.id = ${runId}`);
  if (!found) return undefined;
  return { marker: [iso(found.updated_at), found.status, found.event ?? 0].join("/"), status: RunStatus.parse(found.status), owner: ownerOf(found.owner, found.owner_run_id) };
}

/** Up to `limit` runs (of one flow, or of all) after the cursor, newest first, each with its cursor key. */
/**
 * A run's title as lists show it, read from its input alone: its `title`, `domain` or `message` (the first of them that
 * is a non-empty text; a pipeline run's domain, a workflow run's message), at most 120 characters; null for none.
 */
const runTitle = sql<string | null>`left(coalesce(nullif(btrim(${stitchRuns.input}->>'title'), ''), nullif(btrim(${stitchRuns.input}->>'domain'), ''), nullif(btrim(${stitchRuns.input}->>'message'), '')), 120)`;

export async function listRuns(db: Executor, options: { flowId?: string; limit: number; before?: CursorKey }) {
  const found = await db
    .select({
      id: stitchRuns.id, flowId: stitchRuns.flowId, flowVersion: stitchRuns.flowVersion, owner: stitchRuns.owner, ownerRunId: stitchRuns.ownerRunId, status: stitchRuns.status, createdAt: stitchRuns.createdAt, updatedAt: stitchRuns.updatedAt, flowName: stitchFlows.name,
      title: runTitle,
      cursorAt: cursorAt(stitchRuns.createdAt),
    })
    .from(stitchRuns)
    .innerJoin(stitchFlows, eq(stitchFlows.id, stitchRuns.flowId))
    .where(and(options.flowId ? eq(stitchRuns.flowId, options.flowId) : undefined, afterCursor(stitchRuns.createdAt, stitchRuns.id, options.before)))
    .orderBy(desc(stitchRuns.createdAt), desc(stitchRuns.id))
    .limit(options.limit);
  return keyedRows(found).map(
    mapItem((r) => ({
      id: r.id, flow_id: r.flowId, flow_version: r.flowVersion, flow_name: r.flowName, title: r.title, owner: ownerOf(r.owner, r.ownerRunId), status: RunStatus.parse(r.status), created_at: iso(r.createdAt),
      updated_at: iso(r.updatedAt),
    })),
  );
}

/** The run's accepted events in order. */
export async function listRunEvents(db: Executor, runId: string) {
  const found = await db.select().from(stitchRunEvents).where(eq(stitchRunEvents.runId, runId)).orderBy(asc(stitchRunEvents.id));
  return found.map((e) => ({ id: e.id, node_id: e.nodeId, type: e.type, payload: e.payload, actor: e.actor, created_at: iso(e.createdAt) }));
}

/** One logged event read back as the event that was applied: its node (`key`) and payload put together again. */
export interface LoggedEvent {
  id: number;
  at: string;
  actor: string | null;
  event: ExternalEvent;
}

/**
 * The run's accepted events in order, each parsed with the schema of the events the engine applies (the log keeps
 * an event's node apart from its payload, and a start's payload holds the run's input, which the event does not).
 */
export async function listLoggedEvents(db: Executor, runId: string): Promise<LoggedEvent[]> {
  // A repeated delivery's record is in the log for people, not an event the run was given.
  const found = await db.select().from(stitchRunEvents).where(and(eq(stitchRunEvents.runId, runId), ne(stitchRunEvents.type, REDELIVERY_EVENT))).orderBy(asc(stitchRunEvents.id));
  return found.map((e) => {
    const payload = e.payload !== null && typeof e.payload === "object" && !Array.isArray(e.payload) ? e.payload : {};
    const event = ExternalEvent.parse({ ...payload, type: e.type, ...(e.nodeId === null ? {} : { key: e.nodeId }) });
    return { id: e.id, at: iso(e.createdAt), actor: e.actor, event };
  });
}

/** The graph of one version of a flow: what a run of that version runs on, whatever the flow's latest version is. */
export async function readFlowGraph(tx: Executor, flowId: string, version: string): Promise<StitchGraph> {
  const [row] = await rows<{ graph: unknown }>(tx, sql`SELECT graph FROM stitch_flow_versions WHERE flow_id = ${flowId} AND version = ${Number(version)}`);
  if (!row) throw new Error(`version ${version} of flow ${flowId} vanished`);
  return StitchGraph.parse(row.graph);
}

interface StoredNodeRow {
  node_id: string; status: NodeStatus; output: unknown; error: string | null; input: unknown;
  attempt: number; path_total: number | null; path_done: number; path_failed: number;
  /** JSONB: parsed with its schema where it is read (`toNodeRow`); null on all but a Worker revising after a review. */
  feedback: unknown;
  retry_from: number;
}

type NodeColumn = keyof StoredNodeRow;
const NODE_COLUMN_NAMES: readonly NodeColumn[] = ["node_id", "status", "output", "error", "input", "attempt", "path_total", "path_done", "path_failed", "feedback", "retry_from"];
const NODE_COLUMN_LIST = NODE_COLUMN_NAMES.join(", ");
const NODE_COLUMNS = sql.raw(NODE_COLUMN_LIST);

/** A node row's columns beside other columns, each named `<prefix>.<column>` (null where the row is absent). */
type NodeColumnsAs<P extends string> = { [C in NodeColumn as `${P}.${C}`]: StoredNodeRow[C] | null };
const nodeColumnsAs = (prefix: string, table: string) => sql.raw(NODE_COLUMN_NAMES.map((c) => `${table}.${c} AS "${prefix}.${c}"`).join(", "));
/** The node rows of result rows whose node columns were named by `nodeColumnsAs` (result rows without one left out). */
const nodeRowsAs = <P extends string>(prefix: P, found: readonly NodeColumnsAs<P>[]): NodeRow[] =>
  found
    .filter((row) => row[`${prefix}.node_id`] !== null)
    .map((row) => toNodeRow(Object.fromEntries(NODE_COLUMN_NAMES.map((c) => [c, row[`${prefix}.${c}`]])) as unknown as StoredNodeRow));

/**
 * The rows of `keys` (a placeholder of their JSON array) of the run `runId` (a placeholder or a column) that exist, each
 * looked up through the primary key in a subquery of its own (`OFFSET 0`: see `loadNodeRowsOfRuns` for why), as a
 * subquery to select from.
 */
const rowsOfKeys = (runId: SQL, keys: Placeholder) => sql`
  SELECT n.* FROM jsonb_array_elements_text(${keys}::jsonb) AS k(node_id)
  CROSS JOIN LATERAL (SELECT ${NODE_COLUMNS} FROM stitch_node_states WHERE run_id = ${runId} AND node_id = k.node_id OFFSET 0) n`;

const toNodeRow = (r: StoredNodeRow): NodeRow => ({
  key: r.node_id, status: r.status, output: r.output, error: r.error, input: r.input, attempt: r.attempt,
  pathTotal: r.path_total, pathDone: r.path_done, pathFailed: r.path_failed, feedback: r.feedback === null || r.feedback === undefined ? null : NodeFeedback.parse(r.feedback),
  retryFrom: r.retry_from,
});

/** The rows of `keys` of one run that exist, each looked up through the primary key as `loadNodeRowsOfRuns` says. */
export async function loadNodeRows(tx: Executor, runId: string, keys: readonly string[]): Promise<NodeRow[]> {
  if (keys.length === 0) return [];
  const found = await nodeRowsStatement.rows<StoredNodeRow>(tx, { runId, keys: json(keys) });
  return found.map(toNodeRow);
}

const nodeRowsStatement = statement<"runId" | "keys">((p) => rowsOfKeys(sql`${p.runId}`, p.keys));

/**
 * The rows of several runs in one statement (a batch of events): for each run, the rows of `keys` that exist, each
 * looked up through the primary key (run_id, node_id). The lookup is a subquery of its own (`OFFSET 0` keeps the planner
 * from flattening it into a join), here and in `loadNodeRows`, with both columns given: how many rows the statistics
 * say a run has cannot turn it into a scan of the run:
 * - a key list per run written as `node_id = ANY(ARRAY(SELECT ... w.keys))` is a filter, not an index condition, when the
 *   list depends on the row of `w`: a batch of a 10,000-path fan-out read every row of the run to find its hundred
 *   (100 ms a batch; now a tenth of a millisecond);
 * - for one run, `run_id = $1 AND node_id = ANY(ARRAY(...))` was planned, once the prepared statement's generic plan
 *   took over with the statistics of a young table, as an index scan on `run_id` alone with the keys as a filter: every
 *   event of a 1,000-node chain read its run's 1,000 rows to find one or two (0.22 ms of the database's time a step;
 *   now 0.03).
 */
export async function loadNodeRowsOfRuns(tx: Executor, wanted: readonly { runId: string; keys: readonly string[] }[]): Promise<Map<string, NodeRow[]>> {
  const byRun = new Map<string, NodeRow[]>(wanted.map((w) => [w.runId, []]));
  if (wanted.every((w) => w.keys.length === 0)) return byRun;
  const found = await nodeRowsOfRunsStatement.rows<StoredNodeRow & { run_id: string }>(tx, { wanted: json(wanted) });
  for (const row of found) byRun.get(row.run_id)?.push(toNodeRow(row));
  return byRun;
}

const nodeRowsOfRunsStatement = statement<"wanted">((p) => sql`
  SELECT s.run_id, ${sql.raw(NODE_COLUMN_NAMES.map((c) => `s.${c}`).join(", "))}
  FROM jsonb_to_recordset(${p.wanted}::jsonb) AS w("runId" uuid, keys jsonb)
  CROSS JOIN LATERAL jsonb_array_elements_text(w.keys) AS k(node_id)
  CROSS JOIN LATERAL (SELECT * FROM stitch_node_states WHERE run_id = w."runId" AND node_id = k.node_id OFFSET 0) s`);

/** A run as read without a lock (`readRunUnlocked`): what `lockRun` answers, the run's version, and rows of its nodes. */
export interface SeenRun {
  run: LockedRun;
  /**
   * The run row's version: its `xmin`, the transaction that last wrote it. Every write of a run's node rows updates
   * the run's row in the same statement (`writeEvents`), so while the version holds, nothing the read saw has changed.
   */
  version: string;
  rows: NodeRow[];
}

/**
 * A run and the rows of `keys` that exist, without a lock, in one statement (one snapshot): what an event applied
 * without a transaction reads (engine.ts `applyUnlocked`), its write then guarded by the version read here. Undefined
 * when there is no such run.
 */
export async function readRunUnlocked(db: Executor, runId: string, keys: readonly string[]): Promise<SeenRun | undefined> {
  if (!isUuid(runId)) return undefined;
  // The node's columns are named `node.*` here, apart from the run's (both have a status).
  const found = await runUnlockedStatement.rows<LockedRunRow & { version: string } & NodeColumnsAs<"node">>(db, { runId, keys: json(keys) });
  const [first] = found;
  return first && { run: toLockedRun(first), version: first.version, rows: nodeRowsAs("node", found) };
}

const runUnlockedStatement = statement<"runId" | "keys">((p) => sql`
  SELECT ${LOCKED_RUN_COLUMNS}, r.xmin::text AS version, ${nodeColumnsAs("node", "s")}
  FROM stitch_runs r JOIN stitch_flows f ON f.id = r.flow_id
  LEFT JOIN LATERAL (${rowsOfKeys(sql`r.id`, p.keys)}) s ON true
  WHERE r.id = ${p.runId}`);

/** Every row of a run: only a cancellation needs them all. */
export async function loadAllNodeRows(tx: Executor, runId: string): Promise<NodeRow[]> {
  const found = await rows<StoredNodeRow>(tx, sql`
    SELECT ${NODE_COLUMNS}
    FROM stitch_node_states WHERE run_id = ${runId}`);
  return found.map(toNodeRow);
}

export interface NewDispatch {
  /** `webhook`: POST payload to url; `timeout` / `retry`: a timer that becomes a `timeout` / `retry_due` event when due. */
  kind: "webhook" | "timeout" | "retry";
  key: string;
  attempt: number;
  url: string;
  payload: unknown;
  delayMs: number;
  /**
   * Set when the process writing the row delivers it itself once the transaction commits: the row's id, and it is
   * written claimed by `holder` (its first delivery counted, under a lease of `leaseMs`) as `claimDispatches` would leave it.
   */
  claimed?: { id: string; leaseMs: number; holder: string };
}

export interface EventWrites {
  changed: readonly NodeRow[];
  /** Node keys whose outbox rows (webhooks, timers) go: the node moved on. Deleted before `dispatches` are added. */
  cancelled: readonly string[];
  dispatches: readonly NewDispatch[];
  counts: RunCounts;
  status: RunStatus;
  /** The accepted event, for the run's event log. */
  log: LoggedWrite;
  /** Wake other processes' dispatchers (PostgreSQL only). */
  notify: boolean;
}

export interface LoggedWrite {
  nodeId: string | null;
  type: string;
  payload: unknown;
  actor: string | null;
}

/**
 * What a batch writes for one run: its events' writes put together (the rows as the last event left them, the
 * dispatches none of the later events cancelled, the counters after the last), with every event for the event log.
 */
export type RunWrites = Omit<EventWrites, "log"> & { runId: string; logs: readonly LoggedWrite[] };

/**
 * Everything an accepted event writes, in one statement (one round trip while the run's lock is held): node rows,
 * outbox deletions and insertions, the run's counters and status, the event log and the wake-up.
 */
export function writeEvent(tx: Executor, runId: string, { log, ...w }: EventWrites): Promise<void> {
  return writeEvents(tx, [{ runId, ...w, logs: [log] }]);
}

/**
 * What several runs' accepted events wrote (a batch: each run's put together, see RunWrites), in one statement. Data-modifying
 * CTEs all see the snapshot from before the statement, so a deletion cannot remove the dispatches inserted beside it.
 * Rows are found through the primary keys and the outbox's (run, node) index, one run at a time (LATERAL and
 * `= ANY(ARRAY(...))`), never by a join the planner could turn into a scan of a whole table.
 */
export async function writeEvents(tx: Executor, writes: readonly RunWrites[]): Promise<void> {
  await writeRuns(tx, writes);
}

/**
 * One run's accepted events written outside a transaction, in one statement, if and only if the run is still at
 * `version` (`readRunUnlocked`): answers the run's version after the write, or undefined when nothing was written.
 * The statement first updates the run's row where its version is unchanged, which locks it (the run's row first, as
 * everywhere: every other part of the statement waits for that update's answer), and writes nothing else unless that
 * row was updated. A transaction that changed the run since the read has moved its version, and a transaction holding
 * its lock is waited for, then the version checked on the row it left. `ahead`: keys of rows this write does not
 * change, read in the same statement (absent ones left out): what the run's next event will want, current as of the
 * version answered.
 */
export async function writeEventsIfUnchanged(db: Executor, writes: RunWrites, version: string, ahead: readonly string[] = []): Promise<{ version: string; ahead: NodeRow[] } | undefined> {
  const written = await writeRuns(db, [writes], { version, ahead });
  return written.version === null ? undefined : { version: written.version, ahead: written.ahead };
}

/**
 * `writeEvents`, and with `guard`, only if that one run is still at its version (see `writeEventsIfUnchanged`):
 * answers the run's version after the write (null when a guard kept it from writing) and the rows read `ahead`.
 */
async function writeRuns(tx: Executor, writes: readonly RunWrites[], guard?: { version: string; ahead: readonly string[] }): Promise<{ version: string | null; ahead: NodeRow[] }> {
  const changed = writes.flatMap((w) => w.changed.map((row) => ({ runId: w.runId, ...row })));
  const cancelled = writes.flatMap((w) => w.cancelled.map((key) => ({ runId: w.runId, key })));
  const dispatches = writes.flatMap((w) =>
    w.dispatches.map(({ claimed, ...d }) => ({ runId: w.runId, ...d, ...(claimed ? { claimed_id: claimed.id, lease_ms: claimed.leaseMs, holder: claimed.holder } : {}) })),
  );
  const runs = writes.map((w) => ({ id: w.runId, ...w.counts, status: w.status }));
  const logs = writes.flatMap((w) => w.logs.map((log) => ({ runId: w.runId, ...log, payload: log.payload ?? null }))).map((log, seq) => ({ seq, ...log }));
  const values = {
    runs: json(runs), changed: json(changed), cancelled: json(cancelled), dispatches: json(dispatches), logs: json(logs),
    notify: writes.some((w) => w.notify), aheadRun: writes[0]?.runId ?? null, aheadKeys: json(guard?.ahead ?? []),
  };
  const found = guard === undefined
    ? await writeRunsStatement.rows<WrittenRuns>(tx, values)
    : await writeRunsIfUnchangedStatement.rows<WrittenRuns>(tx, { ...values, version: guard.version });
  return { version: found[0]?.version ?? null, ahead: nodeRowsAs("ahead", found) };
}

type WrittenRuns = { version: string | null } & NodeColumnsAs<"ahead">;
type RunWritesValue = "runs" | "changed" | "cancelled" | "dispatches" | "logs" | "notify" | "aheadRun" | "aheadKeys";

/**
 * `writeRuns`'s statement, written once for each of its two shapes: without a guard, and guarded by the run's
 * version (`version`), where every part but the run's update is kept from writing unless the run's update wrote
 * (`written`, an InitPlan evaluated before the part's first row).
 */
const writeRunsShape = (p: Placeholders<RunWritesValue>, version?: Placeholder) => {
  const written = version ? sql`EXISTS (SELECT 1 FROM counted)` : sql`true`;
  return sql`
    WITH counted AS (
      UPDATE stitch_runs r SET running_count = x.running, waiting_count = x.waiting, failed_count = x.failed, status = x.status, updated_at = now()
      FROM jsonb_to_recordset(${p.runs}::jsonb) AS x(id uuid, running int, waiting int, failed int, status text)
      WHERE r.id = x.id AND r.id = ANY(ARRAY(SELECT (e->>'id')::uuid FROM jsonb_array_elements(${p.runs}::jsonb) e))${version ? sql` AND r.xmin = ${version}::xid` : sql``}
      RETURNING r.xmin::text AS version
    ), saved AS (
      INSERT INTO stitch_node_states AS s (run_id, node_id, status, output, error, input, attempt, path_total, path_done, path_failed, feedback, retry_from, updated_at)
      SELECT x."runId", x.key, x.status, x.output, x.error, x.input, x.attempt, x."pathTotal", x."pathDone", x."pathFailed", x.feedback, x."retryFrom", now()
      FROM jsonb_to_recordset(${p.changed}::jsonb)
        AS x("runId" uuid, key text, status text, output jsonb, error text, input jsonb, attempt int, "pathTotal" int, "pathDone" int, "pathFailed" int, feedback jsonb, "retryFrom" int)
      WHERE ${written}
      ON CONFLICT (run_id, node_id) DO UPDATE SET
        status = excluded.status, output = excluded.output, error = excluded.error, input = excluded.input,
        attempt = excluded.attempt, path_total = excluded.path_total, path_done = excluded.path_done,
        path_failed = excluded.path_failed, feedback = excluded.feedback, retry_from = excluded.retry_from, updated_at = excluded.updated_at
    ), removed AS (
      DELETE FROM stitch_dispatches
      WHERE id = ANY(ARRAY(
        SELECT d.id FROM jsonb_to_recordset(${p.cancelled}::jsonb) AS c("runId" uuid, key text)
        CROSS JOIN LATERAL (SELECT id FROM stitch_dispatches WHERE run_id = c."runId" AND node_id = c.key OFFSET 0) d)) AND ${written}
    ), queued AS (
      INSERT INTO stitch_dispatches (id, run_id, node_id, node_attempt, kind, url, payload, run_at, locked_until, deliveries, claimed_by)
      SELECT COALESCE(x.claimed_id, gen_random_uuid()), x."runId", x.key, x.attempt, x.kind, x.url, x.payload, now() + make_interval(secs => x."delayMs" / 1000.0),
        CASE WHEN x.claimed_id IS NULL THEN NULL ELSE now() + make_interval(secs => x.lease_ms / 1000.0) END,
        CASE WHEN x.claimed_id IS NULL THEN 0 ELSE 1 END, x.holder
      FROM jsonb_to_recordset(${p.dispatches}::jsonb)
        AS x("runId" uuid, kind text, key text, attempt int, url text, payload jsonb, "delayMs" int, claimed_id uuid, lease_ms int, holder text)
      WHERE ${written}
    ), logged AS (
      INSERT INTO stitch_run_events (run_id, node_id, type, payload, actor)
      SELECT x."runId", x."nodeId", x.type, x.payload, x.actor
      FROM jsonb_to_recordset(${p.logs}::jsonb) AS x(seq int, "runId" uuid, "nodeId" text, type text, payload jsonb, actor text)
      WHERE ${written}
      ORDER BY x.seq
    ), woken AS (
      SELECT pg_notify('stitch_dispatch', '') WHERE ${p.notify}::boolean AND ${written}
    ), ahead AS (${rowsOfKeys(sql`${p.aheadRun}::uuid`, p.aheadKeys)})
    SELECT (SELECT count(*) FROM woken) AS woken, (SELECT version FROM counted LIMIT 1) AS version, ${nodeColumnsAs("ahead", "a")}
    FROM (SELECT 1) AS one LEFT JOIN ahead a ON true`;
};
const writeRunsStatement = statement<RunWritesValue>((p) => writeRunsShape(p));
const writeRunsIfUnchangedStatement = statement<RunWritesValue | "version">((p) => writeRunsShape(p, p.version));
