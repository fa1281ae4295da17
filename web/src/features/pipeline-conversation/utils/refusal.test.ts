/** What a refused decision's card says changed, from the conversation alone. */
import { describe, expect, it } from "vitest";
import { agents, runView, turns as m } from "../../../testing/fixtures";
import { refusalContext } from "./refusal";

const [requirements, inception] = agents as [(typeof agents)[number], (typeof agents)[number]];

describe("refusalContext", () => {
  it("names who decided first and where the run moved on", () => {
    const run = runView({ state: { phase: "in_progress", agent: inception.slug }, current_agent: inception, is_waiting_for_user: false });
    const turns = [m.brief(), m.artifact("a1", requirements, 1, {}), m.approval("p1", requirements, "Rita Ramos")];
    expect(refusalContext({ run, agents, turns }, "requirements:1")).toEqual({
      subject: "Requirements v1", change: "Rita Ramos approved Requirements v1; the run moved on to Inception.", newer: null,
    });
  });

  it("offers the newer version of the same output", () => {
    const run = runView({ state: { phase: "waiting_approval", agent: requirements.slug }, current_agent: requirements, is_waiting_for_user: true });
    const turns = [m.brief(), m.artifact("a1", requirements, 1, {}), m.rejection("r1", requirements, "More."), m.artifact("a2", requirements, 2, {})];
    const context = refusalContext({ run, agents, turns }, "requirements:1");
    expect(context.change).toBe("dana requested changes to Requirements v1; Requirements v2 waits for review now.");
    expect(context.newer).toEqual({ agent: requirements, version: 2 });
  });
});
