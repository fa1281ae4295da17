/**
 * Graph compilation: validates a flow's graph once and answers, without I/O, the questions edge-walking asks:
 * which splitter scopes a node lives in, which collector closes a splitter, and how instance keys
 * (`nodeId`, `nodeId_3`, `nodeId_3_0`) map to nodes and path indices.
 */
import { findCycles } from "../lib/cycles";
import { NodeSpec, type StitchGraph, type StitchNode } from "./schemas";

/** Where in a graph a problem is: the node or edge it concerns, and the node's `data` field when it is one. */
export interface GraphPlace {
  node_id?: string;
  edge_id?: string;
  field?: string;
}

export class GraphError extends Error {
  override name = "GraphError";

  constructor(
    message: string,
    /** What the problem concerns, so a designer can show it on the node or edge. */
    readonly at: GraphPlace = {},
  ) {
    super(message);
  }
}

export interface CompiledGraph {
  readonly nodes: ReadonlyMap<string, GraphNode>;
  /** Upstream node ids of each node, in edge order. */
  readonly upstream: ReadonlyMap<string, readonly string[]>;
  /** Downstream node ids of each node, in edge order. */
  readonly downstream: ReadonlyMap<string, readonly string[]>;
  /** The splitters a node runs inside, outermost first. Entry nodes and everything outside a split: []. */
  readonly scope: ReadonlyMap<string, readonly string[]>;
  /** The collector that closes each splitter's scope, when it has one. */
  readonly collectorOf: ReadonlyMap<string, string>;
  /** Nodes with no incoming edge: they receive the run's input. */
  readonly entries: readonly string[];
  /** Nodes whose innermost splitter is the key: they get one instance per path when that splitter completes. */
  readonly members: ReadonlyMap<string, readonly string[]>;
  /** Nodes that have the key anywhere in their scope. */
  readonly insideOf: ReadonlyMap<string, readonly string[]>;
}

export interface InstanceRef {
  nodeId: string;
  node: GraphNode;
  /** Path indices, one per splitter in the node's scope. */
  vector: number[];
  /** True for the graph-level row of a node that only runs per path (`W` rather than `W_0`). */
  template: boolean;
}

export const instanceKey = (nodeId: string, vector: readonly number[]): string =>
  vector.length === 0 ? nodeId : `${nodeId}_${vector.join("_")}`;

/** A node of a compiled graph: the flow's node as stored, with the features the engine acts on compiled from its `data`. */
export type GraphNode = StitchNode & { readonly spec: NodeSpec };

export const isReviewGate = (node: GraphNode): boolean => node.spec.gate === "review";

/**
 * An approval gate: a UX node a person approves (completing it, with their comment as output when
 * `captureResponse`) or rejects. With an `executor` a rejection runs the gate's follow-up work (a YAML workflow's
 * `on_reject` prompt) and the gate then waits again; with `precheck` as well, that executor first decides whether
 * the gate waits at all (a YAML workflow's `when`), answering with a skip or a callback.
 */
export const isApprovalGate = (node: GraphNode): boolean => node.spec.gate === "approval";

/**
 * The node whose output a person's edit replaces when she reviews gate `node`: the one node before it. A review gate
 * reviews its Worker's output (the edit is what an approval passes on, and what the Worker revises after a request for
 * changes); an approval gate reviews its input, the output of the one step before it (the edit replaces that output,
 * which the nodes after the gate read). Undefined for any other node, and for an approval gate that reviews several
 * steps' outputs merged, or the run's input: there is no one output to replace.
 */
export function editedSourceOf(g: Pick<CompiledGraph, "upstream">, node: GraphNode): string | undefined {
  if (!isReviewGate(node) && !isApprovalGate(node)) return undefined;
  const ups = g.upstream.get(node.id) ?? [];
  return ups.length === 1 ? ups[0] : undefined;
}

/** A Worker whose work this server performs itself, through the executor registered under this name, instead of a webhook. */
export const executorOf = (node: GraphNode): string | undefined => node.spec.executor;

const sameScope = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((s, i) => s === b[i]);

