/** A pipeline run's header names where the run was forked, and where its forks start, by the run's agents' names. */
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { agents, runView } from "../../../testing/fixtures";
import { RunHeader } from "./RunHeader";

afterEach(cleanup);

const by = "Rita Ramos";
const at = "2026-11-29T09:00:00Z";

describe("RunHeader", () => {
  it("names the agent a run was forked at, and its forks' agents, by name; an agent its pipeline no longer names by its slug", () => {
    const run = runView({
      state: { phase: "completed", agent: null },
      forked_from: { run_id: "RUN_0", node_id: "review_inception", agent: "inception", by, at, version: "original" },
      forks: [
        { run_id: "RUN_2", node_id: "agent_agile", agent: "agile", by, at, version: "original" },
        { run_id: "RUN_3", node_id: "agent_retired", agent: "retired", by, at, version: "latest" },
      ],
    });
    render(<RunHeader run={run} agents={agents} view="conversation" />);
    expect(screen.getByText(/Forked from/).textContent).toContain("the review of Inception");
    const header = screen.getByRole("banner").textContent ?? "";
    expect(header).toContain("User stories");
    expect(header).toContain("retired");
    expect(header).not.toContain("at inception");
  });
});
