import { describe, expect, it } from "vitest";
import type { FlowGraph, FlowNode } from "../../../lib/trpc";
import { canvasHeight, edgeSides, isReviewGate, isWorkflowApproval, nodeViews, ownerOfPathKey } from "./nodeStates";

const node = (id: string, type: FlowNode["type"], x: number, y = 0, data: Record<string, unknown> = {}) => ({ id, type, position: { x, y }, data });

const graph: FlowGraph = {
  nodes: [node("S", "Splitter", 0, 0, { label: "Split items" }), node("W", "Worker", 200), node("W_1x", "Worker", 300), node("X", "UX", 400), node("C", "Collector", 600)],
  edges: [
    { id: "e1", source: "S", target: "W" },
    { id: "e2", source: "W", target: "X" },
    { id: "e3", source: "X", target: "C" },
  ],
};

describe("nodeViews", () => {
  it("groups splitter paths, nested ones included, under their node, ordered by index", () => {
    const views = nodeViews(graph, {
      S: { status: "completed", output: [1, 2] },
      W: { status: "split", output: null },
      W_1: { status: "running", output: null },
      W_0: { status: "completed", output: "a" },
      X: { status: "split", output: null },
      X_1_0: { status: "waiting_for_user", output: null },
      X_0_1: { status: "completed", output: null },
      C: { status: "pending", output: null },
    });
    const byId = Object.fromEntries(views.map((v) => [v.id, v]));
    expect(byId.S!.label).toBe("Split items");
    expect(byId.W!.paths.map((p) => p.key)).toEqual(["W_0", "W_1"]);
    expect(byId.W!.summary).toBe("running");
    expect(byId.X!.paths.map((p) => p.indices)).toEqual([[0, 1], [1, 0]]);
    expect(byId.X!.summary).toBe("waiting_for_user");
    // A node whose id merely looks like a path key keeps its own state and takes no paths.
    expect(byId.W_1x!.paths).toEqual([]);
    expect(byId.W_1x!.summary).toBe("not_started");
  });

  it("assigns a path key to the longest node id it extends", () => {
    expect(ownerOfPathKey("A_1_2", ["A", "A_1"])).toEqual({ nodeId: "A_1", indices: [2] });
    expect(ownerOfPathKey("A_x", ["A"])).toBeNull();
  });

  it("joins nodes side by side left to right and stacked nodes top to bottom", () => {
    expect(edgeSides({ x: 0, y: 0 }, { x: 260, y: 40 })).toBe("horizontal");
    expect(edgeSides({ x: 0, y: 0 }, { x: 10, y: 300 })).toBe("vertical");
  });

  it("sizes the canvas to the flow's rows", () => {
    expect(canvasHeight(graph)).toBe(280);
    expect(canvasHeight({ nodes: [node("a", "Worker", 0, 0), node("b", "Worker", 0, 2000)], edges: [] })).toBe(560);
  });
});

describe("gates", () => {
  it("tells a review gate, decided on the node, from a workflow's approval, decided through its run", () => {
    const review = { type: "UX" as const, data: { gate: "review" } };
    const approval = { type: "UX" as const, data: { gate: "approval" } };
    expect([isReviewGate(review), isWorkflowApproval(review)]).toEqual([true, false]);
    expect([isReviewGate(approval), isWorkflowApproval(approval)]).toEqual([false, true]);
    expect(isWorkflowApproval({ type: "UX", data: {} })).toBe(false);
  });
});
