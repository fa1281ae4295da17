/**
 * What the engine answers without changing anything: flows and their versions, runs, their events, their history
 * (replayed by replay.ts), their lineage, node rows. The engine's writes (engine.ts) extend it and share its cache of
 * compiled graphs.
 */
import type { Database, Executor } from "../../db/client";
import { type PageParams, pageOf, pageRequest } from "../lib/paging";
import { EngineError } from "./errors";
import { type CompiledGraph, compileGraph, editedSourceOf, keyInPath, parseKey } from "./graph";
import { type RunHistory, replay } from "./replay";
import type { FlowListItem, FlowVersion, FlowVersionSummary, ForkOf, ForkedFrom, NodeState, RunOwner, RunStatus, StitchFlow, StitchRun } from "./schemas";
import * as store from "./store";
import type { NodeRow } from "./transition";

export const flowNotFound = (id: string) => new EngineError("not_found", `no flow with id "${id}"`);
export const runNotFound = (id: string) => new EngineError("not_found", `no run with id "${id}"`);

/** A node's row as the API's `node_states` tells it. */
export function toNodeState(row: Pick<NodeRow, "status" | "output" | "error">): NodeState {
  return { status: row.status, output: row.output ?? null, ...(row.error ? { error: row.error } : {}) };
}

/** How many times `history` reads a run while events keep committing under the read. */
const MAX_HISTORY_READS = 5;

/** The API's run: its node states as the seed's `node_states` object (who started it is not part of it). */
export function runOf(run: store.RunWithStates): StitchRun {
  const nodeStates: Record<string, NodeState> = {};
  for (const s of run.states) nodeStates[s.node_id] = toNodeState(s);
  const { states: _states, started_by: _startedBy, ...rest } = run;
  return { ...rest, input: run.input ?? null, node_states: nodeStates };
}

export class EngineReads {
  private readonly graphs = new Map<string, CompiledGraph>();

  constructor(readonly database: Database) {}

  // ---- Flows ----------------------------------------------------------------------------------

  async getFlow(id: string): Promise<StitchFlow> {
    const flow = store.isUuid(id) ? await this.database.run((db) => store.findFlow(db, id)) : undefined;
    if (!flow) throw flowNotFound(id);
    return flow;
  }

  /** One version of a flow, with its graph. */
  async getFlowVersion(flowId: string, version: number): Promise<FlowVersion> {
    const found = Number.isSafeInteger(version) && version > 0 ? await this.database.run((db) => store.findFlowVersion(db, flowId, version)) : undefined;
    if (found) return found;
    const flow = await this.getFlow(flowId);
    throw new EngineError("not_found", `flow "${flow.name}" has no version ${version}: its versions are 1 to ${flow.version}`);
  }

  /** A flow's versions, newest first, without their graphs. */
  async listFlowVersions(flowId: string): Promise<FlowVersionSummary[]> {
    const found = await this.database.run((db) => store.listFlowVersions(db, flowId));
    if (found.length === 0) await this.getFlow(flowId);
    return found;
  }

  /** The newest 200 flows (the latest saved first), each with who saved it last, its runs in progress and its last run. */
  listFlows(): Promise<FlowListItem[]> {
    return this.database.run((db) => store.listFlows(db, 200));
  }

  /** A compiled graph this process has already read (`flowId@version`), if any. */
  protected cachedGraph(key: string): CompiledGraph | undefined {
    return this.graphs.get(key);
  }

  /** A version of a flow compiled, kept for the next event that reads it (at most 200 graphs). */
  protected async compiled(tx: Executor, flowId: string, version: string): Promise<CompiledGraph> {
    const cacheKey = `${flowId}@${version}`;
    let g = this.graphs.get(cacheKey);
    if (!g) {
      g = compileGraph(await store.readFlowGraph(tx, flowId, version));
      if (this.graphs.size > 200) this.graphs.clear();
      this.graphs.set(cacheKey, g);
    }
    return g;
  }

  // ---- Runs -----------------------------------------------------------------------------------


  async getRun(runId: string): Promise<StitchRun> {
    const run = store.isUuid(runId) ? await this.database.run((db) => store.readRunWithStates(db, runId)) : undefined;
    if (!run) throw runNotFound(runId);
    return runOf(run);
  }

  /**
   * The engine run's id for a run's id of any front door: a plain flow run's or a workflow run's (the engine run's
   * own), or a pipeline run's `RUN_...` (the run its engine run is owned for). 404 naming the id when no run has it.
   */
  async engineRunIdOf(runId: string): Promise<string> {
    const found = await this.database.run((db) => store.findRunIdByAnyId(db, runId));
    if (!found) throw runNotFound(runId);
    return found;
  }

  /** The run's change marker (store.ts `changeMarker`): it moves with every event accepted on the run. */
  async changeMarker(runId: string): Promise<{ marker: string; status: RunStatus; owner: RunOwner | null }> {
    const found = await this.database.run((db) => store.changeMarker(db, runId));
    if (!found) throw runNotFound(runId);
    return found;
  }

