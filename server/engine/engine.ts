/**
 * The engine's shell: it stores, locks and loads around the pure `transition`.
 * Every external event runs in one transaction with the run's row locked: load what the step needs,
 * apply the pure step and its follow-ups, then write node rows, outbox rows, run counters and the event log
 * together. Nothing about a run lives in memory between events (Requirement 11).
 */
import { asc, desc, eq, sql } from "drizzle-orm";
import type { Database, Executor } from "../../db/client";
import { rows } from "../../db/client";
import { stitchFlows, stitchRunEvents, stitchRuns } from "../../db/schema";
import { type CompiledGraph, GraphError, compileGraph } from "./graph";
import type { NodeState, NodeStatus, RunStatus, StitchFlow, StitchGraph, StitchRun } from "./schemas";
import { callbackToken, isValidCallbackToken } from "./callbackToken";
import * as store from "./store";
import {
  type EngineEvent, type ExternalEvent, type NodeRow, type RejectionCode, type RunContext, type RunCounts,
  countDelta, newRow, requiredKeys, runStatusAfter, transition,
} from "./transition";

/** An event addressed to one node (everything but a run's start and its cancellation). */
export type KeyedEvent = Exclude<ExternalEvent, { type: "start" } | { type: "cancel" }>;

export type EngineErrorCode = RejectionCode | "invalid_graph" | "unauthorized";

/** A typed refusal: nothing was changed. Adapters map `code` to their status (REST: 404, 409, 400). */
export class EngineError extends Error {
  override name = "EngineError";
  constructor(readonly code: EngineErrorCode, message: string) {
    super(message);
  }
}

export interface EventResult {
  runId: string;
  nodeId: string | null;
  /** True when the event repeated one already applied: it changed nothing. */
  duplicate: boolean;
  message?: string;
  node?: NodeState;
  runStatus: RunStatus;
}

/** Engine operations bound to one open transaction (see `Engine.transaction`). */
export interface EngineOps {
  /** Starts a run; `runId` lets a caller that must reference the run before it exists choose its id. */
  startRun(flowId: string, input: unknown, runId?: string): Promise<string>;
  handle(runId: string, event: KeyedEvent, actor?: string | null): Promise<EventResult>;
  /** Cancels the run: every unfinished node stops and nothing more is sent. */
  cancel(runId: string, reason?: string, actor?: string | null): Promise<EventResult>;
}

/**
 * What one transaction changed in a run, handed to observers inside that transaction, so a projection
 * (the agent pipeline's run status and conversation) commits or rolls back with the change itself.
 */
export interface RunTransition {
  runId: string;
  graph: CompiledGraph;
  event: EngineEvent;
  actor: string | null;
  changes: { key: string; before: NodeStatus | undefined; after: NodeRow }[];
}
export type TransitionObserver = (tx: Executor, transition: RunTransition) => Promise<void>;

export interface EngineOptions {
  /** NEXT_PUBLIC_BASE_URL */
  baseUrl: string;
  /** Called after a commit that wrote outbox rows, so the local dispatcher sends them at once. */
  onDispatch?: () => void;
  /** STITCH_CALLBACK_SECRET: callback URLs carry a token and callbacks must present it (callbackToken.ts). */
  callbackSecret?: string;
}

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString());

export function toNodeState(row: Pick<NodeRow, "status" | "output" | "error">): NodeState {
  return { status: row.status, output: row.output ?? null, ...(row.error ? { error: row.error } : {}) };
}

