/**
 * The comparison of two runs of any front door: each run linked to its own page (a pipeline run's conversation by its
 * RUN_ id, a flow run's, a workflow run's), the nodes that differ first and the rest behind "Show unchanged", and the
 * engine's node types only for plain flow runs (a front door's runs are named by their labels).
 */
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RouterOutputs } from "../../../lib/trpc";
import { RunComparePage } from "./RunComparePage";

type Comparison = RouterOutputs["engine"]["runs"]["compare"];
const answer = vi.hoisted(() => ({ comparison: undefined as unknown }));
vi.mock("../api/forks", () => ({ useRunComparison: () => ({ data: answer.comparison, error: null, refetch: () => undefined }) }));

afterEach(cleanup);

const [A, B] = ["11111111-aaaa-4aaa-8aaa-000000000001", "22222222-aaaa-4aaa-8aaa-000000000002"];
const side = (output: unknown) => ({ status: "completed" as const, duration_ms: 1200, decided_by: null, copied_from: null, output });
const run = (id: string, owner: Comparison["a"]["owner"]) => ({ id, owner, name: "the pipeline", status: "waiting_for_user" as const, flow_version: 1, forked_from: null });
const nodes: Comparison["nodes"] = [
  { node_id: "agent_requirements", label: "Requirements", node_type: "Worker", a: side({ goal: "rides" }), b: side({ goal: "clinics" }), same: false, diff: [] },
  { node_id: "review_requirements", label: "Review Requirements", node_type: "UX", a: side(null), b: side(null), same: true, diff: null },
];

describe("RunComparePage", () => {
  it("links two pipeline runs to their conversations by their RUN_ ids, names nodes by their labels alone, and shows the unchanged on demand", () => {
    answer.comparison = { a: run(A, { front_door: "pipeline", run_id: "RUN_1" }), b: run(B, { front_door: "pipeline", run_id: "RUN_2" }), relation: "same_definition", nodes } satisfies Comparison;
    render(<RunComparePage a="RUN_1" b="RUN_2" />);
    expect(screen.getByRole("link", { name: "run RUN_1" }).getAttribute("href")).toBe("/app/runs/RUN_1");
    expect(screen.getByRole("link", { name: "run RUN_2" }).getAttribute("href")).toBe("/app/runs/RUN_2");
    expect(screen.getByText("1 of 2 nodes differ.", { exact: false })).toBeTruthy();
    expect(screen.getByRole("heading", { level: 2 }).textContent).toBe("Requirements differs");
    expect(screen.queryByRole("region", { name: "Review Requirements: the same" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Show unchanged (1)" }));
    expect(screen.getByRole("region", { name: "Review Requirements: the same" })).toBeTruthy();
  });

  it("links a YAML run to the workflows' page and a plain flow run to its conversation, with the engine's node types for flow runs", () => {
    answer.comparison = { a: run(A, { front_door: "yaml", run_id: A }), b: run(B, null), relation: "child", nodes } satisfies Comparison;
    const { unmount } = render(<RunComparePage a={A} b={B} />);
    expect(screen.getByRole("link", { name: "run 11111111" }).getAttribute("href")).toBe(`/app/workflows/runs/${A}`);
    expect(screen.getByRole("link", { name: "run 22222222" }).getAttribute("href")).toBe(`/app/flows/runs/${B}`);
    unmount();
    answer.comparison = { a: run(A, null), b: run(B, null), relation: "child", nodes } satisfies Comparison;
    render(<RunComparePage a={A} b={B} />);
    expect(screen.getByRole("heading", { level: 2 }).textContent).toBe("Requirements Worker differs");
  });
});
