import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { agents, conversation, envelope, requirementsArtifact, runView, turns as m } from "../../../testing/fixtures";
import { AgentProgress, stepStates } from "./AgentProgress";

afterEach(cleanup);
const [requirements, inception] = [agents[0]!, agents[1]!];

describe("AgentProgress", () => {
  it("marks the agent the cancellation stopped, keeping earlier approvals and leaving later agents not started", () => {
    const cancelled = conversation(runView({ state: { phase: "cancelled", agent: null }, current_agent: null, is_waiting_for_user: false }), [
      m.brief(),
      m.working("w1", requirements),
      m.artifact("a1", requirements, 1, envelope(requirementsArtifact)),
      m.approval("p1", requirements),
      m.working("w2", inception),
      m.cancelled("c1", "Brief withdrawn", "Ada"),
    ]);
    expect(stepStates(agents, cancelled)).toEqual(["done", "cancelled", "todo", "todo", "todo", "todo"]);
    render(<AgentProgress agents={agents} conversation={cancelled} />);
    expect(screen.getByRole("list", { name: "Pipeline progress" }).textContent).toContain("Inception: stopped by the cancellation");
  });
});
