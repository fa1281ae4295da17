import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { agents, runSummary } from "../../../testing/fixtures";
import { SessionProvider } from "../../../lib/session";
import { RunItems } from "./RunList";

afterEach(cleanup);

describe("RunItems", () => {
  it("lists each run with its domain and status, badges runs waiting for review, and marks the open one; a cancelled run reads as cancelled", () => {
    const runs = [
      runSummary({ run_id: "RUN_2", domain: "payments" }),
      runSummary({ run_id: "RUN_1", domain: "logistics", state: { phase: "in_progress", agent: "inception" }, current_agent: agents[1]!, is_waiting_for_user: false }),
      runSummary({ run_id: "RUN_0", domain: "retail", state: { phase: "completed", agent: null }, current_agent: null, is_waiting_for_user: false }),
      runSummary({ run_id: "RUN_X", domain: "travel", state: { phase: "cancelled", agent: null }, current_agent: null, is_waiting_for_user: false }),
    ];
    render(<RunItems runs={runs} activeRunId="RUN_1" />);
    const links = screen.getAllByRole("link");
    expect(links.map((l) => l.getAttribute("href"))).toEqual(["/app/runs/RUN_2", "/app/runs/RUN_1", "/app/runs/RUN_0", "/app/runs/RUN_X"]);
    expect(links[0]!.textContent).toContain("Review");
    expect(links[0]!.textContent).toContain("Waiting for a reviewer · Requirements");
    expect(links[1]!.textContent).not.toContain("Review");
    expect(links[1]!.textContent).toContain("Inception agent drafting");
    expect(links[1]!.getAttribute("aria-current")).toBe("page");
    expect(links[2]!.textContent).toContain("Completed");
    expect(links[3]!.textContent).not.toContain("Review");
    expect(links[3]!.textContent).toContain("Cancelled");
    expect(links[3]!.querySelector(".run-status")!.className).toContain("status-cancelled");
  });

  it("tells the analyst who her run waits for, never that it waits for her review; the reviewer reads it is hers", () => {
    const ana = { id: "00000000-0000-4000-8000-00000000000a", name: "Ana Analyst", email: "ana@example.test", role: "analyst" as const, via: "session" as const };
    const rita = { ...ana, id: "00000000-0000-4000-8000-00000000000b", name: "Rita Ramos", role: "reviewer" as const };
    const runs = [
      runSummary({ run_id: "RUN_A", waiting_for: { kind: "account", id: rita.id, name: "Rita Ramos", role: "reviewer" } }),
      runSummary({ run_id: "RUN_B" }),
    ];
    const { unmount } = render(<SessionProvider value={ana}><RunItems runs={runs} activeRunId={null} /></SessionProvider>);
    let links = screen.getAllByRole("link");
    expect(links[0]!.textContent).toContain("Waiting for Rita Ramos · Requirements");
    expect(links[1]!.textContent).toContain("Waiting for a reviewer · Requirements");
    expect(links.map((l) => l.textContent).join(" ")).not.toMatch(/your review|Review/);
    unmount();
    render(<SessionProvider value={rita}><RunItems runs={runs} activeRunId={null} /></SessionProvider>);
    links = screen.getAllByRole("link");
    expect(links[0]!.textContent).toContain("Waiting for you · Requirements");
    expect(links[0]!.textContent).toContain("Review");
    expect(links[1]!.textContent).toContain("Review");
  });
});
