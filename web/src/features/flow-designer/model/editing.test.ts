/** The designer's changes to a graph (issue 42): add after and connect, delete with edges, paste with fresh ids, tidy up, import. */
import { describe, expect, it } from "vitest";
import type { FlowGraph } from "../../../lib/trpc";
import { addNode, fragmentOf, pasteFragment, removeNodes } from "./editing";
import { clipboardText, parseFlowJson, readClipboard } from "./flowJson";
import { tidyUp } from "./layout";

function chain(): FlowGraph {
  let graph: FlowGraph = { nodes: [], edges: [] };
  let after: string | null = null;
  for (const kind of ["worker", "splitter", "worker", "collector"] as const) {
    const added = addNode(graph, kind, { afterId: after });
    graph = added.graph;
    after = added.id;
  }
  return graph;
}

describe("editing a flow's graph", () => {
  it("adds a node after the selected one and connects it, with ids that are never a split path's", () => {
    const graph = chain();
    expect(graph.nodes.map((n) => n.id)).toEqual(["worker-1", "split-1", "worker-2", "collect-1"]);
    expect(graph.edges.map((e) => [e.source, e.target])).toEqual([["worker-1", "split-1"], ["split-1", "worker-2"], ["worker-2", "collect-1"]]);
    expect(graph.nodes.every((n) => !/_\d+$/.test(n.id))).toBe(true);
  });

  it("deletes a node with every edge that touches it", () => {
    const graph = removeNodes(chain(), new Set(["split-1"]));
    expect(graph.nodes.map((n) => n.id)).toEqual(["worker-1", "worker-2", "collect-1"]);
    expect(graph.edges.map((e) => [e.source, e.target])).toEqual([["worker-2", "collect-1"]]);
  });

  it("pastes copied nodes (through the clipboard's text) with fresh ids and their own edges, overwriting nothing", () => {
    const graph = chain();
    const text = clipboardText(fragmentOf(graph, new Set(["split-1", "worker-2"])));
    const fragment = readClipboard(text)!;
    const pasted = pasteFragment(graph, fragment);
    expect(pasted.ids).toEqual(["split-2", "worker-3"]);
    expect(pasted.graph.nodes.slice(0, 4)).toEqual(graph.nodes);
    expect(pasted.graph.edges.at(-1)).toMatchObject({ source: "split-2", target: "worker-3" });
    expect(readClipboard('{"nodes": []}')).toBeNull();
  });

  it("tidies up into ranks left to right, keeping nodes and edges", () => {
    const tidy = tidyUp(chain());
    const xs = tidy.nodes.map((n) => n.position.x);
    expect(xs).toEqual([...xs].sort((a, b) => a - b));
    expect(new Set(xs).size).toBe(4);
    expect(tidy.edges).toEqual(chain().edges);
  });

  it("imports React Flow's JSON, dropping what React Flow adds, and says what is wrong with anything else", () => {
    const parsed = parseFlowJson(JSON.stringify({ nodes: [{ id: "a", type: "Worker", position: { x: 0, y: 0 }, data: {}, selected: true, measured: { width: 1 } }], edges: [], viewport: { x: 0 } }));
    expect(parsed).toEqual({ ok: true, graph: { nodes: [{ id: "a", type: "Worker", position: { x: 0, y: 0 }, data: {} }], edges: [] } });
    expect(parseFlowJson("{")).toMatchObject({ ok: false, error: expect.stringContaining("not JSON") });
    expect(parseFlowJson('{"nodes": [{"id": "a", "type": "Robot", "position": {"x": 0, "y": 0}}]}')).toMatchObject({ ok: false, error: expect.stringContaining("nodes.0.type") });
  });
});
