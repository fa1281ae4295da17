/**
 * The engine's shell: it locks, loads and stores around the pure core. Every external event runs in one transaction
 * with the run's row locked: load what the macrostep needs, run it, then write node rows, outbox rows, run counters
 * and the event log together, and let observers project the change in the same transaction. An event alone that
 * needs nothing but the engine's own rows may instead be read without a lock and written in one statement guarded by
 * the run's version (`applyUnlocked`). Nothing about a run is trusted from memory between events (what a process
 * holds of a run it wrote is used only under that guard), so any number of processes can share the work.
 *
 * An event is applied one of three ways, each with one name: `applyUnlocked` (alone, without a transaction, guarded by
 * the run's version), `applyLocked` (in a transaction with the run's row locked first) and `applyBatch` (several
 * events of several runs in one transaction); `applyOne` tries the first and falls back to the second. The pure core
 * decides (`decide`), and what it decided is written (`record`).
 *
 * This file holds the writes. What the engine answers without changing anything is engineReads.ts (which this class
 * extends), its API's types engineTypes.ts, how the outbox rows a transaction writes reach a dispatcher once it has
 * committed outboxHandOff.ts, and a run told again from its log replay.ts.
 */
import { randomUUID } from "node:crypto";
import type { Database, Executor } from "../../db/client";
import { asError } from "../lib/coalesce";
import { nulPath } from "../lib/json";
import { isValidCallbackToken, callbackToken } from "./callbackToken";
import { EngineError, GraphRefusal } from "./errors";
import { type GraphProblem, graphProblems } from "./graphProblems";
import { copiedDecisions } from "./copiedDecisions";
import { forkPlan } from "./forkPlan";
import { type CompiledGraph, parseKey } from "./graph";
import { type MacrostepResult, anticipating, macrostep, settle } from "./macrostep";
import type { FlowVersion, StitchFlow, StitchGraph, StitchRun } from "./schemas";
import * as store from "./store";
import { type AfterCommit, OutboxHandOff } from "./outboxHandOff";
import { insertTimer } from "./outboxStore";
import { EngineReads, flowNotFound, runNotFound, runOf, toNodeState } from "./engineReads";
import type { EngineOps, EngineOptions, EventResult, ForkRequest, KeyedEvent, LocalDelivery, RunOps, RunTransition, TransitionObserver } from "./engineTypes";
import { type Effect, type EngineEvent, type ExternalEvent, type NodeRow, type RunContext, anticipatedKeys, countsAfter, newRow, readsEveryRow, runStatusAfter } from "./transition";

export { EngineError, type EngineErrorCode } from "./errors";
export type { GraphProblem } from "./graphProblems";
export type { NewFlowVersion } from "./store";

export type { RunOwner, RunOwnerKind, StartedBy } from "./schemas";
export type * from "./engineTypes";
export { eachTransition } from "./engineTypes";
export type { HistoryStep, RunHistory } from "./replay";
export { toNodeState } from "./engineReads";

/** An event whose every value can be stored, as is; refused as a bad request otherwise (see refuseUnstorable). */
function refusingUnstorable<E extends ExternalEvent>(event: E, actor: string | null): E {
  const { type: _type, ...carried } = event;
  refuseUnstorable({ ...carried, actor }, "");
  return event;
}

/** Refuses, as a bad request, a value that would otherwise fail deep in the database as an internal error. */
function refuseUnstorable(value: unknown, name: string): void {
  const refusal = unstorable(value, name);
  if (refusal) throw refusal;
}

/** The refusal of a value that cannot be stored (see `refuseUnstorable`), or undefined when it can be. */
function unstorable(value: unknown, name: string): EngineError | undefined {
  const where = nulPath(value, name);
  return where === undefined ? undefined : new EngineError("bad_request", `${where || "value"} contains the NUL character (\\u0000), which cannot be stored; remove it`);
}


/** Why a start is refused before its run is created (an input that cannot be stored, a flow id of no flow), if it is. */
const refusedStart = (flowId: string, input: unknown): EngineError | undefined => unstorable(input, "input") ?? (store.isUuid(flowId) ? undefined : flowNotFound(flowId));

/**
 * Refuses a graph storing must not keep: text PostgreSQL cannot store (400 bad_request, as any value), then every
 * problem `graphProblems` finds (400 invalid_graph, naming the first and listing them all). The check endpoint reads
 * the same problems (Engine.checkGraph), so it refuses exactly what storing refuses.
 */
function refuseGraph(name: string, graph: StitchGraph, webhookUrlRule: EngineOptions["refuseWebhookUrl"]): void {
  refuseUnstorable({ name, graph }, "");
  const problems = graphProblems(graph, webhookUrlRule);
  if (problems.length > 0) throw new GraphRefusal(problems);
}

/** A version's answer when it was saved, or the latest version when the one the save started from is no longer it. */
export type AppendedVersion = { saved: FlowVersion } | { stale: FlowVersion };

export class Engine extends EngineReads {
  /** The graph (its `graphs` key) each run executed at its last event in this process: what its next event will read is known before its lock. */
  private readonly runGraphs = new Map<string, string>();
  /** Runs this process last wrote without a transaction, as it left them (see `HeldRun`). */
  private readonly heldRuns = new Map<string, HeldRun>();
  private readonly observers: TransitionObserver[] = [];
  private readonly outbox: OutboxHandOff;

  constructor(
    database: Database,
    private readonly options: EngineOptions,
  ) {
    super(database);
    this.outbox = new OutboxHandOff(() => this.options.onDispatch?.());
  }