/** Where in `value` a string (or key) holds U+0000, which PostgreSQL cannot store in text or jsonb. */
function nulPath(value: unknown, path: string): string | undefined {
  if (typeof value === "string") return value.includes("\u0000") ? path : undefined;
  if (value === null || typeof value !== "object") return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const here = path ? `${path}.${key}` : key;
    if (key.includes("\u0000")) return here;
    const found = nulPath(inner, here);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Refuses, as a bad request, a value that would otherwise fail deep in the database as an internal error. */
function refuseUnstorable(value: unknown, name: string): void {
  const where = nulPath(value, name);
  if (where !== undefined) {
    throw new EngineError("bad_request", `${where || "value"} contains the NUL character (\\u0000), which cannot be stored; remove it`);
  }
}

export class Engine {
  private readonly graphs = new Map<string, CompiledGraph>();
  private readonly observers: TransitionObserver[] = [];

  constructor(
    readonly database: Database,
    private readonly options: EngineOptions,
  ) {}

  /** Registers a projection that runs inside every event's transaction, after the engine's own writes. */
  observe(observer: TransitionObserver): void {
    this.observers.push(observer);
  }

  // ---- Flows ----------------------------------------------------------------------------------

  async createFlow(name: string, graph: StitchGraph): Promise<StitchFlow> {
    refuseUnstorable({ name, graph }, "");
    try {
      compileGraph(graph);
    } catch (error) {
      if (error instanceof GraphError) throw new EngineError("invalid_graph", `graph: ${error.message}`);
      throw error;
    }
    const [row] = await this.database.run((db) => db.insert(stitchFlows).values({ name, graph }).returning());
    return this.toFlow(row!);
  }

  /** Stores a flow under a caller-chosen id unless it already exists (flows are immutable, so it is the same flow). */
  async ensureFlow(id: string, name: string, graph: StitchGraph): Promise<void> {
    try {
      compileGraph(graph);
    } catch (error) {
      if (error instanceof GraphError) throw new EngineError("invalid_graph", `graph: ${error.message}`);
      throw error;
    }
    await this.database.run((db) => db.insert(stitchFlows).values({ id, name, graph }).onConflictDoNothing());
  }

  async getFlow(id: string): Promise<StitchFlow> {
    if (!store.isUuid(id)) throw new EngineError("not_found", `no flow with id "${id}"`);
    const [row] = await this.database.run((db) => db.select().from(stitchFlows).where(eq(stitchFlows.id, id)));
    if (!row) throw new EngineError("not_found", `no flow with id "${id}"`);
    return this.toFlow(row);
  }

  async listFlows(): Promise<Pick<StitchFlow, "id" | "name" | "created_at">[]> {
    const found = await this.database.run((db) =>
      db.select({ id: stitchFlows.id, name: stitchFlows.name, createdAt: stitchFlows.createdAt }).from(stitchFlows).orderBy(desc(stitchFlows.createdAt)).limit(200),
    );
    return found.map((f) => ({ id: f.id, name: f.name, created_at: iso(f.createdAt) }));
  }

  private toFlow(row: typeof stitchFlows.$inferSelect): StitchFlow {
    return { id: row.id, name: row.name, graph: row.graph, created_at: iso(row.createdAt), updated_at: iso(row.updatedAt) };
  }

  private async compiled(tx: Executor, flowId: string, version: string): Promise<CompiledGraph> {
    const cacheKey = `${flowId}@${version}`;
    let g = this.graphs.get(cacheKey);
    if (!g) {
      g = compileGraph(await store.readFlowGraph(tx, flowId));
      if (this.graphs.size > 200) this.graphs.clear();
      this.graphs.set(cacheKey, g);
    }
    return g;
  }

  // ---- Runs -----------------------------------------------------------------------------------

  /** Creates the run with every node `pending` (Requirement 2.6) and fires its entry nodes, in one transaction. */
  async startRun(flowId: string, input: unknown): Promise<StitchRun> {
    const runId = await this.transaction((ops) => ops.startRun(flowId, input));
    return this.getRun(runId);
  }

  /**
   * A worker's callback from outside: with a callback secret configured, only one presenting the token of its
   * callback URL is taken. Throws `unauthorized` otherwise, before anything is read or written.
   */
  authorizeCallback(runId: string, nodeId: string, token: string | undefined): void {
    const secret = this.options.callbackSecret;
    if (!secret || isValidCallbackToken(secret, runId, nodeId, token)) return;
    throw new EngineError(
      "unauthorized",
      token ? `the callback token is not valid for node "${nodeId}" of run "${runId}"` : "this callback needs the token of its callback URL (?token=...)",
    );
  }

  /**
   * The one door for every external event: callbacks, UX completions, reviews, retries, delivery failures, timers.
   * Either the whole event is applied or, when refused, nothing is (the transaction rolls back).
   */
  handle(runId: string, event: KeyedEvent, actor: string | null = null): Promise<EventResult> {
    return this.transaction((ops) => ops.handle(runId, event, actor));
  }

  cancel(runId: string, reason?: string, actor: string | null = null): Promise<EventResult> {
    return this.transaction((ops) => ops.cancel(runId, reason, actor));
  }

  /**
   * Runs `fn` in one transaction with engine operations bound to it, so a caller's own writes (the pipeline's
   * artifacts, say) commit or roll back together with the events they cause. Dispatches are sent after commit.
   */
  async transaction<T>(fn: (ops: EngineOps, tx: Executor) => Promise<T>): Promise<T> {
    let dispatched = 0;
    const result = await this.database.transaction((tx) => {
      const ops: EngineOps = {
        startRun: async (flowId, input, runId) => {
          const { runId: id, dispatched: n } = await this.startRunWithin(tx, flowId, input, runId);
          dispatched += n;
          return id;
        },
        handle: async (runId, event, actor = null) => {
          const { result: r, dispatched: n } = await this.handleWithin(tx, runId, event, actor);
          dispatched += n;
          return r;
        },
        cancel: (runId, reason, actor = null) => this.handleWithin(tx, runId, { type: "cancel", ...(reason?.trim() ? { reason: reason.trim() } : {}) }, actor).then(({ result: r }) => r),
      };
      return fn(ops, tx);
    });
    if (dispatched > 0) this.options.onDispatch?.();
    return result;
  }

  private async startRunWithin(tx: Executor, flowId: string, input: unknown, runId?: string) {
    refuseUnstorable(input, "input");
    if (!store.isUuid(flowId)) throw new EngineError("not_found", `no flow with id "${flowId}"`);
    const [flow] = await tx.select({ id: stitchFlows.id }).from(stitchFlows).where(eq(stitchFlows.id, flowId));
    if (!flow) throw new EngineError("not_found", `no flow with id "${flowId}"`);
    const [run] = await tx.insert(stitchRuns).values({ ...(runId ? { id: runId } : {}), flowId, input: input ?? null }).returning({ id: stitchRuns.id });
    const locked = (await store.lockRun(tx, run!.id))!;
    const g = await this.compiled(tx, flowId, locked.flowVersion);
    const initial = [...g.nodes.keys()].map(newRow);
    const log = { nodeId: null, type: "start", payload: { input: input ?? null }, actor: null };
    const applied = await this.apply(tx, locked, g, { type: "start" }, new Map(initial.map((r) => [r.key, r])), log, { seedIsNew: true });
    return { runId: run!.id, dispatched: applied.dispatched };
  }

  private async handleWithin(tx: Executor, runId: string, event: Exclude<ExternalEvent, { type: "start" }>, actor: string | null) {
    const { type, ...carried } = event;
    const key = "key" in event ? event.key : null;
    refuseUnstorable({ ...carried, actor }, "");
    const locked = await store.lockRun(tx, runId);
    if (!locked) throw new EngineError("not_found", `no run with id "${runId}"`);
    const g = await this.compiled(tx, locked.flowId, locked.flowVersion);
    // A cancellation reads every row of the run; any other event loads only the rows it needs.
    const seed = type === "cancel" ? new Map((await store.loadAllNodeRows(tx, runId)).map((row) => [row.key, row])) : new Map<string, NodeRow>();
    const { key: _key, ...payload } = carried as typeof carried & { key?: string };
    const applied = await this.apply(tx, locked, g, event, seed, { nodeId: key, type, payload, actor });
    const result: EventResult = {
      runId,
      nodeId: key,
      duplicate: applied.duplicate,
      ...(applied.message ? { message: applied.message } : {}),
      ...(applied.node ? { node: toNodeState(applied.node) } : {}),
      runStatus: applied.runStatus,
    };
    return { result, dispatched: applied.dispatched };
  }

  /**
   * Runs the event and its follow-ups to quiescence inside `tx`, then writes everything they changed. `seedIsNew`:
   * the seed rows are not stored yet (a run's start), so they are written with the event's changes.
   */
  private async apply(
    tx: Executor, run: store.LockedRun, g: CompiledGraph, event: EngineEvent, seed: Map<string, NodeRow>, log: store.EventWrites["log"],
    { seedIsNew = false } = {},
  ) {
    const { actor } = log;
    const secret = this.options.callbackSecret;
    const ctx: RunContext = {
      runId: run.id,
      runInput: run.input,
      baseUrl: this.options.baseUrl,
      ...(secret ? { callbackToken: (key: string) => callbackToken(secret, run.id, key) } : {}),
    };
    const cache = new Map<string, NodeRow>(seed);
    const absent = new Set<string>();
    const before = new Map<string, NodeStatus | undefined>(seedIsNew ? [...seed.keys()].map((key) => [key, undefined]) : []);
    const dispatches: store.NewDispatch[] = [];
    const cancelled = new Set<string>();
    const queue: EngineEvent[] = [event];
    let first = true;
    let duplicate = false;
    let message: string | undefined;
    while (queue.length > 0) {
      const current = queue.shift()!;
      const missing = requiredKeys(g, current).filter((k) => !cache.has(k) && !absent.has(k));
      if (missing.length > 0) {
        const loaded = await store.loadNodeRows(tx, run.id, missing);
        for (const row of loaded) cache.set(row.key, row);
        for (const key of missing) if (!cache.has(key)) absent.add(key);
      }
      const step = transition(g, cache, current, ctx);
      if (first) {
        first = false;
        if (step.outcome.kind === "rejected") throw new EngineError(step.outcome.code, step.outcome.message);
        if (step.outcome.kind === "duplicate") {
          duplicate = true;
          message = step.outcome.message;
          break;
        }
      }
      for (const change of step.changes) {
        if (!before.has(change.key)) before.set(change.key, cache.get(change.key)?.status);
        cache.set(change.key, change);
        absent.delete(change.key);
      }
      for (const effect of step.effects) {
        if (effect.type === "cancel_dispatches") cancelled.add(effect.key);
        else if (effect.type === "schedule_timeout" || effect.type === "schedule_retry") {
          const kind = effect.type === "schedule_timeout" ? "timeout" : "retry";
          dispatches.push({ kind, key: effect.key, attempt: effect.attempt, url: "", payload: { afterMs: effect.afterMs }, delayMs: effect.afterMs });
        } else dispatches.push({ kind: "webhook", key: effect.key, attempt: effect.attempt, url: effect.url, payload: effect.payload, delayMs: 0 });
      }
      queue.push(...step.next);
    }
    const key = "key" in event ? event.key : undefined;
    const node = key ? cache.get(key) : undefined;
    if (duplicate) return { duplicate, message, node, dispatched: 0, runStatus: run.status };

    const counts: RunCounts = { ...run.counts };
    const changed: NodeRow[] = [];
    for (const [k, was] of before) {
      const now = cache.get(k)!;
      changed.push(now);
      const d = countDelta(was, now.status);
      counts.running += d.running;
      counts.waiting += d.waiting;
      counts.failed += d.failed;
    }
    const runStatus = runStatusAfter(run.status, event, counts);
    await store.writeEvent(tx, run.id, {
      changed, cancelled: [...cancelled], dispatches, counts, status: runStatus, log,
      notify: dispatches.length > 0 && this.database.kind === "postgres",
    });
    if (this.observers.length > 0) {
      const transition: RunTransition = {
        runId: run.id, graph: g, event, actor,
        changes: [...before].map(([k, was]) => ({ key: k, before: was, after: cache.get(k)! })),
      };
      for (const observer of this.observers) await observer(tx, transition);
    }
    return { duplicate, message, node, dispatched: dispatches.length, runStatus };
  }

  async getRun(runId: string): Promise<StitchRun> {
    if (!store.isUuid(runId)) throw new EngineError("not_found", `no run with id "${runId}"`);
    // One statement, so one snapshot: the run's status and its node states always belong together (two reads
    // could straddle an event's commit and answer, say, a running run whose last node has failed).
    const [run] = await this.database.run((db) =>
      rows<{
        id: string; flow_id: string; status: RunStatus; input: unknown; created_at: unknown; updated_at: unknown;
        states: { node_id: string; status: NodeStatus; output: unknown; error: string | null }[];
      }>(db, sql`
        SELECT r.id, r.flow_id, r.status, r.input, r.created_at, r.updated_at,
          COALESCE((SELECT json_agg(json_build_object('node_id', s.node_id, 'status', s.status, 'output', s.output, 'error', s.error))
                    FROM stitch_node_states s WHERE s.run_id = r.id), '[]'::json) AS states
        FROM stitch_runs r WHERE r.id = ${runId}`),
    );
    if (!run) throw new EngineError("not_found", `no run with id "${runId}"`);
    const nodeStates: Record<string, NodeState> = {};
    for (const s of run.states) nodeStates[s.node_id] = toNodeState(s);
    return {
      id: run.id, flow_id: run.flow_id, status: run.status, input: run.input ?? null,
      node_states: nodeStates, created_at: iso(run.created_at), updated_at: iso(run.updated_at),
    };
  }

  async listRuns(options: { flowId?: string; limit?: number } = {}) {
    const limit = Math.min(options.limit ?? 100, 500);
    if (options.flowId !== undefined && !store.isUuid(options.flowId)) return [];
    const found = await this.database.run((db) => {
      const query = db
        .select({ id: stitchRuns.id, flowId: stitchRuns.flowId, status: stitchRuns.status, createdAt: stitchRuns.createdAt, updatedAt: stitchRuns.updatedAt, flowName: stitchFlows.name })
        .from(stitchRuns)
        .innerJoin(stitchFlows, eq(stitchFlows.id, stitchRuns.flowId));
      return (options.flowId ? query.where(eq(stitchRuns.flowId, options.flowId)) : query).orderBy(desc(stitchRuns.createdAt)).limit(limit);
    });
    return found.map((r) => ({ id: r.id, flow_id: r.flowId, flow_name: r.flowName, status: r.status as RunStatus, created_at: iso(r.createdAt), updated_at: iso(r.updatedAt) }));
  }

  /** The run's accepted events in order: the audit trail of who completed, approved or rejected what. */
  async runEvents(runId: string) {
    if (!store.isUuid(runId)) throw new EngineError("not_found", `no run with id "${runId}"`);
    const found = await this.database.run((db) => db.select().from(stitchRunEvents).where(eq(stitchRunEvents.runId, runId)).orderBy(asc(stitchRunEvents.id)));
    if (found.length === 0) await this.getRun(runId); // every run has its "start" event: none means no such run (404)
    return found.map((e) => ({ id: e.id, node_id: e.nodeId, type: e.type, payload: e.payload, actor: e.actor, created_at: iso(e.createdAt) }));
  }

  /** Rows of the seed's SQL view, for checks that read node_states the way the seed's SQL would. */
  async nodeStatesFromView(runId: string): Promise<Record<string, NodeState>> {
    const [row] = await this.database.run((db) => rows<{ node_states: Record<string, NodeState> }>(db, sql`SELECT node_states FROM stitch_runs_with_node_states WHERE id = ${runId}`));
    return row?.node_states ?? {};
  }
}
