/**
 * Every database statement of the agent pipeline, one function each. Commands call them inside the engine's
 * transaction (so their writes commit with the events they cause), the projection inside the event's transaction,
 * and queries outside any transaction.
 */
import { and, asc, desc, eq, getTableColumns, inArray, notInArray, sql } from "drizzle-orm";
import { type Executor, rows } from "../../db/client";
import { type CursorKey, type Keyed, afterCursor, cursorAt, keyedRows } from "../lib/paging";
import { z } from "zod";
import { pipelineAgents, pipelineArtifacts, pipelineEvents, pipelineRuns, stitchRuns } from "../../db/schema";
import { ArtifactContent, ArtifactMetadata, PipelineAgent, PipelineFork, PipelineForkedFrom, PipelineTurn, RunPhase, type RunState, type SubmittedBy, WaitingFor } from "./schemas";
import { statusText } from "./status";

/**
 * Rows as the pipeline reads them: every JSONB column parsed with its schema here, at the store, so nothing above
 * reads stored JSON by a cast. A row that does not parse is a fault of the data, reported as such.
 */
const StoredAgents = z.array(PipelineAgent);
type RunColumns = typeof pipelineRuns.$inferSelect;
export type PipelineRunRow = Omit<RunColumns, "agents" | "phase"> & { agents: PipelineAgent[]; phase: RunPhase; submittedBy: SubmittedBy | null };
/** A turn to write: who it is about and who acted, and what it says. */
export type TurnOf = { agent: string | null; actor?: string | null } & PipelineTurn;
export type NewTurn = TurnOf & { runId: string };
export type ArtifactRow = Omit<typeof pipelineArtifacts.$inferSelect, "content" | "metadata"> & { content: z.infer<typeof ArtifactContent>; metadata: z.infer<typeof ArtifactMetadata> };
export type TurnRow = Omit<typeof pipelineEvents.$inferSelect, "kind" | "payload"> & PipelineTurn;

type StarterColumns = { startedById: string | null; startedByName: string | null };

function typedRun<R extends Pick<RunColumns, "agents" | "phase"> & StarterColumns>(
  row: R,
): Omit<R, "agents" | "phase" | keyof StarterColumns> & { agents: PipelineAgent[]; phase: RunPhase; submittedBy: SubmittedBy | null } {
  const { startedById, startedByName, agents, phase, ...rest } = row;
  const submittedBy = startedById === null && startedByName === null ? null : { id: startedById, name: startedByName };
  return { ...rest, agents: StoredAgents.parse(agents), phase: RunPhase.parse(phase), submittedBy };
}

/** Who submitted a run is its engine run's starter (read, never written, here: the engine's store writes it). */
const starter = { startedById: stitchRuns.startedById, startedByName: stitchRuns.startedByName };

const typedArtifact = (row: typeof pipelineArtifacts.$inferSelect): ArtifactRow => ({ ...row, content: ArtifactContent.parse(row.content), metadata: ArtifactMetadata.parse(row.metadata) });

function typedTurn(row: typeof pipelineEvents.$inferSelect): TurnRow {
  const { kind, payload, ...rest } = row;
  return { ...rest, ...PipelineTurn.parse({ kind, payload }) };
}

/**
 * The definition in force, in place of the one stored before: each agent's row is inserted or updated in place, and
 * only the rows of agents the definition no longer has are deleted, so a row that stays is never deleted and inserted
 * again. Processes starting together each store the list one at a time (a transaction-scoped advisory lock): they
 * store the same rows, and the second finds them stored.
 */
