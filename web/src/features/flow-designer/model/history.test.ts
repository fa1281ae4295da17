/** Undo and redo for every change (issue 42): one step per change, one per gesture (typing in a field, a drag). */
import { describe, expect, it } from "vitest";
import type { FlowGraph } from "../../../lib/trpc";
import { addNode, connect, moveNodes, setNodeData } from "./editing";
import { historyReducer, initialHistory } from "./history";

const empty: FlowGraph = { nodes: [], edges: [] };

describe("the designer's undo history", () => {
  it("undoes and redoes each committed change in order", () => {
    const one = addNode(empty, "worker");
    const two = addNode(one.graph, "splitter", { afterId: one.id });
    let state = historyReducer(initialHistory(empty), { type: "commit", graph: one.graph });
    state = historyReducer(state, { type: "commit", graph: two.graph });
    state = historyReducer(state, { type: "undo" });
    expect(state.present).toBe(one.graph);
    state = historyReducer(state, { type: "undo" });
    expect(state.present).toBe(empty);
    state = historyReducer(state, { type: "redo" });
    state = historyReducer(state, { type: "redo" });
    expect(state.present).toBe(two.graph);
  });

  it("keeps typing in one field as one step, and a new field as the next", () => {
    const { graph, id } = addNode(empty, "worker");
    let state = initialHistory(graph);
    const typed = ["h", "ht", "http://w"].map((url) => setNodeData(graph, id, { ...graph.nodes[0]!.data, webhookUrl: url }));
    for (const next of typed) state = historyReducer(state, { type: "commit", graph: next, group: `field:${id}:webhookUrl` });
    const named = setNodeData(typed[2]!, id, { ...typed[2]!.nodes[0]!.data, label: "Fetch" });
    state = historyReducer(state, { type: "commit", graph: named, group: `field:${id}:label` });
    expect(state.past).toHaveLength(2);
    state = historyReducer(state, { type: "undo" });
    expect(state.present.nodes[0]!.data.webhookUrl).toBe("http://w");
    state = historyReducer(state, { type: "undo" });
    expect(state.present).toBe(graph);
  });

  it("makes a drag one step from where it began, however many frames it previewed", () => {
    const { graph, id } = addNode(empty, "worker");
    let state = initialHistory(graph);
    for (let x = 1; x <= 30; x++) state = historyReducer(state, { type: "preview", graph: moveNodes(graph, new Map([[id, { x, y: 0 }]])) });
    state = historyReducer(state, { type: "commit", graph: state.present });
    expect(state.past).toEqual([graph]);
    expect(historyReducer(state, { type: "undo" }).present).toBe(graph);
  });

  it("a new change after an undo drops what could have been redone", () => {
    const a = addNode(empty, "worker");
    let state = historyReducer(initialHistory(empty), { type: "commit", graph: a.graph });
    state = historyReducer(state, { type: "undo" });
    state = historyReducer(state, { type: "commit", graph: connect(addNode(empty, "ux").graph, "x", "y") });
    expect(state.future).toEqual([]);
  });
});