  /** Registers a projection that runs inside every event's transaction, after the engine's own writes. */
  observe(observer: TransitionObserver): void {
    this.observers.push(observer);
  }

  /** The dispatcher of this process, which delivers the webhooks this process's transactions write (see outboxHandOff.ts). */
  deliverHere(local: LocalDelivery): void {
    this.outbox.deliverHere(local);
  }

  /**
   * Registers a listener told of every event applied to a run (not of a duplicate or a refusal), once its transaction
   * has committed: what a process watching runs finish can rely on (the benchmark does). It runs outside any
   * transaction and must not throw.
   */
  afterCommit(listener: (applied: EventResult) => void): void {
    this.outbox.afterCommit(listener);
  }

  // ---- Flows ----------------------------------------------------------------------------------

  /** What storing `graph` would refuse, listed (empty: it would be stored). Stores nothing. */
  checkGraph(graph: StitchGraph): GraphProblem[] {
    return graphProblems(graph, this.options.refuseWebhookUrl);
  }

  /**
   * Creates a flow with its version 1 (under `id` when the caller chose it: a conflict when a flow has it already).
   * `first` defaults to a version created by no one in particular.
   */
  async createFlow(
    name: string, graph: StitchGraph, first: Omit<store.NewFlowVersion, "graph"> = { message: "Created", origin: "create", author: null },
    options: { id?: string; alongside?: (tx: Executor, flow: StitchFlow) => Promise<void> } = {},
  ): Promise<StitchFlow> {
    refuseGraph(name, graph, this.options.refuseWebhookUrl);
    return this.database.transaction(async (tx) => {
      const flow = await store.insertFlow(tx, name, { ...first, graph }, options.id);
      if (!flow) throw new EngineError("conflict", `a flow with id "${options.id}" exists already`);
      await options.alongside?.(tx, flow);
      return flow;
    });
  }

  /** Stores a flow under a caller-chosen id unless it already exists (a front door's own flow, registered at start-up). */
  async ensureFlow(id: string, name: string, graph: StitchGraph): Promise<void> {
    refuseGraph(name, graph, this.options.refuseWebhookUrl);
    await this.database.run((db) => store.insertFlowIfAbsent(db, id, name, graph));
  }

  /**
   * Adds the next version of a flow, unless the version the caller started from (`baseVersion`) is no longer the
   * latest: then nothing is written and the latest version is answered (`stale`). The flow's row is locked for the
   * transaction (store.ts `lockFlow`: no run is locked in it), so two saves from one base cannot both be the next.
   * `alongside` writes the caller's own rows in the same transaction, once the version is written.
   */
  async appendVersion(flowId: string, baseVersion: number, next: store.NewFlowVersion, alongside?: (tx: Executor, saved: FlowVersion) => Promise<void>): Promise<AppendedVersion> {
    refuseGraph("", next.graph, this.options.refuseWebhookUrl);
    return this.database.transaction(async (tx) => {
      const flow = await store.lockFlow(tx, flowId);
      if (!flow) throw flowNotFound(flowId);
      if (flow.registered) {
        throw new EngineError("conflict", `flow "${flow.name}" is registered by a front door (the agent pipeline or a workflow) at start-up: its versions are that front door's, not the designer's`);
      }
      if (baseVersion !== flow.version) {
        const latest = await store.findFlowVersion(tx, flowId, flow.version);
        return { stale: latest! };
      }
      const saved = await store.appendFlowVersion(tx, flowId, flow.version + 1, next);
      await alongside?.(tx, saved);
      return { saved };
    });
  }

  /** The locked run's graph, remembered as the one its next event will probably read (see `onRun`). */
  private async graphOfRun(tx: Executor, run: store.LockedRun): Promise<CompiledGraph> {
    if (this.runGraphs.size > 10_000) this.runGraphs.clear();
    this.runGraphs.set(run.id, `${run.flowId}@${run.flowVersion}`);
    return this.compiled(tx, run.flowId, run.flowVersion);
  }

  // ---- Runs -----------------------------------------------------------------------------------

