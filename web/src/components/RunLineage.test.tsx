/** A run's parent and forks, linked to their pages in the run's own front door and to their comparison with this run. */
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { paths } from "../lib/router";
import { RunLineage } from "./RunLineage";

afterEach(cleanup);

const [PARENT, RUN, FORK] = ["11111111-aaaa-4aaa-8aaa-000000000001", "22222222-aaaa-4aaa-8aaa-000000000002", "33333333-aaaa-4aaa-8aaa-000000000003"];
const by = { id: null, name: "Rita Ramos" };

describe("RunLineage", () => {
  it("links a workflow run's parent and forks to the workflow's run pages, and each to its comparison with this run", () => {
    const run = {
      id: RUN,
      forked_from: { run_id: PARENT, node_id: "draft", by, at: "2026-11-29T08:00:00Z", version: "original" as const, flow_version: 2 },
      forks: [{ run_id: FORK, node_id: "review", by, at: "2026-11-29T09:00:00Z", version: "latest" as const, flow_version: 3, status: "running" as const }],
    };
    render(<RunLineage run={run} runPath={paths.workflows.run} />);
    expect(screen.getByRole("link", { name: "run 11111111" }).getAttribute("href")).toBe(`/app/workflows/runs/${PARENT}`);
    expect(screen.getByRole("link", { name: "Compare with parent" }).getAttribute("href")).toBe(`/app/runs/${PARENT}/compare/${RUN}`);
    expect(screen.getByRole("link", { name: "run 33333333" }).getAttribute("href")).toBe(`/app/workflows/runs/${FORK}`);
    expect(screen.getByRole("link", { name: "Compare with run 33333333" }).getAttribute("href")).toBe(`/app/runs/${RUN}/compare/${FORK}`);
    expect(screen.getByText(/Forked from/).textContent).toContain("by Rita Ramos");
  });

  it("shows nothing for a run neither forked nor forked from", () => {
    const { container } = render(<RunLineage run={{ id: RUN, forked_from: null, forks: [] }} runPath={paths.flowRun} />);
    expect(container.textContent).toBe("");
  });
});