const isWorker = (node: StitchNode) => node.type === "Worker";
/** UX nodes and interactive loops wait for a person: their decisions obey the decision rules in their data. */
const waitsForPerson = (node: StitchNode, spec: NodeSpec) => node.type === "UX" || (isWorker(node) && spec.loop?.interactive === true);

/**
 * Where a feature applies. On any other node the engine would ignore it, which can only be a mistake in the flow, so
 * it is refused. Timeouts, leases and `alwaysRun` apply to any node (front doors set a lease on every task), and a
 * Splitter's `arrayPath` is harmless elsewhere.
 */
const APPLIES: { [K in keyof NodeSpec]?: { to: (node: StitchNode, spec: NodeSpec) => boolean; only: string } } = {
  gate: { to: (node) => node.type === "UX", only: "only UX nodes are gates" },
  executor: { to: (node, spec) => isWorker(node) || spec.gate === "approval", only: "only Worker nodes and approval gates run work" },
  protocol: { to: (node, spec) => isWorker(node) && spec.executor === undefined, only: "only Worker nodes without data.executor are sent over a dispatch protocol" },
  answer: { to: (node, spec) => isWorker(node) && spec.executor === undefined && spec.protocol === undefined, only: "only Worker nodes POSTed to data.webhookUrl answer their dispatch with a result" },
  retry: { to: isWorker, only: "only Worker nodes are retried automatically" },
  loop: { to: isWorker, only: "only Worker nodes loop" },
  triggerRule: { to: (node) => isWorker(node) || node.type === "UX", only: "only Worker and UX nodes fire by trigger rule" },
  captureResponse: { to: (_node, spec) => spec.gate === "approval", only: "only approval gates capture the approver's response" },
  precheck: { to: (_node, spec) => spec.gate === "approval" && spec.executor !== undefined, only: "only approval gates with data.executor run a precheck" },
  ...Object.fromEntries(
    (["assignee", "approvals", "self_approval", "due_in", "on_overdue"] as const).map((key) => [key, { to: waitsForPerson, only: "only UX nodes and interactive loops wait for a person" }]),
  ),
};

function checkUrl(node: StitchNode, url: string | undefined): void {
  if (url === undefined || url.length === 0) {
    throw new GraphError(`Worker node "${node.id}" needs data.webhookUrl (the worker's webhook URL)`, { node_id: node.id, field: "webhookUrl" });
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new GraphError(`Worker node "${node.id}" has data.webhookUrl "${url}", which is not a URL`, { node_id: node.id, field: "webhookUrl" });
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new GraphError(`Worker node "${node.id}" has data.webhookUrl "${url}": only http and https are supported`, { node_id: node.id, field: "webhookUrl" });
  }
}

/**
 * Compiles the features the engine acts on from a node's `data` (compileGraph does, once per node). A bad value is
 * refused naming the node, the key, the value and what the key must be; so is a feature where it does not apply.
 */
export function nodeSpecOf(node: StitchNode): NodeSpec {
  const parsed = NodeSpec.safeParse(node.data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = String(issue.path[0]) as keyof NodeSpec;
    const value = readPath(node.data, issue.path.join("."));
    const found = issue.code === "unrecognized_keys" ? issue.message : value === undefined ? "it is missing" : JSON.stringify(value);
    throw new GraphError(
      `${node.type} node "${node.id}" has an invalid data.${issue.path.join(".")}: ${found}; data.${key} must be ${NodeSpec.shape[key].description}`,
      { node_id: node.id, field: String(key) },
    );
  }
  const spec = parsed.data;
  for (const [feature, applies] of Object.entries(APPLIES)) {
    const value = spec[feature as keyof NodeSpec];
    if (value !== undefined && value !== false && !applies.to(node, spec)) {
      throw new GraphError(`${node.type} node "${node.id}" has data.${feature}, but ${applies.only}`, { node_id: node.id, field: feature });
    }
  }
  if (node.type === "Worker" && spec.executor === undefined) checkUrl(node, spec.webhookUrl);
  if (node.type === "Splitter" && spec.arrayPath === undefined) {
    throw new GraphError(`Splitter node "${node.id}" needs data.arrayPath (a dot path to the array in its input, such as "items")`, { node_id: node.id, field: "arrayPath" });
  }
  return spec;
}

