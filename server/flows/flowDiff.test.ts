/** Issue 42, the diff between two versions: nodes added, removed, moved and changed (field by field, words for text), edges added and removed. */
import { describe, expect, it } from "vitest";
import { chain, graphOf, uxNode, workerNode } from "../testing/flows";
import { diffGraphs } from "./flowDiff";

describe("the structural diff between two versions of a flow", () => {
  const before = graphOf(
    [workerNode("W", "https://worker.example/a", { label: "Draft the reply", retry: { maxAttempts: 2 } }), uxNode("R", { gate: "review" }), uxNode("Old")],
    chain("W", "R"),
    chain("R", "Old"),
  );

  it("names each kind of change once, and nothing when nothing changed", () => {
    const after = graphOf(
      [
        { ...workerNode("W", "https://worker.example/b", { label: "Draft the polite reply", retry: { maxAttempts: 3 }, timeoutMs: 5000 }), position: { x: 40, y: 0 } },
        uxNode("R", { gate: "review" }),
        uxNode("New"),
      ],
      chain("W", "R"),
      chain("R", "New"),
    );
    const diff = diffGraphs(1, before, 2, after);
    expect(diff.nodes.added).toEqual([{ id: "New", type: "UX", label: "New" }]);
    expect(diff.nodes.removed).toEqual([{ id: "Old", type: "UX", label: "Old" }]);
    expect(diff.nodes.moved).toEqual([{ id: "W", type: "Worker", label: "Draft the polite reply", from: { x: 0, y: 0 }, to: { x: 40, y: 0 } }]);
    const fields = diff.nodes.changed.find((n) => n.id === "W")!.fields;
    expect(fields.map((f) => [f.field, f.change])).toEqual([["webhookUrl", "changed"], ["label", "changed"], ["retry.maxAttempts", "changed"], ["timeoutMs", "added"]]);
    expect(fields.find((f) => f.field === "label")!.pieces).toEqual([
      { op: "equal", text: "Draft the " }, { op: "insert", text: "polite " }, { op: "equal", text: "reply" },
    ]);
    expect(diff.nodes.changed.map((n) => n.id)).toEqual(["W"]);
    expect(diff.edges).toEqual({ added: [{ id: "R->New", source: "R", target: "New" }], removed: [{ id: "R->Old", source: "R", target: "Old" }] });
    expect(diffGraphs(1, before, 1, before)).toEqual({ from: 1, to: 1, nodes: { added: [], removed: [], moved: [], changed: [] }, edges: { added: [], removed: [] } });
  });

  it("a node whose type changed says so; an edge whose id alone changed is no change", () => {
    const after = { nodes: before.nodes.map((n) => (n.id === "Old" ? { ...n, type: "Collector" as const } : n)), edges: before.edges.map((e) => ({ ...e, id: `edge-${e.id}` })) };
    const diff = diffGraphs(1, before, 2, after);
    expect(diff.nodes.changed).toEqual([{ id: "Old", type: "Collector", label: "Old", fields: [{ field: "type", change: "changed", before: "UX", after: "Collector" }] }]);
    expect(diff.edges).toEqual({ added: [], removed: [] });
  });
});
