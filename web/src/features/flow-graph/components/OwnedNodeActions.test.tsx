/**
 * The graph view of a run that a front door owns offers only what the owner allows, through the owner: decisions in
 * the owner's conversation (no Approve, Request changes or Complete of the generic doors), and a failed node retried
 * by the owner's own retry, which a pipeline allows on its agents only.
 */
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SessionProvider } from "../../../lib/session";
import { formatTime } from "../../../lib/time";
import type { Decision, Role } from "../../../lib/trpc";
import { decision as aDecision } from "../../../testing/decisions";
import { signedIn } from "../../../testing/people";
import type { NodeView } from "../utils/nodeStates";
import { NodeInspector } from "./NodeInspector";

const retried = vi.hoisted(() => ({ calls: [] as unknown[], decision: undefined as unknown, asked: [] as unknown[] }));
vi.mock("../api/node-actions", () => ({
  useCompleteNode: () => ({ mutate: vi.fn(), isPending: false, error: null }),
  useReviewNode: () => ({ mutate: vi.fn(), isPending: false, error: null }),
  useRetryNode: () => ({ mutate: vi.fn(), isPending: false, error: null }),
  useOwnerRetry: (owner: unknown) => ({ retry: (nodeKey: string) => retried.calls.push({ owner, nodeKey }), isPending: false, error: null }),
  useNodeForkTarget: () => null,
  useNodeDecision: (...args: unknown[]) => {
    retried.asked.push(args);
    return retried.decision;
  },
}));

afterEach(() => {
  cleanup();
  retried.calls = [];
  retried.decision = undefined;
  retried.asked = [];
});

const gate: NodeView = { id: "review_requirements", type: "UX", label: "Review requirements", data: { gate: "review" }, state: null, paths: [], summary: "waiting_for_user" };
const agent: NodeView = { id: "agent_requirements", type: "Worker", label: "Requirements", data: {}, state: null, paths: [], summary: "failed" };
const pipelineOwner = { front_door: "pipeline", run_id: "RUN_1" } as const;

const asOperator = (children: ReactNode) => render(<SessionProvider value={signedIn("operator")}>{children}</SessionProvider>);
const as = (role: Role, children: ReactNode) => render(<SessionProvider value={signedIn(role)}>{children}</SessionProvider>);

describe("the graph of an owned run", () => {
  it("sends a waiting gate's decision to the owner's conversation and offers no generic decision", () => {
    asOperator(<NodeInspector runId="e-1" owner={pipelineOwner} view={gate} nodeKey="review_requirements" state={{ status: "waiting_for_user", output: null }} onClose={vi.fn()} />);
    expect(screen.getByRole("link", { name: "the run's conversation" }).getAttribute("href")).toBe("/app/runs/RUN_1");
    expect(screen.queryByRole("button", { name: "Approve" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Request changes" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Complete node" })).toBeNull();
  });

  it("retries a failed agent through the owner's retry", () => {
    asOperator(<NodeInspector runId="e-1" owner={pipelineOwner} view={agent} nodeKey="agent_requirements" state={{ status: "failed", output: null, error: "HTTP 500" }} onClose={vi.fn()} />);
    fireEvent.click(screen.getByRole("button", { name: "Retry node" }));
    expect(retried.calls).toEqual([{ owner: pipelineOwner, nodeKey: "agent_requirements" }]);
  });

  it("offers no retry of a pipeline node that is not an agent", () => {
    asOperator(<NodeInspector runId="e-1" owner={pipelineOwner} view={gate} nodeKey="review_requirements" state={{ status: "failed", output: null, error: "x" }} onClose={vi.fn()} />);
    expect(screen.queryByRole("button", { name: "Retry node" })).toBeNull();
  });

  it("a plain flow's waiting review gate is decided right here", () => {
    asOperator(<NodeInspector runId="e-1" owner={null} view={gate} nodeKey="review_requirements" state={{ status: "waiting_for_user", output: null }} onClose={vi.fn()} />);
    expect(screen.getByRole("button", { name: "Approve" })).toBeTruthy();
  });
});

describe("who a waiting node waits for", () => {
  const since = new Date();
  since.setHours(10, 2, 0, 0);
  const waitingGate = (role: Role, decision: Decision | undefined, owner: typeof pipelineOwner | null = null) => {
    retried.decision = decision;
    return as(role, <NodeInspector runId="e-1" owner={owner} view={gate} nodeKey="review_requirements" state={{ status: "waiting_for_user", output: null }} onClose={vi.fn()} />);
  };

  it("an analyst reads who it waits for and since when, and finds no decision to take", () => {
    waitingGate("analyst", aDecision({ front_door: "flow", run_id: "e-1", waiting_since: since.toISOString(), assignee: { kind: "account", id: "rita", name: "Rita Ramos", role: "reviewer" } }));
    expect(retried.asked).toContainEqual(["e-1", null, "review_requirements", true]);
    expect(screen.getByText("Waiting for a person")).toBeTruthy();
    expect(document.querySelector(".waiting-for")!.textContent).toBe(`Waiting for Rita Ramos since ${formatTime(since.toISOString())}`);
    expect(screen.queryByRole("button", { name: "Approve" })).toBeNull();
    expect(screen.queryByText(/your review/i)).toBeNull();
  });

  it("a reviewer reads the same line and gets no controls when it is assigned to someone else", () => {
    waitingGate("reviewer", aDecision({ assignee: { kind: "account", id: "rita", name: "Rita Ramos", role: "reviewer" } }));
    expect(document.querySelector(".waiting-for")!.textContent).toMatch(/^Waiting for Rita Ramos since /);
    expect(screen.queryByRole("button", { name: "Approve" })).toBeNull();
  });

  it("a reviewer who may take it decides, with the line above the controls", () => {
    waitingGate("reviewer", aDecision({}));
    expect(document.querySelector(".waiting-for")!.textContent).toMatch(/^Waiting for a reviewer since /);
    expect(screen.getByRole("button", { name: "Approve" })).toBeTruthy();
  });

  it("an owned run's waiting node names who it waits for beside the link to its conversation", () => {
    waitingGate("analyst", aDecision({ assignee: { kind: "account", id: "rita", name: "Rita Ramos", role: "reviewer" } }), pipelineOwner);
    expect(retried.asked).toContainEqual(["e-1", pipelineOwner, "review_requirements", true]);
    expect(document.querySelector(".waiting-for")!.textContent).toMatch(/^Waiting for Rita Ramos since /);
  });
});
