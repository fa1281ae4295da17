/**
 * A waiting decision's history reads as people's acts: claims, assignments, one approval of several, the reminder and
 * the escalation; it is read from the server only once the person opens it.
 */
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { DecisionActivity } from "../lib/trpc";
import { DecisionHistory, activityText } from "./DecisionHistory";

const read = vi.hoisted(() => ({ runs: [] as string[], items: [] as unknown[] }));
vi.mock("../lib/decisions", () => ({
  useDecisionActivity: (runId: string) => {
    read.runs.push(runId);
    return { data: { items: read.items }, error: null };
  },
}));

afterEach(() => {
  cleanup();
  read.runs = [];
  read.items = [];
});

const event = (type: DecisionActivity["type"], fields: Partial<DecisionActivity> = {}): DecisionActivity => ({
  id: Math.floor(Math.random() * 1e6), decision_id: "d-1", node_id: "ok", title: "Approve ok", type, by: null, detail: {}, at: new Date().toISOString(), ...fields,
});

describe("DecisionHistory", () => {
  it("tells each event in a person's words", () => {
    const rita = { id: "rita", name: "Rita Ramos" };
    expect(activityText(event("opened", { detail: { assignee: { kind: "role", name: null, role: "reviewer" } } }))).toBe("Waiting for every reviewer");
    expect(activityText(event("claimed", { by: rita }))).toBe("Rita Ramos claimed it");
    expect(activityText(event("assigned", { by: { id: "o", name: "Olga" }, detail: { assignee: { kind: "account", name: "Uma", role: "reviewer" } } }))).toBe("Olga assigned it to Uma");
    expect(activityText(event("approved", { by: rita, detail: { approvals: 1, approvals_needed: 2 } }))).toBe("1 of 2 approvals: approved by Rita Ramos");
    expect(activityText(event("escalated", { detail: { assignee: { kind: "role", name: null, role: "operator" } } }))).toBe("Overdue: handed to every operator");
    expect(activityText(event("expired"))).toBe("Decided by the deadline");
  });

  it("reads nothing until opened, then lists this decision's events only", () => {
    read.items = [event("opened"), event("claimed", { by: { id: "r", name: "Rita Ramos" } }), event("claimed", { decision_id: "other", by: { id: "s", name: "Sam" } })];
    const { container } = render(<DecisionHistory decision={{ id: "d-1", run_id: "RUN_1" }} />);
    expect(read.runs).toEqual([]);
    const details = container.querySelector("details")!;
    details.open = true;
    fireEvent(details, new Event("toggle"));
    expect(read.runs).toContain("RUN_1");
    const list = screen.getByRole("list", { name: "What happened to this decision" });
    expect(list.textContent).toContain("Rita Ramos claimed it");
    expect(list.textContent).not.toContain("Sam");
  });
});