export function compileGraph(graph: StitchGraph): CompiledGraph {
  const nodes = new Map<string, GraphNode>();
  for (const node of graph.nodes) {
    if (nodes.has(node.id)) throw new GraphError(`two nodes share the id "${node.id}"`, { node_id: node.id });
    nodes.set(node.id, { ...node, spec: nodeSpecOf(node) });
  }
  if (nodes.size === 0) throw new GraphError("the graph has no nodes");

  const upstream = new Map<string, string[]>();
  const downstream = new Map<string, string[]>();
  for (const id of nodes.keys()) {
    upstream.set(id, []);
    downstream.set(id, []);
  }
  const edgeIds = new Set<string>();
  for (const edge of graph.edges) {
    if (edgeIds.has(edge.id)) throw new GraphError(`two edges share the id "${edge.id}"`, { edge_id: edge.id });
    edgeIds.add(edge.id);
    if (!nodes.has(edge.source)) throw new GraphError(`edge "${edge.id}" starts at unknown node "${edge.source}"`, { edge_id: edge.id });
    if (!nodes.has(edge.target)) throw new GraphError(`edge "${edge.id}" ends at unknown node "${edge.target}"`, { edge_id: edge.id });
    if (edge.source === edge.target) throw new GraphError(`edge "${edge.id}" connects node "${edge.source}" to itself`, { edge_id: edge.id });
    if (downstream.get(edge.source)!.includes(edge.target)) {
      throw new GraphError(`nodes "${edge.source}" and "${edge.target}" are connected twice`, { edge_id: edge.id });
    }
    downstream.get(edge.source)!.push(edge.target);
    upstream.get(edge.target)!.push(edge.source);
  }

  // Path keys append `_<index>` to a node id, so with splitters an id that looks like another node's path key is ambiguous.
  const hasPaths = [...nodes.values()].some((node) => node.type === "Splitter");
  for (const id of hasPaths ? nodes.keys() : []) {
    let base = id;
    for (let m = /^(.*)_(\d+)$/.exec(base); m; m = /^(.*)_(\d+)$/.exec(base)) {
      base = m[1]!;
      if (nodes.has(base)) {
        throw new GraphError(`node id "${id}" could be mistaken for a path of node "${base}"; rename one of them`, { node_id: id });
      }
    }
  }

  for (const node of nodes.values()) {
    if (node.type === "Splitter" && downstream.get(node.id)!.length === 0) {
      throw new GraphError(`Splitter node "${node.id}" has no outgoing edge`, { node_id: node.id });
    }
    if (node.type === "Collector" && upstream.get(node.id)!.length === 0) {
      throw new GraphError(`Collector node "${node.id}" has no incoming edge`, { node_id: node.id });
    }
  }

  // Topological order (Kahn); a cycle is an error: reruns are events, never edges.
  const indegree = new Map<string, number>();
  for (const [id, ups] of upstream) indegree.set(id, ups.length);
  const order: string[] = [];
  const ready = [...nodes.keys()].filter((id) => indegree.get(id) === 0);
  while (ready.length > 0) {
    const id = ready.shift()!;
    order.push(id);
    for (const next of downstream.get(id)!) {
      const left = indegree.get(next)! - 1;
      indegree.set(next, left);
      if (left === 0) ready.push(next);
    }
  }
  if (order.length !== nodes.size) {
    // Named by the product's one cycle finder: each cycle's own nodes, not every node stuck behind it.
    const through = findCycles([...nodes.keys()], downstream).map((cycle) => cycle.slice(0, -1).map((id) => `"${id}"`).join(", "));
    throw new GraphError(`the graph has a cycle through ${through.join(", and another through ")}`, { node_id: findCycles([...nodes.keys()], downstream)[0]?.[0] });
  }

  const scope = new Map<string, readonly string[]>();
  const collectorOf = new Map<string, string>();
  for (const id of order) {
    const node = nodes.get(id)!;
    const ups = upstream.get(id)!;
    if (ups.length === 0) {
      if (node.type === "Collector") throw new GraphError(`Collector node "${id}" has no incoming edge`, { node_id: id });
      scope.set(id, []);
      continue;
    }
    let mine: readonly string[] | undefined;
    for (const up of ups) {
      const upNode = nodes.get(up)!;
      let implied: readonly string[] = upNode.type === "Splitter" ? [...scope.get(up)!, up] : scope.get(up)!;
      if (node.type === "Collector") {
        const closes = implied[implied.length - 1];
        if (closes === undefined) {
          throw new GraphError(`Collector node "${id}" is fed by "${up}", which is not inside any Splitter's paths`, { node_id: id });
        }
        const existing = collectorOf.get(closes);
        if (existing !== undefined && existing !== id) {
          throw new GraphError(`Splitter "${closes}" is closed by two collectors, "${existing}" and "${id}"`, { node_id: id });
        }
        collectorOf.set(closes, id);
        implied = implied.slice(0, -1);
      }
      if (mine === undefined) mine = implied;
      else if (!sameScope(mine, implied)) {
        throw new GraphError(
          `node "${id}" joins edges from different splitter scopes ([${mine.join(", ")}] and [${implied.join(", ")}]); put a Collector before it`,
          { node_id: id },
        );
      }
    }
    scope.set(id, mine!);
  }

  const members = new Map<string, string[]>();
  const insideOf = new Map<string, string[]>();
  for (const [id, node] of nodes) {
    if (node.type === "Splitter") {
      members.set(id, []);
      insideOf.set(id, []);
    }
  }
  for (const id of order) {
    const s = scope.get(id)!;
    const innermost = s[s.length - 1];
    if (innermost !== undefined) members.get(innermost)!.push(id);
    for (const splitter of s) insideOf.get(splitter)!.push(id);
  }

  for (const node of nodes.values()) {
    if (!isReviewGate(node)) continue;
    const ups = upstream.get(node.id)!;
    const reviewed = ups.length === 1 ? nodes.get(ups[0]!) : undefined;
    if (!reviewed || reviewed.type !== "Worker") {
      throw new GraphError(`review gate "${node.id}" must have exactly one incoming edge, from the Worker whose output it reviews`, { node_id: node.id });
    }
    if (downstream.get(reviewed.id)!.length !== 1) {
      throw new GraphError(`Worker "${reviewed.id}" is reviewed by gate "${node.id}", so the gate must be its only downstream node`, { node_id: node.id });
    }
  }

  const entries = order.filter((id) => upstream.get(id)!.length === 0);
  return { nodes, upstream, downstream, scope, collectorOf, entries, members, insideOf };
}