  /** A page of runs (of one flow, or of all), newest first. */
  async listRuns(options: { flowId?: string } & PageParams = {}) {
    const { limit, before } = pageRequest(options, "uuid");
    if (options.flowId !== undefined && !store.isUuid(options.flowId)) return { items: [], next_cursor: null };
    return pageOf([await this.database.run((db) => store.listRuns(db, { flowId: options.flowId, limit: limit + 1, before }))], limit);
  }

  /** The run's accepted events in order: the audit trail of who completed, approved or rejected what. */
  async runEvents(runId: string) {
    if (!store.isUuid(runId)) throw runNotFound(runId);
    const found = await this.database.run((db) => store.listRunEvents(db, runId));
    if (found.length === 0) await this.getRun(runId); // every run has its "start" event: none means no such run (404)
    return found;
  }

  /**
   * The run told again, event by event: its accepted events, in order, replayed through the same pure core that
   * applied them (nothing is written), each with the rows it changed (as they were before and after) and the run's
   * status after it. This is how a read model learns what the log alone does not say: which nodes an event fired,
   * completed, failed or made wait. The run (with its node states) is read so that it belongs with the events: when
   * an event commits between the two reads, both are read again.
   */
  async history(runId: string): Promise<RunHistory> {
    if (!store.isUuid(runId)) throw runNotFound(runId);
    let found = await this.database.run((db) => store.readRunWithStates(db, runId));
    if (!found) throw runNotFound(runId);
    let events: store.LoggedEvent[];
    for (let reads = 1; ; reads++) {
      events = await this.database.run((db) => store.listLoggedEvents(db, runId));
      const again = (await this.database.run((db) => store.readRunWithStates(db, runId)))!;
      const unchanged = again.updated_at === found.updated_at;
      found = again;
      if (unchanged || reads === MAX_HISTORY_READS) break;
    }
    const flow = await this.getFlow(found.flow_id);
    // The run is told on the graph it ran: its own version's, whatever has been saved since.
    const graph = await this.database.run((db) => this.compiled(db, found.flow_id, String(found.flow_version)));
    return { run: runOf(found), flowName: flow.name, startedBy: found.started_by, graph, steps: replay(graph, runId, found.input ?? null, events) };
  }

  /** Every node row of a run as the engine keeps it (attempts included), for front doors' read models. */
  async nodeRows(runId: string): Promise<NodeRow[]> {
    if (!store.isUuid(runId)) throw runNotFound(runId);
    return this.database.run((db) => store.loadAllNodeRows(db, runId));
  }

  /** One node row of a run (undefined when there is no such run or node): what a running node's watch reads. */
  async nodeRow(runId: string, key: string): Promise<NodeRow | undefined> {
    if (!store.isUuid(runId)) return undefined;
    return (await this.database.run((db) => store.loadNodeRows(db, runId, [key])))[0];
  }

  /**
   * The node whose output a person's edit replaces when she reviews gate `key` of this run (graph.ts `editedSourceOf`),
   * as the instance key in the gate's path; undefined when the gate takes no edit (or there is no such run or node).
   */
  async editedSource(runId: string, key: string): Promise<string | undefined> {
    if (!store.isUuid(runId)) return undefined;
    return this.database.run(async (db) => {
      const run = await store.readRunFlow(db, runId);
      if (!run) return undefined;
      const g = await this.compiled(db, run.flowId, run.flowVersion);
      const ref = parseKey(g, key);
      const source = ref ? editedSourceOf(g, ref.node) : undefined;
      return ref && source !== undefined ? keyInPath(g, source, ref.vector) : undefined;
    });
  }

  // ---- Forks ----------------------------------------------------------------------------------

  /** The runs of a flow that failed (and are failed still) since `since`, newest first (at most 200), each with its failed nodes, outermost first. */
  async failedRuns(flowId: string, since: string): Promise<{ runId: string; owner: RunOwner | null; failed: string[] }[]> {
    if (!store.isUuid(flowId)) throw flowNotFound(flowId);
    await this.getFlow(flowId);
    return this.database.run(async (db) => {
      const found = await store.listFailedRuns(db, flowId, since, 200);
      const answers = [];
      for (const run of found) {
        const g = await this.compiled(db, flowId, run.flowVersion);
        const failed = (await store.loadAllNodeRows(db, run.id)).filter((row) => row.status === "failed" && parseKey(g, row.key)?.node.type !== "Collector");
        const order = [...g.nodes.keys()];
        failed.sort((a, b) => order.indexOf(parseKey(g, a.key)!.nodeId) - order.indexOf(parseKey(g, b.key)!.nodeId));
        answers.push({ runId: run.id, owner: run.owner, failed: failed.map((row) => row.key) });
      }
      return answers;
    });
  }

  /** Where a run was forked from and the runs forked from it. */
  async lineage(runId: string): Promise<{ forked_from: ForkedFrom | null; forks: ForkOf[] }> {
    const found = await this.database.run((db) => store.readLineage(db, runId));
    if (!found) throw runNotFound(runId);
    return found;
  }
}
