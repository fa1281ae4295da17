/**
 * A run's lineage (its parent and forks) and the comparison of two runs of one flow, node by node: status, duration,
 * who decided, and what differs in the outputs (the structural and word diff inline review shows). Read from the
 * engine's run and its replayed history; REST and tRPC both answer through here.
 */
import { type Engine, EngineError, type RunHistory } from "../engine/engine";
import { type InstanceRef, parseKey } from "../engine/graph";
import { diffOutputs, jsonEqual } from "../review/diff";
import type { ComparedNode, RunComparison, RunLineage } from "../forks/schemas";

type Side = NonNullable<ComparedNode["a"]>;

/** What a run's history says of each node: when it last started and ended, who decided it last, and whether a fork copied it. */
function sidesOf(history: RunHistory): Map<string, Side> {
  const started = new Map<string, string>();
  const ended = new Map<string, string>();
  const decided = new Map<string, Side["decided_by"]>();
  const copied = new Set<string>();
  const forkedFrom = history.run.forked_from?.run_id ?? null;
  for (const step of history.steps) {
    const { event } = step;
    if (event.type === "fork") for (const row of event.rows) if (row.status !== "pending") copied.add(row.key);
    // A copied node stays decided as it was, where it was: the fork's first event says by whom and in which run.
    if (event.type === "fork") for (const [key, d] of Object.entries(event.decided ?? {})) decided.set(key, { name: d.by, decision: d.decision, at: d.at, run_id: d.run_id });
    if (event.type === "review" || event.type === "complete" || event.type === "input") {
      const decision = event.type === "review" ? (event.decision === "approve" ? "approve" : "request_changes") : event.type === "complete" ? "complete" : "answer";
      decided.set(event.key, { name: step.actor, decision, at: step.at, run_id: history.run.id });
    }
    for (const change of step.changes) {
      const { key, before, after } = change;
      const entered = (s: string) => after.status === s && before?.status !== s;
      if (event.type === "fork" && copied.has(key)) continue;
      copied.delete(key);
      if (entered("running") || entered("waiting_for_user")) (started.set(key, step.at), ended.delete(key));
      if (entered("completed") || entered("failed") || entered("skipped")) ended.set(key, step.at);
    }
  }
  return new Map(
    Object.entries(history.run.node_states).map(([key, state]) => {
      const from = started.get(key);
      const to = ended.get(key);
      const isCopied = copied.has(key) && forkedFrom !== null;
      return [key, {
        status: state.status, output: state.output ?? null, decided_by: decided.get(key) ?? null, copied_from: isCopied ? forkedFrom : null,
        duration_ms: from !== undefined && to !== undefined && !isCopied ? Math.max(0, Date.parse(to) - Date.parse(from)) : null,
      }];
    }),
  );
}

/**
 * A node as people name it: its label on the graph (a pipeline's agent, "Review" and the agent, a workflow's node and
 * kind), else its id; one path of a Splitter's adds which ("Translate · path 2").
 */
function labelOf(ref: InstanceRef | undefined, key: string): string {
  if (!ref) return key;
  const label = typeof ref.node.data.label === "string" && ref.node.data.label.trim() ? ref.node.data.label.trim() : ref.nodeId;
  return ref.vector.length === 0 ? label : `${label} · path ${ref.vector.map((i) => i + 1).join(".")}`;
}

/** How run b relates to run a. */
function relationOf(a: RunHistory["run"], b: RunHistory["run"]): RunComparison["relation"] {
  if (a.forked_from?.run_id === b.id) return "parent";
  if (b.forked_from?.run_id === a.id) return "child";
  if (a.forked_from && a.forked_from.run_id === b.forked_from?.run_id) return "siblings";
  return "same_definition";
}

export class ForkQueries {
  constructor(private readonly engine: Engine) {}

  async lineage(runId: string): Promise<RunLineage> {
    return { run_id: runId, ...(await this.engine.lineage(runId)) };
  }

  /**
   * Runs a and b of one flow, node by node in the flow's order (a node only one of them has is shown on its side). Each
   * is named by its id in any front door: a flow or workflow run's uuid, or a pipeline run's `RUN_...` (its engine
   * run). A run and its fork, or two forks of one run, are compared even when one runs another definition (a YAML
   * workflow's latest version is a flow of its own); two runs of different flows otherwise are refused (409).
   */
  async compare(a: string, b: string): Promise<RunComparison> {
    const [ida, idb] = await Promise.all([this.engine.engineRunIdOf(a), this.engine.engineRunIdOf(b)]);
    const [ha, hb] = await Promise.all([this.engine.history(ida), this.engine.history(idb)]);
    const relation = relationOf(ha.run, hb.run);
    if (ha.run.flow_id !== hb.run.flow_id && relation === "same_definition") {
      throw new EngineError("conflict", `runs ${a} and ${b} are runs of different flows ("${ha.flowName}" and "${hb.flowName}"): only runs of the same flow are compared`);
    }
    const [sa, sb] = [sidesOf(ha), sidesOf(hb)];
    const graph = hb.run.flow_version >= ha.run.flow_version ? hb.graph : ha.graph;
    const order = [...graph.nodes.keys()];
    const rank = (key: string) => {
      const ref = parseKey(graph, key) ?? parseKey(ha.graph, key) ?? parseKey(hb.graph, key);
      return ref ? order.indexOf(ref.nodeId) : order.length;
    };
    const keys = [...new Set([...sa.keys(), ...sb.keys()])].sort((x, y) => rank(x) - rank(y) || x.localeCompare(y));
    const nodes: ComparedNode[] = keys.map((key) => {
      const ref = parseKey(graph, key) ?? parseKey(ha.graph, key) ?? parseKey(hb.graph, key);
      const label = labelOf(ref, key);
      const [left, right] = [sa.get(key) ?? null, sb.get(key) ?? null];
      const sameOutput = jsonEqual(left?.output ?? null, right?.output ?? null);
      return {
        node_id: key, label, node_type: ref?.node.type ?? null, a: left, b: right,
        same: sameOutput && left?.status === right?.status, diff: sameOutput ? null : diffOutputs(left?.output ?? null, right?.output ?? null).changes,
      };
    });
    const summary = (h: RunHistory) => ({ id: h.run.id, owner: h.run.owner, name: h.flowName, status: h.run.status, flow_version: h.run.flow_version, forked_from: h.run.forked_from });
    return { a: summary(ha), b: summary(hb), relation, nodes };
  }
}