/** Every node `nodeId` reaches on the graph (itself included), following its edges `way`: what is after it, or before it. */
export function reachable(g: Pick<CompiledGraph, "upstream" | "downstream">, nodeId: string, way: "upstream" | "downstream"): Set<string> {
  const found = new Set<string>([nodeId]);
  const visit = (id: string) => {
    for (const next of g[way].get(id) ?? []) if (!found.has(next)) (found.add(next), visit(next));
  };
  visit(nodeId);
  return found;
}

/** Maps an instance key back to its node and path indices; undefined when the key names nothing in this graph. */
export function parseKey(g: CompiledGraph, key: string): InstanceRef | undefined {
  let nodeId = key;
  const vector: number[] = [];
  while (!g.nodes.has(nodeId)) {
    const m = /^(.*)_(0|[1-9]\d*)$/.exec(nodeId);
    if (!m) return undefined;
    nodeId = m[1]!;
    vector.unshift(Number(m[2]));
  }
  const node = g.nodes.get(nodeId)!;
  const depth = g.scope.get(nodeId)!.length;
  if (vector.length !== 0 && vector.length !== depth) return undefined;
  return { nodeId, node, vector, template: depth > 0 && vector.length === 0 };
}

/** The instance of `nodeId` that belongs to the same path as an instance at `vector` (a prefix of it). */
export const keyInPath = (g: CompiledGraph, nodeId: string, vector: readonly number[]): string =>
  instanceKey(nodeId, vector.slice(0, g.scope.get(nodeId)!.length));

/** Reads a dot path (`items`, `result.rows`, `rows.0`) from a JSON value; the empty path is the value itself. */
export function readPath(value: unknown, path: string): unknown {
  if (path === "" || path === ".") return value;
  let current: unknown = value;
  for (const part of path.split(".")) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}
