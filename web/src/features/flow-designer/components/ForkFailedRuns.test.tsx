/**
 * "Re-run failed runs…": counted first (a dry run for the time picked, the last 24 hours unless changed), then
 * "Fork N failed runs" forks them; the result links to each fork and names each refused run with its reason. A time
 * changed after counting is counted again before anything is forked, and the time typed outlives the panel.
 */
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ForkFailedRuns, localInputValue, sinceOf } from "./ForkFailedRuns";

type Body = { definition: string; since: string; dry_run: boolean };
type Answer = { count: number; runs: { run_id: string; node_id: string | null; fork: { run_id: string; path: string } | null; refused: string | null }[] };

const server = vi.hoisted(() => ({ answer: vi.fn<(body: Body) => Answer>() }));
// The mutation as the component uses it: `mutate` sends the body, the answer arrives as `data` (or `error`).
vi.mock("../api/runs", async () => {
  const { useState } = await import("react");
  return {
    useForkFailedRuns: () => {
      const [state, setState] = useState<{ isPending: boolean; variables?: Body; data?: Answer; error?: Error }>({ isPending: false });
      return {
        ...state,
        error: state.error ?? null,
        reset: () => setState({ isPending: false }),
        mutate: (variables: Body, options?: { onSuccess?: (data: Answer) => void }) => {
          setState({ isPending: true, variables });
          void Promise.resolve().then(() => {
            try {
              const data = server.answer(variables);
              setState({ isPending: false, variables, data });
              options?.onSuccess?.(data);
            } catch (error) {
              setState({ isPending: false, variables, error: error as Error });
            }
          });
        },
      };
    },
  };
});

const FLOW = "0b6f2a8e-54a5-4bde-9a55-1a3f0c7d2e11";
const [R1, R2, R3] = ["11111111-aaaa-4aaa-8aaa-000000000001", "22222222-aaaa-4aaa-8aaa-000000000002", "33333333-aaaa-4aaa-8aaa-000000000003"];
const F1 = "44444444-bbbb-4bbb-8bbb-000000000004";

beforeEach(() => window.sessionStorage.clear());
afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

describe("ForkFailedRuns", () => {
  it("counts the runs failed in the last 24 hours first, then forks them on the button that says how many, and links to each fork", async () => {
    server.answer.mockImplementation((body) =>
      body.dry_run
        ? { count: 3, runs: [{ run_id: R1, node_id: "publish", fork: null, refused: null }, { run_id: R2, node_id: "fetch", fork: null, refused: null }, { run_id: R3, node_id: null, fork: null, refused: "no node of its own failed (only a Collector, for a failed path)" }] }
        : { count: 3, runs: [{ run_id: R1, node_id: "publish", fork: { run_id: F1, path: `/app/flows/runs/${F1}` }, refused: null }, { run_id: R2, node_id: "fetch", fork: null, refused: "run 2 was forked meanwhile" }, { run_id: R3, node_id: null, fork: null, refused: "no node of its own failed (only a Collector, for a failed path)" }] },
    );
    render(<ForkFailedRuns flowId={FLOW} onClose={() => undefined} />);
    const input = screen.getByLabelText("Failed since") as HTMLInputElement;
    expect(Math.abs(Date.parse(sinceOf(input.value)!) - (Date.now() - 24 * 3600_000))).toBeLessThan(61_000);
    expect(screen.queryByRole("button", { name: /^Fork / })).toBeNull();

    fireEvent.click(screen.getByRole("button", { name: "Find the failed runs" }));
    await screen.findByText(/3 runs failed since/);
    expect(server.answer).toHaveBeenCalledWith({ definition: FLOW, since: sinceOf(input.value), dry_run: true });
    expect(screen.getByText(/3 runs failed since/).textContent).toContain("2 runs will be forked at their failed node");
    expect(screen.getByText(/will not be forked/).textContent).toContain("only a Collector");
    // The count's heading takes the focus once the answer is drawn (an effect of that drawing, which may come after it).
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole("heading", { name: "Failed runs found" })));
    expect(server.answer).toHaveBeenCalledTimes(1);

    fireEvent.click(screen.getByRole("button", { name: "Fork 2 failed runs" }));
    await screen.findByRole("heading", { name: "Forks made" });
    expect(server.answer).toHaveBeenLastCalledWith({ definition: FLOW, since: sinceOf(input.value), dry_run: false });
    expect(screen.getByText(/Forked 1 run\./).textContent).toContain("2 runs were refused");
    expect(screen.getByRole("link", { name: "Fork 44444444" }).getAttribute("href")).toBe(`/app/flows/runs/${F1}`);
    expect(screen.getByText(/was not forked: run 2 was forked meanwhile/)).toBeTruthy();
    expect(screen.queryByRole("button", { name: /^Fork \d/ })).toBeNull();
  });

  it("says when there is nothing to fork, offering no fork", async () => {
    server.answer.mockReturnValue({ count: 0, runs: [] });
    render(<ForkFailedRuns flowId={FLOW} onClose={() => undefined} />);
    fireEvent.click(screen.getByRole("button", { name: "Find the failed runs" }));
    await screen.findByText(/No run of this flow failed since/);
    expect(screen.queryByRole("button", { name: /^Fork / })).toBeNull();
  });

  it("counts again after the time changes, falls back to the last 24 hours when emptied, and keeps the time typed when the panel closes", async () => {
    server.answer.mockReturnValue({ count: 1, runs: [{ run_id: R1, node_id: "publish", fork: null, refused: null }] });
    const { unmount } = render(<ForkFailedRuns flowId={FLOW} onClose={() => undefined} />);
    fireEvent.click(screen.getByRole("button", { name: "Find the failed runs" }));
    await screen.findByRole("button", { name: "Fork 1 failed run" });
    const input = screen.getByLabelText("Failed since");
    fireEvent.change(input, { target: { value: "2026-11-20T09:30" } });
    // The count was for another time: nothing can be forked until it is counted again.
    expect(screen.queryByRole("button", { name: "Fork 1 failed run" })).toBeNull();
    // Emptied, it shows the last 24 hours again; what is no time is never sent.
    fireEvent.change(input, { target: { value: "" } });
    expect(Math.abs(Date.parse(sinceOf((input as HTMLInputElement).value)!) - (Date.now() - 24 * 3600_000))).toBeLessThan(61_000);
    expect(sinceOf("2026-11-20")).toBeNull();
    fireEvent.change(input, { target: { value: "2026-11-20T09:30" } });
    unmount();

    render(<ForkFailedRuns flowId={FLOW} onClose={() => undefined} />);
    expect((screen.getByLabelText("Failed since") as HTMLInputElement).value).toBe("2026-11-20T09:30");
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Find the failed runs" })));
    await waitFor(() => expect(server.answer).toHaveBeenLastCalledWith({ definition: FLOW, since: new Date("2026-11-20T09:30").toISOString(), dry_run: true }));
    expect(localInputValue(new Date("2026-11-20T09:30"))).toBe("2026-11-20T09:30");
  });
});
