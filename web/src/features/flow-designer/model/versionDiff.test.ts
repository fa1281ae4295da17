/** The designer's diff between versions: on the canvas (marks) and as the list beside it, a changed text by its words. */
import { describe, expect, it } from "vitest";
import { FlowDiffSchema, diffLines, diffOnCanvas } from "./versionDiff";

const node = (id: string, label: string, x = 0) => ({ id, type: "Worker" as const, position: { x, y: 0 }, data: { label } });

const diff = FlowDiffSchema.parse({
  from: 1,
  to: 2,
  nodes: {
    added: [{ id: "c", type: "Collector", label: "Collector" }],
    removed: [{ id: "b", type: "UX", label: "Review" }],
    moved: [{ id: "a", type: "Worker", label: "List orders", from: { x: 0, y: 0 }, to: { x: 40, y: 0 } }],
    changed: [
      {
        id: "a", type: "Worker", label: "List orders",
        fields: [
          { field: "label", change: "changed", before: "List orders", after: "List open orders", pieces: [{ op: "equal", text: "List " }, { op: "insert", text: "open " }, { op: "equal", text: "orders" }] },
          { field: "timeoutMs", change: "changed", before: 1000, after: 5000 },
        ],
      },
    ],
  },
  edges: { added: [{ id: "a->c", source: "a", target: "c" }], removed: [{ id: "a->b", source: "a", target: "b" }] },
});

describe("a diff between two versions", () => {
  it("lists each change; a changed text keeps its word pieces, any other value reads before and after", () => {
    const lines = diffLines(diff);
    expect(lines.map((l) => l.text)).toEqual(['Added Collector "Collector"', 'Removed UX "Review"', 'Changed "List orders"', 'Moved "List orders"', "Connected a → c", "Disconnected a → b"]);
    const changed = lines.find((l) => l.fields)!;
    expect(changed.fields).toEqual([
      { field: "label", before: '"List orders"', after: '"List open orders"', pieces: [{ op: "equal", text: "List " }, { op: "insert", text: "open " }, { op: "equal", text: "orders" }] },
      { field: "timeoutMs", before: "1000", after: "5000" },
    ]);
  });

  it("draws the removed node back in, marked, with every node's mark and the edges added and removed", () => {
    const shown = diffOnCanvas({ nodes: [node("a", "List orders"), node("b", "Review")], edges: [{ id: "a->b", source: "a", target: "b" }] }, { nodes: [node("a", "List open orders", 40), node("c", "Collector")], edges: [{ id: "a->c", source: "a", target: "c" }] }, diff);
    expect(shown.graph.nodes.map((n) => n.id)).toEqual(["a", "c", "b"]);
    expect(Object.fromEntries([...shown.decorations].map(([id, d]) => [id, d.mark]))).toEqual({ a: "changed", c: "added", b: "removed" });
    expect(Object.fromEntries(shown.edgeMarks)).toEqual({ "a->c": "added", "a->b": "removed" });
  });
});
