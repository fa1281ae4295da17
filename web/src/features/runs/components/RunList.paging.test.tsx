/** The sidebar's runs a page at a time: older runs on request, the count marked while more exist, a failed page retried. */
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { runSummary } from "../../../testing/fixtures";
import { RunList } from "./RunList";

const list = {
  isPending: false,
  error: null,
  runs: [runSummary({ run_id: "RUN_2", domain: "payments" }), runSummary({ run_id: "RUN_1", domain: "logistics" })],
  hasNextPage: true,
  isFetchingNextPage: false,
  isFetchNextPageError: false,
  fetchNextPage: vi.fn(),
};
vi.mock("../api/list-runs", () => ({ useRunList: () => list }));

afterEach(cleanup);
beforeEach(() => {
  Object.assign(list, { hasNextPage: true, isFetchingNextPage: false, isFetchNextPageError: false });
  list.fetchNextPage.mockReset();
});

describe("RunList paging", () => {
  it("offers older runs while there are more, and marks the count as partial", () => {
    render(<RunList activeRunId={null} />);
    expect(screen.getByText("2+")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Load older runs" }));
    expect(list.fetchNextPage).toHaveBeenCalledTimes(1);
  });

  it("shows the button busy while the page loads, and offers a retry when it failed", () => {
    list.isFetchingNextPage = true;
    const { rerender } = render(<RunList activeRunId={null} />);
    const busy = screen.getByRole("button", { name: "Loading…" });
    expect(busy.hasAttribute("disabled")).toBe(true);
    list.isFetchingNextPage = false;
    list.isFetchNextPageError = true;
    rerender(<RunList activeRunId={null} />);
    expect(screen.getByRole("status").textContent).toBe("Older runs could not be loaded.");
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect(list.fetchNextPage).toHaveBeenCalledTimes(1);
  });

  it("offers nothing more on the last page", () => {
    list.hasNextPage = false;
    render(<RunList activeRunId={null} />);
    expect(screen.getByText("2")).toBeTruthy();
    expect(screen.queryByRole("button")).toBeNull();
  });
});