  /** Creates the run with every node `pending` and fires its entry nodes, in one transaction. */
  async startRun(flowId: string, input: unknown): Promise<StitchRun> {
    return this.transaction((ops) => ops.startRun(flowId, input));
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
   * One event on one run, in its own transaction: what the engine itself starts (timers, delivery failures) and
   * in-process executors report. Either the whole event is applied or, when refused, nothing is.
   */
  handle(runId: string, event: KeyedEvent, actor: string | null = null): Promise<EventResult> {
    return this.applyOne(runId, event, actor);
  }

  /**
   * One event on one run, alone: without a transaction when it can be (`applyUnlocked`), else in one with the run's
   * row locked first (`onRun`). `admit` is the front door's check of the run, as in a batch.
   */
  private async applyOne(runId: string, event: KeyedEvent, actor: string | null, admit?: BatchedEvent["admit"]): Promise<EventResult> {
    const applied = readsEveryRow(event) ? undefined : await this.applyUnlocked(runId, event, actor, admit);
    return applied ?? this.onRun(runId, (run) => (admit?.(run), run.handle(event, actor)), event);
  }

  /**
   * An event applied without a transaction, in two statements: a read of the run and the rows the event anticipates
   * (one snapshot, no lock), then, once decided, its write, which takes the run's row lock and writes only if the run is
   * still as read (`store.writeEventsIfUnchanged`: every write of a run's rows moves its version). A transaction costs
   * four round trips (BEGIN, the lock and the read, the write, COMMIT); this costs two, and the write is the event's
   * commit; one, when this process holds what the event wants (`HeldRun`). It applies only what needs nothing but the
   * engine's own rows: an event the run accepts, which no observer projects (a plain flow's Worker moving on, say).
   * Anything else, and a run changed between the read and the write, answers undefined, having written nothing, and
   * the caller applies the event the locked way, where it is decided again on what is then stored: exactly once
   * either way.
   */
  private async applyUnlocked(runId: string, event: KeyedEvent, actor: string | null, admit?: BatchedEvent["admit"]): Promise<EventResult | undefined> {
    const after = this.outbox.begin();
    // What this process's last write of the run left, used once: a write leaves a new one, or none.
    const held = this.heldRuns.get(runId);
    this.heldRuns.delete(runId);
    let result: EventResult | undefined;
    try {
      result = await this.database.run(async (db) => {
        const graphKey = this.runGraphs.get(runId);
        const guessed = graphKey ? this.cachedGraph(graphKey) : undefined;
        const keys = guessed ? anticipatedKeys(guessed, event) : [];
        const seen = held && keys.length > 0 && keys.every((key) => held.rows.has(key)) ? seenFrom(held, keys) : await store.readRunUnlocked(db, runId, keys);
        if (!seen) return undefined;
        const { run, version } = seen;
        const g = await this.graphOfRun(db, run);
        const preread = graphKey === `${run.flowId}@${run.flowVersion}` ? { keys, rows: seen.rows } : undefined;
        // Every row the event read, or found absent (null), as the read left it.
        const read = new Map<string, NodeRow | null>(preread ? keys.map((key) => [key, seen.rows.find((row) => row.key === key) ?? null]) : []);
        const load = async (wanted: string[]) => {
          const found = await store.loadNodeRows(db, runId, wanted);
          for (const key of wanted) read.set(key, found.find((row) => row.key === key) ?? null);
          return found;
        };
        let step: MacrostepResult;
        try {
          admit?.(run);
          step = await this.decide(db, run, g, refusingUnstorable(event, actor), undefined, undefined, anticipating(preread ? [] : anticipatedKeys(g, event), load, preread));
        } catch (error) {
          if (error instanceof EngineError) return undefined;
          throw error;
        }
        if (step.outcome.kind !== "applied") return undefined;
        const deferred: DeferredWrites = { writes: [], transitions: [] };
        const applied = await this.recordEvent(db, run, g, event, actor, step, after, deferred);
        if (deferred.transitions.some((t) => this.observers.some((observer) => observer.concerns(t)))) return undefined;
        const [writes] = this.mergedByRun(deferred.writes, after);
        // A run that goes on with one webhook (a chain's next Worker): the rows its callback will want are held.
        for (const change of step.changes) read.set(change.key, change.after);
        const webhooks = writes!.dispatches.filter((d) => d.kind === "webhook");
        const next = webhooks.length === 1 && run.status === "running" ? anticipatedKeys(g, { type: "callback", key: webhooks[0]!.key, status: "completed", output: null }) : [];
        const written = await store.writeEventsIfUnchanged(db, writes!, version, next.filter((key) => !read.has(key)));
        if (!written) return undefined;
        if (next.length > 0) {
          const rows = new Map(next.map((key) => [key, read.has(key) ? read.get(key)! : (written.ahead.find((row) => row.key === key) ?? null)]));
          if (this.heldRuns.size >= MAX_HELD_RUNS) this.heldRuns.clear();
          this.heldRuns.set(runId, { version: written.version, run: { ...run, counts: { ...run.counts } }, rows });
        }
        return applied;
      });
    } catch (error) {
      this.outbox.abandoned(after);
      throw error;
    }
    if (!result) {
      this.outbox.abandoned(after);
      return undefined;
    }
    this.outbox.committed(after);
    return result;
  }

  cancel(runId: string, reason?: string, actor: string | null = null): Promise<EventResult> {
    return this.onRun(runId, (run) => run.cancel(reason, actor));
  }

  /**
   * Runs `fn` in one transaction that creates runs or flows, so a caller's own writes (a front door's run row, say)
   * commit or roll back together with the run they start. Dispatches are sent after commit.
   */
  async transaction<T>(fn: (ops: EngineOps, tx: Executor) => Promise<T>): Promise<T> {
    return this.committing((tx, after) =>
      fn(
        {
          startRun: (flowId, input, options = {}) => this.startRunWithin(tx, flowId, input, options, after),
          ensureFlow: async (id, name, graph) => {
            refuseGraph(name, graph, this.options.refuseWebhookUrl);
            await store.insertFlowIfAbsent(tx, id, name, graph);
          },
        },
        tx,
      ),
    );
  }

  /**
   * Runs `work` in one transaction and, once it has committed, hands its outbox rows over (outboxHandOff.ts: wakes
   * the dispatchers for the rows written for any process, delivers the rows written claimed by this one, and tells the
   * `afterCommit` listeners of the events applied). When it rolls back, the delivery slots it reserved are given back.
   */
  private async committing<T>(work: (tx: Executor, after: AfterCommit) => Promise<T>): Promise<T> {
    const after = this.outbox.begin();
    let result: T;
    try {
      result = await this.database.transaction((tx) => work(tx, after));
    } catch (error) {
      this.outbox.abandoned(after);
      throw error;
    }
    this.outbox.committed(after);
    return result;
  }

  /**
   * Runs `fn` in one transaction on the run `runId`, whose row is locked FIRST, before `fn` runs. The lock order of
   * the whole product is: the engine's run row, then a front door's rows (its run row, artifacts, turns). Every
   * transaction that changes a run comes through here, the engine's own events and the front doors' commands alike,
   * so no two of them can take the two in opposite orders and deadlock. A front door that addresses runs by its own
   * id reads the engine run's id (immutable) first, without a lock, then calls this. Unknown run: `not_found`.
   *
   * `expected`: the event `fn` will handle first, when the caller knows it. If this process knows the run's graph from an
   * earlier event, the rows that event reads are asked for together with the lock, in the same round trip: PostgreSQL
   * runs the read once the lock is granted, on a snapshot taken then (READ COMMITTED takes one per statement), so it
   * sees exactly what a read sent after the lock's answer would. The rows are used only if the run still executes
   * that graph and `fn` handles that very event.
   */
  onRun<T>(runId: string, fn: (run: RunOps, tx: Executor) => Promise<T>, expected?: ApplicableEvent): Promise<T> {
    return this.committing(async (tx, after) => {
      const graphKey = expected && !readsEveryRow(expected) ? this.runGraphs.get(runId) : undefined;
      const guessed = graphKey ? this.cachedGraph(graphKey) : undefined;
      const keys = guessed && expected ? anticipatedKeys(guessed, expected) : undefined;
      const [locked, rows] = await Promise.all([store.lockRun(tx, runId), keys ? store.loadNodeRows(tx, runId, keys) : undefined]);
      if (!locked) throw runNotFound(runId);
      let read = keys && rows && graphKey === `${locked.flowId}@${locked.flowVersion}` ? { event: expected, keys, rows } : undefined;
      const apply = (event: ApplicableEvent, actor: string | null) => {
        const preread = read?.event === event ? read : undefined;
        read = undefined;
        return this.applyLocked(tx, locked, event, actor, after, preread);
      };
      const ops: RunOps = {
        id: locked.id,
        owner: locked.owner,
        startedBy: locked.startedBy,
        get status() {
          return locked.status;
        },
        handle: (event, actor = null) => apply(event, actor),
        cancel: (reason, actor = null) => apply({ type: "cancel", ...(reason?.trim() ? { reason: reason.trim() } : {}) }, actor),
        resume: (actor = null) => apply({ type: "resume" }, actor),
        nodeRow: async (key) => (await store.loadNodeRows(tx, locked.id, [key]))[0],
      };
      return fn(ops, tx);
    });
  }

  /**
   * Events on many runs in one transaction: what the dispatcher does with the answers its deliveries brought back
   * together. The runs' rows are locked first, all in one statement and in the order of their ids (so two batches
   * cannot wait for each other in a cycle; a front door's rows are locked after, as everywhere), the rows the events
   * need are read in one statement, and each event is applied in turn, as `handle` would apply it. An event refused
   * (or addressed to no run) is answered with its refusal and changes nothing; the others are applied. A failure to
   * write (the database away, an observer failing) rolls the whole batch back: then each event is applied alone,
   * so one event's fault never costs the others theirs. Answers come in the order of `events`: the event's result,
   * its refusal (an EngineError), or the error that kept it from being applied.
   */
  async handleAll(events: readonly BatchedEvent[]): Promise<(EventResult | Error)[]> {
    // Alone, each event's outcome is its own: one that fails does not make the others' answers errors.
    const alone = () => Promise.all(events.map(({ runId, event, admit }) => this.applyOne(runId, event, null, admit).catch(asError)));
    // A cancellation-like event reads every row of its run, which a batch does not read: it goes alone.
    if (events.length <= 1 || events.some(({ event }) => readsEveryRow(event))) return alone();
    try {
      return await this.applyBatch(events);
    } catch (error) {
      if (error instanceof BatchFault) return alone();
      throw error;
    }
  }

  private applyBatch(events: readonly BatchedEvent[]): Promise<(EventResult | Error)[]> {
    return this.committing(async (tx, after) => {
      const runIds = [...new Set(events.map((e) => e.runId).filter(store.isUuid))].sort();
      const locked = new Map((await store.lockRuns(tx, runIds)).map((run) => [run.id, run]));
      const graphs = new Map<string, CompiledGraph>();
      for (const run of locked.values()) graphs.set(run.id, await this.graphOfRun(tx, run));
      // What every event of the batch will read is read in one statement for the whole batch: each run's rows that
      // any of its events anticipates (a fan-out's paths, say: each path's own rows and their Collector's). The
      // batch's writes wait until every event is decided (one statement for them all, then the projections), so a
      // later event on the same run reads the rows the earlier ones changed from memory (`batchLoader`).
      const anticipated = new Map<string, Set<string>>();
      for (const { runId, event } of events) {
        if (!locked.has(runId)) continue;
        const keys = anticipated.get(runId) ?? new Set<string>();
        for (const key of anticipatedKeys(graphs.get(runId)!, event)) keys.add(key);
        anticipated.set(runId, keys);
      }
      const wanted = [...anticipated].map(([runId, keys]) => ({ runId, keys: [...keys] }));
      const preloaded = await store.loadNodeRowsOfRuns(tx, wanted);
      const deferred: DeferredWrites = { writes: [], transitions: [] };
      const loaders = new Map(wanted.map((w) => [w.runId, batchLoader(w.keys, preloaded.get(w.runId) ?? [], deferred, w.runId, (keys) => store.loadNodeRows(tx, w.runId, keys))]));
      const answers: (EventResult | Error)[] = [];
      for (const { runId, event, admit } of events) {
        const run = locked.get(runId);
        if (!run) {
          answers.push(runNotFound(runId));
          continue;
        }
        const g = graphs.get(runId)!;
        let step: MacrostepResult;
        try {
          admit?.({ id: run.id, owner: run.owner, status: run.status, startedBy: run.startedBy });
          step = await this.decide(tx, run, g, refusingUnstorable(event, null), undefined, undefined, loaders.get(runId));
        } catch (error) {
          if (!(error instanceof EngineError)) throw new BatchFault(error);
          answers.push(error);
          continue;
        }
        answers.push(
          await this.recordEvent(tx, run, g, event, null, step, after, deferred).catch((error: unknown) => {
            throw new BatchFault(error);
          }),
        );
      }
      await this.writeDeferred(tx, deferred, after).catch((error: unknown) => {
        throw new BatchFault(error);
      });
      return answers;
    });
  }

  private async startRunWithin(tx: Executor, flowId: string, input: unknown, options: store.NewRunOptions, after: AfterCommit): Promise<StitchRun> {
    const refusal = refusedStart(flowId, input);
    if (refusal) throw refusal;
    // A run created in this very transaction is locked by it: no other transaction can see it yet.
    const locked = await store.insertRun(tx, flowId, input ?? null, options);
    if (!locked) throw flowNotFound(flowId);
    return this.recordStart(tx, locked, input, after);
  }

  /**
   * Starts runs in one transaction: what a front door does with the starts its callers asked for together. The runs
   * are created in one statement, each start is decided as `startRun` decides it, and their writes go in one
   * statement (a run created by this transaction is locked by it: no other transaction sees it before the commit).
   * `alongside` writes the front door's own rows for the runs started, in the same transaction (their indexes in
   * `starts`). A start refused before its run is created (no such flow, an input that cannot be stored) is answered
   * with its refusal in its place; any other failure rolls the whole batch back and is thrown, and the caller starts
   * the runs one by one, each with its own outcome.
   */
  async startRuns(starts: readonly BatchedStart[], alongside?: (tx: Executor, started: readonly number[]) => Promise<void>): Promise<(StitchRun | Error)[]> {
    return this.committing(async (tx, after) => {
      const answers: (StitchRun | Error | undefined)[] = starts.map(({ flowId, input }) => refusedStart(flowId, input));
      const created = await store.insertRuns(tx, starts.filter((_, i) => answers[i] === undefined));
      const deferred: DeferredWrites = { writes: [], transitions: [] };
      const started: number[] = [];
      for (const [i, { flowId, input, options }] of starts.entries()) {
        if (answers[i] !== undefined) continue;
        const locked = created.get(options.runId);
        if (!locked) {
          answers[i] = flowNotFound(flowId);
          continue;
        }
        answers[i] = await this.recordStart(tx, locked, input, after, deferred);
        started.push(i);
      }
      await this.writeDeferred(tx, deferred, after);
      if (started.length > 0) await alongside?.(tx, started);
      return answers.map((answer) => answer!);
    });
  }

  /**
   * Decides and records the start of a run this transaction created (or, `deferred`, leaves its writes to the batch),
   * and answers the run as the transaction leaves it, read from nothing: every row is new or changed by the start, and
   * the start's write sets `updated_at` to now(), which within one transaction is its `created_at`.
   */
  private async recordStart(tx: Executor, locked: store.InsertedRun, input: unknown, after: AfterCommit, deferred?: DeferredWrites): Promise<StitchRun> {
    const g = await this.graphOfRun(tx, locked);
    const initial = new Map([...g.nodes.keys()].map((key) => [key, newRow(key)]));
    const log = { nodeId: null, type: "start", payload: { input: input ?? null }, actor: null };
    const step = await this.decide(tx, locked, g, { type: "start" }, initial, new Set(initial.keys()));
    const { runStatus } = await this.record(tx, locked, g, { type: "start" }, log, step, after, deferred);
    for (const change of step.changes) initial.set(change.key, change.after);
    const nodeStates = Object.fromEntries([...initial].map(([key, row]) => [key, toNodeState(row)]));
    return {
      id: locked.id, flow_id: locked.flowId, flow_version: Number(locked.flowVersion), owner: locked.owner, status: runStatus, input: input ?? null, node_states: nodeStates,
      forked_from: null, forks: [], created_at: locked.createdAt, updated_at: locked.createdAt,
    };
  }

  private async applyLocked(
    tx: Executor, locked: store.LockedRun, event: ApplicableEvent, actor: string | null, after: AfterCommit, preread?: { keys: readonly string[]; rows: readonly NodeRow[] },
  ): Promise<EventResult> {
    const g = await this.graphOfRun(tx, locked);
    // A cancellation, resumption or restart reads every row of the run (no graph can list its splitter paths); any other event loads only the rows it needs.
    const seed = readsEveryRow(event) ? new Map((await store.loadAllNodeRows(tx, locked.id)).map((row) => [row.key, row])) : undefined;
    // Rows read with the lock (see `onRun`) are the ones the event anticipates: asked for first, they are answered from there.
    const load = preread ? anticipating([], (keys) => store.loadNodeRows(tx, locked.id, keys), preread) : undefined;
    const step = await this.decide(tx, locked, g, refusingUnstorable(event, actor), seed, undefined, load);
    return this.recordEvent(tx, locked, g, event, actor, step, after);
  }

  /** Writes a decided external event (see `record`) and says what became of it. */
  private async recordEvent(
    tx: Executor, locked: store.LockedRun, g: CompiledGraph, event: ApplicableEvent, actor: string | null, step: MacrostepResult, after: AfterCommit,
    deferred?: DeferredWrites,
  ): Promise<EventResult> {
    const { type, ...carried } = event;
    const key = "key" in event ? event.key : null;
    const runId = locked.id;
    const { key: _key, ...payload } = carried as typeof carried & { key?: string };
    const applied = await this.record(tx, locked, g, event, { nodeId: key, type, payload, actor }, step, after, deferred);
    const result: EventResult = {
      runId,
      nodeId: key,
      duplicate: applied.duplicate,
      ...(applied.message ? { message: applied.message } : {}),
      ...(applied.node ? { node: toNodeState(applied.node) } : {}),
      runStatus: applied.runStatus,
    };
    if (!applied.duplicate) after.applied.push(result);
    return result;
  }

  /**
   * Runs the event's macrostep, reading rows (through `load`, or the store) and writing nothing: a refusal throws here,
   * before anything was written, so a batch can refuse one event and go on with the others.
   */
  private async decide(
    tx: Executor, run: store.LockedRun, g: CompiledGraph, event: EngineEvent,
    seed?: ReadonlyMap<string, NodeRow>, created?: ReadonlySet<string>, load?: RowLoader,
  ) {
    const ctx: RunContext = { runId: run.id, runInput: run.input, callbackUrl: (key) => this.callbackUrl(run.id, key) };
    const loader = load ?? anticipating(seed ? [] : anticipatedKeys(g, event), (keys) => store.loadNodeRows(tx, run.id, keys));
    const step = await settle(macrostep(g, event, ctx, seed, created), loader);
    if (step.outcome.kind === "rejected") throw new EngineError(step.outcome.code, step.outcome.message);
    return step;
  }

  /**
   * Writes what a decided macrostep changed, in one statement, and lets the observers project it (or, `deferred`,
   * leaves both to the batch). `run` is the locked run as this transaction knows it; its status and counters are
   * brought up to date here, so a second event in the same transaction starts from the first one's outcome. The
   * webhooks it sends are written claimed by this process, as many as it has room to deliver at once (OutboxHandOff.written).
   */
  private async record(
    tx: Executor, run: store.LockedRun, g: CompiledGraph, event: EngineEvent, log: store.EventWrites["log"], step: MacrostepResult, after: AfterCommit,
    deferred?: DeferredWrites,
  ) {
    const node = step.addressed;
    if (step.outcome.kind === "duplicate") return { duplicate: true, message: step.outcome.message, node, runStatus: run.status };
    // What this process held of the run is no longer what the run will be.
    this.heldRuns.delete(run.id);

    const counts = countsAfter(run.counts, step.changes);
    const runStatusBefore = run.status;
    const runStatus = runStatusAfter(runStatusBefore, event, counts);
    const { dispatches, cancelled } = outboxOf(step.effects);
    this.outbox.written(after, run.id, dispatches, cancelled);
    const writes: store.EventWrites = {
      changed: step.changes.map((c) => c.after), cancelled, dispatches, counts, status: runStatus, log,
      // Other processes are woken only for the rows this one does not deliver itself.
      notify: dispatches.some((d) => !d.claimed) && this.database.kind === "postgres",
    };
    run.counts = counts;
    run.status = runStatus;
    const transition: RunTransition = { runId: run.id, startedBy: run.startedBy, owner: run.owner, flowName: run.flowName, graph: g, event, actor: log.actor, changes: step.changes, runStatus, runStatusBefore };
    if (deferred) {
      deferred.writes.push({ runId: run.id, ...writes });
      deferred.transitions.push(transition);
    } else {
      await store.writeEvent(tx, run.id, writes);
      await this.project(tx, [transition]);
    }
    return { duplicate: false, message: undefined, node, runStatus };
  }

  /**
   * A batch's writes, one entry per run, as the run's events applied one after the other would have left the tables:
   * the rows as the last event left them, the counters after the last, every event logged in order, and the dispatches
   * none of the later events cancelled (a dispatch written claimed by this process and cancelled later in the batch
   * is not handed over: its slot is given back).
   */
  private mergedByRun(writes: readonly ({ runId: string } & store.EventWrites)[], after: AfterCommit): store.RunWrites[] {
    const byRun = new Map<string, { runId: string; rows: Map<string, NodeRow>; cancelled: Set<string>; dispatches: store.NewDispatch[]; logs: store.LoggedWrite[]; last: store.EventWrites }>();
    for (const { runId, ...w } of writes) {
      let merged = byRun.get(runId);
      if (!merged) byRun.set(runId, (merged = { runId, rows: new Map(), cancelled: new Set(), dispatches: [], logs: [], last: w }));
      for (const row of w.changed) merged.rows.set(row.key, row);
      const gone = merged.dispatches.filter((d) => w.cancelled.includes(d.key));
      for (const d of gone.filter((d) => d.claimed)) this.outbox.withdrawn(after, d.claimed!.id);
      merged.dispatches = [...merged.dispatches.filter((d) => !w.cancelled.includes(d.key)), ...w.dispatches];
      for (const key of w.cancelled) merged.cancelled.add(key);
      merged.logs.push(w.log);
      merged.last = w;
    }
    return [...byRun.values()].map((m) => ({
      runId: m.runId, changed: [...m.rows.values()], cancelled: [...m.cancelled], dispatches: m.dispatches, counts: m.last.counts, status: m.last.status,
      logs: m.logs, notify: m.dispatches.some((d) => !d.claimed) && this.database.kind === "postgres",
    }));
  }

  /** Writes what a batch's events (or starts) decided, in one statement, then lets the observers project it. */
  private async writeDeferred(tx: Executor, deferred: DeferredWrites, after: AfterCommit): Promise<void> {
    if (deferred.writes.length === 0) return;
    await store.writeEvents(tx, this.mergedByRun(deferred.writes, after));
    await this.project(tx, deferred.transitions);
  }

  private async project(tx: Executor, transitions: readonly RunTransition[]): Promise<void> {
    for (const observer of this.observers) {
      const concerned = transitions.filter((t) => observer.concerns(t));
      if (concerned.length > 0) await observer.project(tx, concerned);
    }
  }

  /** The callback URL of a Worker instance, with its token when callbacks are authenticated. */
  private callbackUrl(runId: string, key: string): string {
    const secret = this.options.callbackSecret;
    const url = this.options.callbackUrl(runId, key);
    return secret ? `${url}?token=${callbackToken(secret, runId, key)}` : url;
  }

  // ---- Forks ----------------------------------------------------------------------------------

  /**
   * Forks run `request.runId` at node `request.nodeId` (forkPlan.ts says what is copied and what starts afresh), in one
   * transaction: the new run's row with where it came from, its rows (copied and fresh), its first event (`fork`, which
   * keeps the seeded rows, so the fork's history replays) and what that event fires, and the front door's own rows
   * (`alongside`). The original is read, never changed, and may go on running.
   *
   * Lock order (the product's one: engine.ts `onRun`): the ORIGINAL run's row first (FOR UPDATE, so the fork copies its
   * rows as one event left them, never half of one: an event of the original waits for the fork, or the fork for it),
   * then the fork's row, which this transaction creates (no other can wait for it), then a front door's rows. A fork
   * of a fork locks only its parent. Several processes forking the same run take turns on its lock: each fork whole.
   */
  async fork(request: ForkRequest): Promise<StitchRun> {
    return this.committing(async (tx, after) => {
      const original = await store.lockRun(tx, request.runId);
      if (!original) throw runNotFound(request.runId);
      const rows = await store.loadAllNodeRows(tx, original.id);
      if (!rows.some((row) => row.key === request.nodeId)) throw new EngineError("not_found", `run ${original.id} has no node "${request.nodeId}"`);
      const originalGraph = await this.graphOfRun(tx, original);
      await request.admit?.(tx, original, originalGraph);
      // A front door whose versions are flows of their own (a workflow's) names the flow its latest version is.
      const flowId = request.flowId ?? original.flowId;
      const latest = request.version === "latest" || flowId !== original.flowId;
      const flowVersion = latest ? String((await store.findFlow(tx, flowId))?.version ?? 0) : original.flowVersion;
      if (flowVersion === "0") throw flowNotFound(flowId);
      const g = flowId === original.flowId && flowVersion === original.flowVersion ? originalGraph : await this.compiled(tx, flowId, flowVersion);
      const plan = forkPlan(g, rows, request.nodeId, originalGraph);
      if ("refused" in plan) throw new EngineError(plan.refused.code, `cannot fork run ${original.id} at "${request.nodeId}": ${plan.refused.message}`);
      if (plan.missing.length > 0) {
        throw new EngineError(
          "conflict",
          `version ${flowVersion} of flow "${original.flowName}" has no node ${plan.missing.map((key) => `"${key}"`).join(", ")}, which the fork would copy from run ${original.id}: ` +
            `fork on the version the run ran ("original"), or at a node before ${plan.missing.length === 1 ? "it" : "them"}`,
        );
      }
      const chosen = parseKey(g, request.nodeId)!;
      if (request.input !== undefined && chosen.node.type === "Collector") {
        throw new EngineError("bad_request", `node "${request.nodeId}" is a Collector: its input is what its paths deliver, so it cannot be edited; fork without an input, or at a node of a path`);
      }
      if (request.feedback !== undefined && chosen.node.type !== "Worker") {
        throw new EngineError("bad_request", `node "${request.nodeId}" is a ${chosen.node.type}: only a Worker is sent a first feedback; fork without one, or at a Worker`);
      }
      refuseUnstorable({ input: request.input, runInput: request.runInput, feedback: request.feedback }, "");
      // A first feedback goes with the chosen Worker's first call, as a review's feedback goes with a revision.
      if (request.feedback !== undefined) plan.rows = plan.rows.map((row) => (row.key === request.nodeId ? { ...row, feedback: { text: request.feedback!, round: 0 } } : row));
      const runInput = request.runInput !== undefined ? request.runInput : chosen.vector.length === 0 && g.entries.includes(chosen.nodeId) && request.input !== undefined ? request.input : original.input;
      const inserted = await store.insertRun(tx, flowId, runInput ?? null, {
        runId: request.forkId ?? randomUUID(), flowVersion: Number(flowVersion), startedBy: request.by,
        ...(request.owner ? { owner: request.owner } : {}), forkedFrom: { runId: original.id, nodeId: request.nodeId, version: request.version },
      });
      if (!inserted) throw flowNotFound(flowId);
      // The front door's rows first: its projection of the fork's first event reads them.
      await request.alongside?.(tx, inserted.id, original);
      // The copied nodes stay decided, as who decided them, when and in which run; nothing is answered from a cache:
      // a decision of the chosen node or after it is asked anew.
      const decided = copiedDecisions(original.id, await store.listLoggedEvents(tx, original.id), plan.copied);
      const event = {
        type: "fork" as const, key: request.nodeId, ...(request.input !== undefined ? { input: request.input } : {}),
        from: { run_id: original.id, node_id: request.nodeId }, rows: plan.rows, fire: plan.fire, ...(Object.keys(decided).length > 0 ? { decided } : {}),
      };
      const seed = new Map(plan.rows.map((row) => [row.key, row]));
      const step = await this.decide(tx, inserted, g, event, seed, new Set(seed.keys()));
      const { type: _type, key: _key, ...payload } = event;
      await this.record(tx, inserted, g, event, { nodeId: request.nodeId, type: "fork", payload, actor: request.by?.name ?? null }, step, after);
      return runOf((await store.readRunWithStates(tx, inserted.id))!);
    });
  }

}

type ApplicableEvent = Exclude<ExternalEvent, { type: "start" }>;

/**
 * A run as this process's last write left it, without a transaction (`Engine.applyUnlocked`): its version then, the
 * run, and the rows its next event will probably want (null: no such row). An event that wants only these reads
 * nothing: what it writes is guarded by the version, so a run changed since (by another process, or a transaction
 * of this one) is not written over, and the event is applied the locked way.
 */
interface HeldRun {
  version: string;
  run: store.LockedRun;
  rows: ReadonlyMap<string, NodeRow | null>;
}

/**
 * How many runs a process holds (`HeldRun`, each with its input): past it, it forgets them all and reads again. A
 * process holds the runs whose next Worker it has just called, so this is how many chains it keeps from reading.
 */
const MAX_HELD_RUNS = 1_000;

/** A held run as `store.readRunUnlocked` would answer it, for `keys` (all held). */
const seenFrom = (held: HeldRun, keys: readonly string[]): store.SeenRun => ({
  run: { ...held.run, counts: { ...held.run.counts } },
  version: held.version,
  rows: keys.flatMap((key) => held.rows.get(key) ?? []),
});

type RowLoader = (keys: string[]) => Promise<NodeRow[]>;

/**
 * The rows a batch's event on run `runId` reads: first what earlier events of the batch changed (`deferred`, not
 * written yet), then the rows read for the whole batch (the run's first event's anticipated `keys`, of which `read`
 * are those that exist), then the store, for rows the batch has not read (their stored value is current: no event of
 * the batch changed them).
 */
function batchLoader(keys: readonly string[], read: readonly NodeRow[], deferred: DeferredWrites, runId: string, load: RowLoader): RowLoader {
  const stored = anticipating([], load, { keys, rows: read });
  const changed = (key: string): NodeRow | undefined => {
    for (let i = deferred.writes.length - 1; i >= 0; i--) {
      const w = deferred.writes[i]!;
      if (w.runId !== runId) continue;
      const row = w.changed.find((r) => r.key === key);
      if (row) return row;
    }
    return undefined;
  };
  return async (wanted) => {
    const unchanged = wanted.filter((key) => !changed(key));
    const found = new Map((unchanged.length > 0 ? await stored(unchanged) : []).map((row) => [row.key, row]));
    return wanted.flatMap((key) => changed(key) ?? found.get(key) ?? []);
  };
}

/** A batch's writes and projections, held until every event of it has been decided (Engine.applyBatch). */
interface DeferredWrites {
  writes: ({ runId: string } & store.EventWrites)[];
  transitions: RunTransition[];
}

/**
 * One event of a batch (Engine.handleAll). `admit` is the front door's check of the locked run before its event is
 * applied (the run is the front door's to change, say): it throws an EngineError to refuse the event.
 */
export interface BatchedEvent {
  runId: string;
  event: KeyedEvent;
  admit?: (run: Pick<RunOps, "id" | "owner" | "status" | "startedBy">) => void;
}

/** One start of a batch (Engine.startRuns): the run's id is chosen by the caller. */
export type BatchedStart = store.NewRun;

/** A batch's write failed: the batch is rolled back and its events are applied one by one. */
class BatchFault extends Error {
  constructor(readonly fault: unknown) {
    super("a batch of events could not be applied together", { cause: fault });
  }
}

/** The outbox rows a macrostep's effects ask for: webhooks to send and timers to set, and the nodes whose rows go. */
function outboxOf(effects: readonly Effect[]): { dispatches: store.NewDispatch[]; cancelled: string[] } {
  const dispatches: store.NewDispatch[] = [];
  const cancelled = new Set<string>();
  for (const effect of effects) {
    if (effect.type === "cancel_dispatches") cancelled.add(effect.key);
    else if (effect.type === "dispatch") dispatches.push({ kind: "webhook", key: effect.key, attempt: effect.attempt, url: effect.url, payload: effect.payload, delayMs: 0 });
    else {
      const kind = effect.type === "schedule_timeout" ? "timeout" : "retry";
      dispatches.push({ kind, key: effect.key, attempt: effect.attempt, url: "", payload: { afterMs: effect.afterMs }, delayMs: effect.afterMs });
    }
  }
  return { dispatches, cancelled: [...cancelled] };
}

/**
 * Sets a front door's durable timer on a run, in the caller's transaction: when `at` comes, the dispatcher hands it to
 * the handler registered under `name` (Dispatcher.useTimer), once across processes, after a restart too.
 */
export const setTimer = insertTimer;