export async function storeAgents(tx: Executor, agents: readonly PipelineAgent[]): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('stitch.pipeline_agents'))`);
  const slugs = agents.map((a) => a.slug);
  await tx.delete(pipelineAgents).where(slugs.length > 0 ? notInArray(pipelineAgents.slug, slugs) : sql`true`);
  if (agents.length === 0) return;
  const values = agents.map((a) => ({
    slug: a.slug, name: a.name, order: a.order, artifactType: a.artifact_type, webhookUrl: a.webhook_url,
    webhookPath: a.webhook_path ?? null, context: a.context, builtin: a.builtin,
  }));
  // Updated only where something differs, so a start with the same definition writes nothing.
  const keys = ["name", "order", "artifactType", "webhookUrl", "webhookPath", "context", "builtin"] as const;
  const columns = keys.map((key) => `"${pipelineAgents[key].name}"`);
  const set = Object.fromEntries(keys.map((key, i) => [key, sql.raw(`excluded.${columns[i]}`)]));
  await tx.insert(pipelineAgents).values(values).onConflictDoUpdate({
    target: pipelineAgents.slug,
    set: { ...set, updatedAt: sql`now()` },
    setWhere: sql.raw(`(${columns.map((c) => `pipeline_agents.${c}`).join(", ")}) IS DISTINCT FROM (${columns.map((c) => `excluded.${c}`).join(", ")})`),
  });
}

export async function insertRun(
  tx: Executor, run: { id: string; domain: string; brief: string; state: RunState; stitchRunId: string; agents: readonly PipelineAgent[] },
): Promise<void> {
  await tx.insert(pipelineRuns).values({
    id: run.id, domain: run.domain, brief: run.brief, status: statusText(run.state), phase: run.state.phase, currentAgent: run.state.agent,
    isWaitingForUser: false, stitchRunId: run.stitchRunId, agents: run.agents,
  });
}

/** The engine run a pipeline run is lowered onto (it never changes, so it is read without a lock). */
export async function stitchRunIdOf(db: Executor, runId: string): Promise<string | undefined> {
  const [run] = await db.select({ stitchRunId: pipelineRuns.stitchRunId }).from(pipelineRuns).where(eq(pipelineRuns.id, runId));
  return run?.stitchRunId;
}

/**
 * Locks the pipeline run's row for the rest of the transaction. Only ever AFTER its engine run's row (engine.ts
 * `onRun`): the product's one lock order is the engine's run first, then a front door's rows.
 */
export async function lockRun(tx: Executor, runId: string): Promise<PipelineRunRow | undefined> {
  const [run] = await tx
    .select({ ...getTableColumns(pipelineRuns), ...starter })
    .from(pipelineRuns)
    .innerJoin(stitchRuns, eq(stitchRuns.id, pipelineRuns.stitchRunId))
    .where(eq(pipelineRuns.id, runId))
    .for("update", { of: pipelineRuns });
  return run && typedRun(run);
}

export async function findRun(db: Executor, runId: string): Promise<PipelineRunRow | undefined> {
  const [run] = await db.select({ ...getTableColumns(pipelineRuns), ...starter }).from(pipelineRuns).innerJoin(stitchRuns, eq(stitchRuns.id, pipelineRuns.stitchRunId)).where(eq(pipelineRuns.id, runId));
  return run && typedRun(run);
}

export async function findRunByStitchRun(db: Executor, stitchRunId: string): Promise<PipelineRunRow | undefined> {
  const [run] = await db
    .select({ ...getTableColumns(pipelineRuns), ...starter })
    .from(pipelineRuns)
    .innerJoin(stitchRuns, eq(stitchRuns.id, pipelineRuns.stitchRunId))
    .where(eq(pipelineRuns.stitchRunId, stitchRunId));
  return run && typedRun(run);
}

/** The submitter's new brief, which the agents read from here on (the one it replaces is kept in its turn). */
export async function updateBrief(tx: Executor, runId: string, brief: string): Promise<void> {
  await tx.update(pipelineRuns).set({ brief, updatedAt: sql`now()` }).where(eq(pipelineRuns.id, runId));
}

/** Whether a person has approved any output of the run yet. */
export async function hasApproval(db: Executor, runId: string): Promise<boolean> {
  const [found] = await db.select({ id: pipelineEvents.id }).from(pipelineEvents).where(and(eq(pipelineEvents.runId, runId), eq(pipelineEvents.kind, "approved"))).limit(1);
  return found !== undefined;
}

/** A run as lists show it: every column but the brief (which may be megabytes long), and who its open review waits for. */
export type PipelineRunListRow = Omit<PipelineRunRow, "brief"> & { waitingFor: WaitingFor | null };

/** The assignee of the run's open decision, read (never written) from the decisions' table. */
const waitingForColumn = sql<unknown>`(
  SELECT json_build_object('kind', CASE WHEN d.assignee_account_id IS NULL THEN 'role' ELSE 'account' END, 'id', d.assignee_account_id, 'name', d.assignee_name, 'role', d.assignee_role)
  FROM decisions d WHERE d.run_id = ${pipelineRuns.id} AND d.front_door = 'pipeline' AND d.state = 'open' ORDER BY d.waiting_since DESC LIMIT 1)`;

/**
 * What moves whenever anything the run list shows changes: how many runs there are, the latest change of any (the
 * projection writes `updated_at` with every state), and the last decision event (a claim, a release or an assignment
 * changes whom a run waits for; any decision's, so no join). One row; `active` when any run can still change, `busy`
 * when an agent is drafting for any (in progress or retrying).
 */
export async function listChangeMarker(db: Executor): Promise<{ marker: string; active: boolean; busy: boolean }> {
  const [found] = await rows<{ runs: unknown; updated_at: unknown; active: boolean | null; busy: boolean | null; decision_event: unknown }>(db, sql`
    SELECT count(*) AS runs, max(updated_at) AS updated_at, bool_or(phase NOT IN ('completed', 'cancelled', 'failed')) AS active,
      bool_or(phase IN ('in_progress', 'retrying')) AS busy,
      (SELECT max(e.id) FROM decision_events e) AS decision_event
    FROM pipeline_runs`);
  const updatedAt = found?.updated_at instanceof Date ? found.updated_at.toISOString() : String(found?.updated_at ?? "");
  return { marker: [found?.runs ?? 0, updatedAt, found?.decision_event ?? 0].join("/"), active: found?.active === true, busy: found?.busy === true };
}

/** Up to `limit` runs after the cursor, newest first, each with its cursor key. */
export async function listRuns(db: Executor, page: { limit: number; before?: CursorKey }): Promise<Keyed<PipelineRunListRow>[]> {
  const { brief: _brief, ...columns } = getTableColumns(pipelineRuns);
  const found = await db
    .select({ ...columns, ...starter, waitingFor: waitingForColumn, cursorAt: cursorAt(pipelineRuns.createdAt) })
    .from(pipelineRuns)
    // A list never drops a run: one whose engine run cannot be read is listed with no starter.
    .leftJoin(stitchRuns, eq(stitchRuns.id, pipelineRuns.stitchRunId))
    .where(afterCursor(pipelineRuns.createdAt, pipelineRuns.id, page.before))
    .orderBy(desc(pipelineRuns.createdAt), desc(pipelineRuns.id))
    .limit(page.limit);
  return keyedRows(found.map(({ waitingFor, ...row }) => ({ ...typedRun(row), waitingFor: waitingFor === null ? null : WaitingFor.parse(waitingFor) })));
}

/** What the projection writes when an engine event moves the run: its typed state (and the status string from it) and why it failed. */
export async function updateRunState(tx: Executor, runId: string, state: RunState, failure: string | null): Promise<void> {
  await tx
    .update(pipelineRuns)
    .set({
      status: statusText(state), phase: state.phase, currentAgent: state.agent, isWaitingForUser: state.phase === "waiting_approval", failure,
      updatedAt: sql`now()`,
    })
    .where(eq(pipelineRuns.id, runId));
}

export async function latestArtifact(tx: Executor, runId: string, artifactType: string): Promise<{ version: number; content: unknown } | undefined> {
  const [latest] = await tx
    .select({ version: pipelineArtifacts.version, content: pipelineArtifacts.content })
    .from(pipelineArtifacts)
    .where(and(eq(pipelineArtifacts.runId, runId), eq(pipelineArtifacts.artifactType, artifactType)))
    .orderBy(desc(pipelineArtifacts.version))
    .limit(1);
  return latest;
}

export async function insertArtifact(
  tx: Executor, artifact: { runId: string; artifactType: string; version: number; content: unknown; metadata: unknown },
): Promise<number> {
  const [stored] = await tx.insert(pipelineArtifacts).values(artifact).returning({ id: pipelineArtifacts.id });
  return stored!.id;
}

export async function listArtifacts(db: Executor, runId: string, artifactType?: string): Promise<ArtifactRow[]> {
  const found = await db
    .select()
    .from(pipelineArtifacts)
    .where(artifactType ? and(eq(pipelineArtifacts.runId, runId), eq(pipelineArtifacts.artifactType, artifactType)) : eq(pipelineArtifacts.runId, runId))
    .orderBy(asc(pipelineArtifacts.id));
  return found.map(typedArtifact);
}

/** The content of the latest version of each artifact type of a run: what the next agent's context is made of. */
export async function latestContents(db: Executor, runId: string): Promise<Map<string, unknown>> {
  const found = await rows<{ artifact_type: string; content: unknown }>(db, sql`
    SELECT DISTINCT ON (artifact_type) artifact_type, content FROM pipeline_artifacts
    WHERE run_id = ${runId} ORDER BY artifact_type, version DESC`);
  return new Map(found.map((r) => [r.artifact_type, r.content]));
}

/**
 * What moves whenever the pipeline's side of a run's conversation changes: the run's row (its state), its last turn and
 * its last artifact version (serial ids, so a newer one is always larger). One row; undefined for no such run.
 */
export async function changeMarker(db: Executor, runId: string): Promise<{ marker: string; phase: RunPhase; stitchRunId: string } | undefined> {
  const [found] = await rows<{ updated_at: unknown; phase: string; current_agent: string | null; waiting: boolean; stitch_run_id: string; turn: unknown; artifact: unknown }>(db, sql`
    SELECT r.updated_at, r.phase, r.current_agent, r.is_waiting_for_user AS waiting, r.stitch_run_id,
      (SELECT max(e.id) FROM pipeline_events e WHERE e.run_id = r.id) AS turn,
      (SELECT max(a.id) FROM pipeline_artifacts a WHERE a.run_id = r.id) AS artifact
    FROM pipeline_runs r WHERE r.id = ${runId}`);
  if (!found) return undefined;
  const updatedAt = found.updated_at instanceof Date ? found.updated_at.toISOString() : String(found.updated_at);
  return {
    marker: [updatedAt, found.phase, found.current_agent ?? "", found.waiting, found.turn ?? 0, found.artifact ?? 0].join("/"),
    phase: RunPhase.parse(found.phase),
    stitchRunId: found.stitch_run_id,
  };
}

export async function insertTurns(tx: Executor, turns: readonly NewTurn[]): Promise<void> {
  if (turns.length > 0) await tx.insert(pipelineEvents).values(turns.map((turn) => ({ ...turn, payload: PipelineTurn.parse(turn).payload })));
}

/** When the agent was last called on the run (its latest `started` turn); undefined when never. */
export async function agentCalledAt(db: Executor, runId: string, slug: string): Promise<Date | undefined> {
  const [turn] = await db.select({ at: pipelineEvents.createdAt }).from(pipelineEvents)
    .where(and(eq(pipelineEvents.runId, runId), eq(pipelineEvents.agent, slug), eq(pipelineEvents.kind, "started")))
    .orderBy(desc(pipelineEvents.id)).limit(1);
  return turn ? new Date(turn.at) : undefined;
}

export async function listTurns(db: Executor, runId: string): Promise<TurnRow[]> {
  const found = await db.select().from(pipelineEvents).where(eq(pipelineEvents.runId, runId)).orderBy(asc(pipelineEvents.id));
  return found.map(typedTurn);
}

/**
 * A fork's copies of its parent's versions of `artifactTypes`: every version, with its number, content and metadata, and
 * `copied_from` (the parent and its version) in the metadata, so the fork's next version of a type follows on and
 * every copy says where it came from. Answers the copies' ids by type and version.
 */
export async function copyArtifacts(tx: Executor, fromRunId: string, toRunId: string, artifactTypes: readonly string[]): Promise<ArtifactRow[]> {
  if (artifactTypes.length === 0) return [];
  const found = await tx.select().from(pipelineArtifacts)
    .where(and(eq(pipelineArtifacts.runId, fromRunId), inArray(pipelineArtifacts.artifactType, [...artifactTypes])))
    .orderBy(asc(pipelineArtifacts.id));
  if (found.length === 0) return [];
  const copies = found.map(typedArtifact).map((a) => ({
    runId: toRunId, artifactType: a.artifactType, version: a.version, content: a.content,
    metadata: { ...(a.metadata ?? {}), copied_from: { run_id: fromRunId, version: a.version } },
  }));
  const stored = await tx.insert(pipelineArtifacts).values(copies).returning();
  return stored.map(typedArtifact);
}

/** Where a pipeline run was forked from, and its forks, as pipeline runs (read from the engine's runs, never written here). */
export async function lineage(db: Executor, stitchRunId: string): Promise<{ forkedFrom: PipelineForkedFrom | null; forks: PipelineFork[] }> {
  const found = await rows<{ run_id: string; node_id: string; by: string | null; at: unknown; version: string; parent: boolean }>(db, sql`
    SELECT p.id AS run_id, me.forked_from_node AS node_id, me.started_by_name AS by, me.created_at AS at, me.fork_version AS version, true AS parent
      FROM stitch_runs me JOIN pipeline_runs p ON p.stitch_run_id = me.forked_from_run_id WHERE me.id = ${stitchRunId}
    UNION ALL
    SELECT p.id, k.forked_from_node, k.started_by_name, k.created_at, k.fork_version, false
      FROM stitch_runs k JOIN pipeline_runs p ON p.stitch_run_id = k.id WHERE k.forked_from_run_id = ${stitchRunId}
    ORDER BY at`);
  const read = (r: (typeof found)[number]) => ({
    run_id: r.run_id, node_id: r.node_id, agent: r.node_id.replace(/^(agent|review)_/, "") || null, by: r.by,
    at: r.at instanceof Date ? r.at.toISOString() : new Date(String(r.at)).toISOString(), version: r.version,
  });
  const parent = found.find((r) => r.parent);
  return { forkedFrom: parent ? PipelineForkedFrom.parse(read(parent)) : null, forks: PipelineFork.array().parse(found.filter((r) => !r.parent).map(read)) };
}
