import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { agents, runView } from "../../../testing/fixtures";
import { RunItems } from "./RunList";

afterEach(cleanup);

describe("RunItems", () => {
  it("lists each run with its domain and status, badges runs waiting for review, and marks the open one; a cancelled run reads as cancelled", () => {
    const runs = [
      runView({ run_id: "RUN_2", domain: "payments" }),
      runView({ run_id: "RUN_1", domain: "logistics", state: { phase: "in_progress", agent: "inception" }, current_agent: agents[1]!, is_waiting_for_user: false }),
      runView({ run_id: "RUN_0", domain: "retail", state: { phase: "completed", agent: null }, current_agent: null, is_waiting_for_user: false }),
      runView({ run_id: "RUN_X", domain: "travel", state: { phase: "cancelled", agent: null }, current_agent: null, is_waiting_for_user: false }),
    ];
    render(<RunItems runs={runs} activeRunId="RUN_1" />);
    const links = screen.getAllByRole("link");
    expect(links.map((l) => l.getAttribute("href"))).toEqual(["/app/runs/RUN_2", "/app/runs/RUN_1", "/app/runs/RUN_0", "/app/runs/RUN_X"]);
    expect(links[0]!.textContent).toContain("Review");
    expect(links[0]!.textContent).toContain("Waiting for review · Requirements");
    expect(links[1]!.textContent).not.toContain("Review");
    expect(links[1]!.textContent).toContain("Working · Inception");
    expect(links[1]!.getAttribute("aria-current")).toBe("page");
    expect(links[2]!.textContent).toContain("Completed");
    expect(links[3]!.textContent).not.toContain("Review");
    expect(links[3]!.textContent).toContain("Cancelled");
    expect(links[3]!.querySelector(".run-status")!.className).toContain("status-cancelled");
  });
});
