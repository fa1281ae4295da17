/**
 * Graph compilation (graph.ts) and the schemas of Requirements 1 and 3, without any database:
 * what a flow may look like, and the answers edge-walking and splitting read from the compiled graph.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import { chain, collectorNode, graphOf, reviewGate, splitterNode, uxNode, workerNode } from "../testing/flows";
import { GraphError, compileGraph, instanceKey, parseKey, readPath } from "./graph";
import {
  NodeConfig, NodeState, NodeStatus, StitchEdge, StitchFlow, StitchGraph, StitchNode, StitchRun,
} from "./schemas";

const hook = "https://worker.example.test/hook";

describe("Requirement 1: flow graphs (the graph JSONB of stitch_flows)", () => {
  it("1.3 accepts nodes with id, type, position and data, and rejects a node missing one of them", () => {
    const node = { id: "A", type: "Worker", position: { x: 1, y: 2 }, data: { webhookUrl: hook } };
    expect(StitchNode.parse(node)).toEqual(node);
    for (const missing of ["id", "type", "position", "data"] as const) {
      const { [missing]: _dropped, ...rest } = node;
      const parsed = StitchNode.safeParse(rest);
      expect(parsed.success).toBe(false);
      expect(parsed.error!.issues[0]!.path).toEqual([missing]);
    }
    expect(StitchNode.safeParse({ ...node, type: "Robot" }).success).toBe(false);
  });

  it("1.4 accepts edges with id, source, target and optional (or null) sourceHandle/targetHandle", () => {
    expect(StitchEdge.parse({ id: "e", source: "A", target: "B" })).toEqual({ id: "e", source: "A", target: "B" });
    expect(StitchEdge.parse({ id: "e", source: "A", target: "B", sourceHandle: "out", targetHandle: null })).toMatchObject({ sourceHandle: "out" });
    expect(StitchEdge.safeParse({ id: "e", source: "A" }).success).toBe(false);
    expect(StitchGraph.safeParse({ nodes: [] }).success).toBe(false);
  });
});

describe("Requirement 3: TypeScript type definitions", () => {
  it("3.1 StitchNode has id, type (UX | Worker | Splitter | Collector), position {x, y} and data", () => {
    expectTypeOf<StitchNode>().toEqualTypeOf<{ id: string; type: "UX" | "Worker" | "Splitter" | "Collector"; position: { x: number; y: number }; data: Record<string, unknown> }>();
  });
  it("3.2 StitchEdge has id, source, target and optional handles", () => {
    expectTypeOf<StitchEdge["sourceHandle"]>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<StitchEdge["targetHandle"]>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<Pick<StitchEdge, "id" | "source" | "target">>().toEqualTypeOf<{ id: string; source: string; target: string }>();
  });
  it("3.3 StitchFlow matches the stitch_flows row (with the latest version's number, issue 42)", () => {
    expectTypeOf<StitchFlow>().toEqualTypeOf<{ id: string; name: string; graph: StitchGraph; version: number; created_at: string; updated_at: string }>();
    expect(StitchFlow.safeParse({ id: "not-a-uuid", name: "n", graph: { nodes: [], edges: [] }, version: 1, created_at: "", updated_at: "" }).success).toBe(false);
  });
  it("3.4 NodeState has status (the seed's five and the engine's extras), output and optional error", () => {
    for (const status of ["pending", "running", "completed", "failed", "waiting_for_user"]) expect(NodeStatus.safeParse(status).success).toBe(true);
    expect(NodeStatus.safeParse("done").success).toBe(false);
    expectTypeOf<NodeState["error"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<NodeState["output"]>().toBeUnknown();
  });
  it("3.5 StitchRun has id, flow_id, node_states (nodeId -> NodeState), created_at and updated_at", () => {
    expectTypeOf<StitchRun["node_states"]>().toEqualTypeOf<Record<string, NodeState>>();
    expectTypeOf<StitchRun>().toHaveProperty("flow_id").toEqualTypeOf<string>();
    expectTypeOf<StitchRun>().toHaveProperty("created_at").toEqualTypeOf<string>();
    expectTypeOf<StitchRun>().toHaveProperty("updated_at").toEqualTypeOf<string>();
  });
  it("3.6 NodeConfig is the type of StitchNode.data", () => {
    expectTypeOf<StitchNode["data"]>().toEqualTypeOf<NodeConfig>();
    expect(NodeConfig.safeParse({ webhookUrl: hook, anything: [1] }).success).toBe(true);
    expect(NodeConfig.safeParse("text").success).toBe(false);
  });
});

describe("graph validation: a flow that cannot run is refused with a message naming the problem", () => {
  const refusals: [string, StitchGraph, RegExp][] = [
    ["an empty graph", { nodes: [], edges: [] }, /no nodes/],
    ["two nodes with one id", graphOf([uxNode("A"), uxNode("A")]), /two nodes share the id "A"/],
    ["an edge to an unknown node", graphOf([uxNode("A")], [["A", "B"]]), /ends at unknown node "B"/],
    ["an edge from an unknown node", graphOf([uxNode("B")], [["A", "B"]]), /starts at unknown node "A"/],
    ["a self-loop", graphOf([uxNode("A")], [["A", "A"]]), /connects node "A" to itself/],
    ["a cycle", graphOf([uxNode("S"), uxNode("A"), uxNode("B")], chain("S", "A", "B", "A")), /cycle through "A", "B"/],
    ["a Worker without webhookUrl", graphOf([{ id: "W", type: "Worker", position: { x: 0, y: 0 }, data: {} }]), /"W" needs data.webhookUrl/],
    ["a Worker with a webhookUrl that is not a URL", graphOf([workerNode("W", "not a url")]), /"not a url", which is not a URL/],
    ["a Worker with a non-HTTP webhookUrl", graphOf([workerNode("W", "ftp://example.test/x")]), /only http and https/],
    ["a Splitter without arrayPath", graphOf([{ id: "S", type: "Splitter", position: { x: 0, y: 0 }, data: {} }, uxNode("U")], chain("S", "U")), /"S" needs data.arrayPath/],
    ["a Splitter with no outgoing edge", graphOf([splitterNode("S")]), /Splitter node "S" has no outgoing edge/],
    ["a Collector with no incoming edge", graphOf([collectorNode("C")]), /Collector node "C" has no incoming edge/],
    ["a Collector outside any split", graphOf([uxNode("U"), collectorNode("C")], chain("U", "C")), /not inside any Splitter's paths/],
    [
      "one splitter closed by two collectors",
      graphOf([splitterNode("S"), workerNode("W", hook), collectorNode("C1"), collectorNode("C2")], chain("S", "W", "C1"), chain("W", "C2")),
      /closed by two collectors, "C1" and "C2"/,
    ],
    [
      "a join of a path and the outside",
      graphOf([uxNode("U"), splitterNode("S"), workerNode("W", hook), uxNode("J")], chain("U", "S", "W", "J"), chain("U", "J")),
      /node "J" joins edges from different splitter scopes/,
    ],
    [
      "a node id that reads as another node's path, in a graph with paths",
      graphOf([uxNode("W"), uxNode("W_0"), splitterNode("S"), workerNode("P", hook)], chain("S", "P")),
      /"W_0" could be mistaken for a path of node "W"/,
    ],
    ["a timeout that is not a positive whole number", graphOf([workerNode("W", hook, { timeoutMs: -5 })]), /"W" has an invalid data\.timeoutMs: -5; data\.timeoutMs must be a positive whole number/],
    ["a retry without maxAttempts", graphOf([workerNode("W", hook, { retry: { backoffMs: 10 } })]), /invalid data\.retry\.maxAttempts/],
    ["a retry with too many attempts", graphOf([workerNode("W", hook, { retry: { maxAttempts: 1000 } })]), /invalid data\.retry\.maxAttempts.*maxAttempts: 1 to 100/],
    ["a retry with an unknown field", graphOf([workerNode("W", hook, { retry: { maxAttempts: 2, jitter: true } })]), /invalid data\.retry: .*jitter/],
    ["a retry on a node that is not a Worker", graphOf([uxNode("U", { retry: { maxAttempts: 2 } })]), /only Worker nodes are retried automatically/],
    ["a review gate after a non-Worker", graphOf([uxNode("U"), reviewGate("G")], chain("U", "G")), /review gate "G" must have exactly one incoming edge/],
    [
      "a reviewed Worker with a second downstream node",
      graphOf([workerNode("W", hook), reviewGate("G"), uxNode("X")], chain("W", "G"), chain("W", "X")),
      /gate must be its only downstream node/,
    ],
    ["the same two nodes connected twice", { nodes: [uxNode("A"), uxNode("B")], edges: [{ id: "e1", source: "A", target: "B" }, { id: "e2", source: "A", target: "B" }] }, /connected twice/],
    ["two edges with one id", { nodes: [uxNode("A"), uxNode("B"), uxNode("C")], edges: [{ id: "e", source: "A", target: "B" }, { id: "e", source: "B", target: "C" }] }, /two edges share the id "e"/],
  ];
  it.each(refusals)("refuses %s", (_what, graph, message) => {
    expect(() => compileGraph(graph)).toThrow(GraphError);
    expect(() => compileGraph(graph)).toThrow(message);
  });

  it("accepts ids that only read like path keys in a graph without splitters (it has no paths), and each names its own node", () => {
    const g = compileGraph(graphOf([uxNode("step"), uxNode("step_1")], chain("step", "step_1")));
    expect(parseKey(g, "step_1")).toMatchObject({ nodeId: "step_1", vector: [] });
  });

  it("refuses trigger rules it does not know, and on node types that do not fire by rule", () => {
    const task = (data: Record<string, unknown>) => ({ id: "T", type: "Worker" as const, position: { x: 0, y: 0 }, data: { executor: "workflow", ...data } });
    expect(() => compileGraph(graphOf([task({ triggerRule: "sometimes" })]))).toThrow(/"T" has an invalid data\.triggerRule: "sometimes"; data\.triggerRule must be one of all_success, one_success/);
    const ruledSplitter = { ...splitterNode("S"), data: { arrayPath: "", triggerRule: "all_done" } };
    expect(() => compileGraph(graphOf([ruledSplitter, task({})], chain("S", "T")))).toThrow(/only Worker and UX nodes fire by trigger rule/);
    expect(compileGraph(graphOf([task({ triggerRule: "all_done" })])).nodes.get("T")!.data.executor).toBe("workflow");
  });
});

describe("Requirement 9: what edge-walking reads from the compiled graph", () => {
  const g = compileGraph(graphOf([uxNode("A"), workerNode("B", hook), workerNode("C", hook), uxNode("D")], chain("A", "B", "D"), chain("A", "C", "D")));
  it("9.1/9.2 lists every target of a node's outbound edges, in edge order", () => {
    expect(g.downstream.get("A")).toEqual(["B", "C"]);
  });
  it("9.3 lists every upstream dependency of a node", () => {
    expect(g.upstream.get("D")).toEqual(["B", "C"]);
  });
  it("9.7 a node without outbound edges is terminal", () => {
    expect(g.downstream.get("D")).toEqual([]);
  });
  it("entry nodes are the nodes with no incoming edge", () => {
    expect(g.entries).toEqual(["A"]);
  });
});

describe("Requirement 6: splitter scopes and path keys", () => {
  // S1 splits; inside each path S2 splits again; W runs per inner path; C2 closes S2 and C1 closes S1.
  const nested = compileGraph(
    graphOf([splitterNode("S1"), splitterNode("S2", "inner"), workerNode("W", hook), collectorNode("C2"), collectorNode("C1"), uxNode("After")],
      chain("S1", "S2", "W", "C2", "C1", "After")),
  );

  it("records which splitters each node runs inside, outermost first, and which collector closes each", () => {
    expect(nested.scope.get("S1")).toEqual([]);
    expect(nested.scope.get("S2")).toEqual(["S1"]);
    expect(nested.scope.get("W")).toEqual(["S1", "S2"]);
    expect(nested.scope.get("C2")).toEqual(["S1"]);
    expect(nested.scope.get("C1")).toEqual([]);
    expect(nested.scope.get("After")).toEqual([]);
    expect(Object.fromEntries(nested.collectorOf)).toEqual({ S1: "C1", S2: "C2" });
    expect(nested.members.get("S1")).toEqual(["S2", "C2"]);
    expect(nested.members.get("S2")).toEqual(["W"]);
    expect(nested.insideOf.get("S1")).toEqual(["S2", "W", "C2"]);
  });

  it("6.4 names a path instance nodeId_<index> (nested: nodeId_<outer>_<inner>)", () => {
    expect(instanceKey("W", [1, 0])).toBe("W_1_0");
    expect(instanceKey("S2", [2])).toBe("S2_2");
    expect(instanceKey("After", [])).toBe("After");
  });

  it("maps instance keys back to node and path, and refuses keys that name nothing", () => {
    expect(parseKey(nested, "W_1_0")).toMatchObject({ nodeId: "W", vector: [1, 0], template: false });
    expect(parseKey(nested, "W")).toMatchObject({ nodeId: "W", vector: [], template: true });
    expect(parseKey(nested, "C1")).toMatchObject({ nodeId: "C1", vector: [], template: false });
    expect(parseKey(nested, "W_1")).toBeUndefined(); // W runs inside two splitters: it needs two indices
    expect(parseKey(nested, "After_0")).toBeUndefined(); // After is outside every split
    expect(parseKey(nested, "W_01_0")).toBeUndefined(); // not how indices are written
    expect(parseKey(nested, "Nope")).toBeUndefined();
  });

  it("6.2 reads the array from the input by a dot path", () => {
    const input = { result: { rows: [1, 2] }, items: ["a"], list: [[9]] };
    expect(readPath(input, "items")).toEqual(["a"]);
    expect(readPath(input, "result.rows")).toEqual([1, 2]);
    expect(readPath(input, "list.0")).toEqual([9]);
    expect(readPath([3, 4], "")).toEqual([3, 4]);
    expect(readPath(input, "missing.deeper")).toBeUndefined();
    expect(readPath("text", "items")).toBeUndefined();
  });
});
