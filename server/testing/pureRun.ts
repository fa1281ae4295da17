/**
 * Drives the engine's own macrostep with no database: rows live in a Map standing in for stitch_node_states, and
 * each event (with its follow-ups) sees only the rows `requiredKeys` names plus the ones earlier steps of the same
 * event changed. A transition that reads a row it never asked for therefore fails here just as it would against
 * the store. Effects are collected, never performed.
 */
import { type CompiledGraph, compileGraph } from "../engine/graph";
import { macrostep, settleSync } from "../engine/macrostep";
import type { NodeState, StitchGraph } from "../engine/schemas";
import { type Effect, type ExternalEvent, type InternalEvent, type NodeRow, type Outcome, type RunContext, newRow, readsEveryRow } from "../engine/transition";
import { stitchPaths } from "../http/paths";

export const pureBaseUrl = "https://stitch.example.test";

export interface SettledEvent {
  outcome: Outcome;
  /** Rows as they were changed by this event and its follow-ups (last version of each). */
  changes: Map<string, NodeRow>;
  effects: Effect[];
  /** Every follow-up event the core asked for, in the order they ran. */
  followUps: InternalEvent[];
}

export class PureRun {
  readonly graph: CompiledGraph;
  readonly rows = new Map<string, NodeRow>();
  readonly ctx: RunContext;
  /** Every dispatch effect produced so far, in order. */
  readonly dispatches: Extract<Effect, { type: "dispatch" }>[] = [];

  constructor(graph: StitchGraph, runInput: unknown = null, ctx: Partial<Omit<RunContext, "callbackUrl">> & { baseUrl?: string } = {}) {
    this.graph = compileGraph(graph);
    const { baseUrl = pureBaseUrl, ...rest } = ctx;
    const runId = rest.runId ?? "00000000-0000-4000-8000-000000000001";
    this.ctx = { runId, runInput, callbackUrl: (key) => stitchPaths.callbackUrl(baseUrl, runId, key), ...rest };
    for (const id of this.graph.nodes.keys()) this.rows.set(id, newRow(id));
  }

  start(): SettledEvent {
    return this.send({ type: "start" });
  }

  /** Applies one event and its follow-ups; a refused or duplicate event changes nothing (as the engine rolls back). */
  send(event: ExternalEvent): SettledEvent {
    // A cancellation, resumption or restart reads every row of the run; the engine seeds them all for it, and so does this.
    const seed = readsEveryRow(event) ? this.rows : undefined;
    const step = settleSync(macrostep(this.graph, event, this.ctx, seed), (keys) => keys.flatMap((key) => this.rows.get(key) ?? []));
    if (step.outcome.kind !== "applied") return { outcome: step.outcome, changes: new Map(), effects: [], followUps: [] };
    const changes = new Map(step.changes.map((change) => [change.key, change.after]));
    for (const row of changes.values()) this.rows.set(row.key, row);
    for (const effect of step.effects) if (effect.type === "dispatch") this.dispatches.push(effect);
    return { outcome: step.outcome, changes, effects: step.effects, followUps: step.followUps };
  }

  /**
   * Seeds this run with a fork's rows (forkPlan.ts) and applies its first event, as Engine.fork does: whatever rows the
   * run held are replaced by the fork's.
   */
  fork(event: Extract<ExternalEvent, { type: "fork" }>): SettledEvent {
    this.rows.clear();
    for (const row of event.rows) this.rows.set(row.key, row);
    const step = settleSync(macrostep(this.graph, event, this.ctx, new Map(this.rows), new Set(this.rows.keys())), (keys) => keys.flatMap((key) => this.rows.get(key) ?? []));
    if (step.outcome.kind !== "applied") return { outcome: step.outcome, changes: new Map(), effects: [], followUps: [] };
    const changes = new Map(step.changes.map((change) => [change.key, change.after]));
    for (const row of changes.values()) this.rows.set(row.key, row);
    for (const effect of step.effects) if (effect.type === "dispatch") this.dispatches.push(effect);
    return { outcome: step.outcome, changes, effects: step.effects, followUps: step.followUps };
  }

  row(key: string): NodeRow {
    const row = this.rows.get(key);
    if (!row) throw new Error(`no row "${key}"; rows: ${[...this.rows.keys()].join(", ")}`);
    return row;
  }

  status(key: string): NodeRow["status"] {
    return this.row(key).status;
  }

  /** The seed's node_states object, as the API assembles it. */
  nodeStates(): Record<string, NodeState> {
    return Object.fromEntries([...this.rows.values()].map((r) => [r.key, { status: r.status, output: r.output ?? null, ...(r.error ? { error: r.error } : {}) }]));
  }

  /** Dispatches of one instance key, in order. */
  dispatchesOf(key: string) {
    return this.dispatches.filter((d) => d.key === key);
  }

  /** A worker reports completion of its latest dispatch. */
  complete(key: string, output: unknown): SettledEvent {
    return this.send({ type: "callback", key, status: "completed", output });
  }

  fail(key: string, error = "boom"): SettledEvent {
    return this.send({ type: "callback", key, status: "failed", error });
  }
}
