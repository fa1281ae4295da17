/** The pipeline's "Cancel run" sends `pipeline.cancel` for its run with the reason typed in the confirmation. */
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CancelPipelineRun } from "./CancelPipelineRun";

const mutation = vi.hoisted(() => ({ mutateAsync: vi.fn(async (_input: { runId: string; reason?: string }) => ({})), reset: vi.fn(), isPending: false, error: null }));
vi.mock("../api/review-run", () => ({ useCancelRun: () => mutation }));

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

describe("CancelPipelineRun", () => {
  it("cancels this run with the reason, then hands the focus on", async () => {
    const onCancelled = vi.fn();
    render(<CancelPipelineRun runId="RUN_1" onCancelled={onCancelled} />);
    fireEvent.click(screen.getByRole("button", { name: "Cancel run" }));
    fireEvent.change(screen.getByRole("textbox", { name: "Reason" }), { target: { value: "Brief withdrawn" } });
    fireEvent.click(screen.getByRole("button", { name: "Cancel this run" }));
    expect(mutation.mutateAsync).toHaveBeenCalledWith({ runId: "RUN_1", reason: "Brief withdrawn" });
    await waitFor(() => expect(onCancelled).toHaveBeenCalledTimes(1));
  });

  it("forgets a refused attempt when the reviewer backs out", () => {
    render(<CancelPipelineRun runId="RUN_1" />);
    fireEvent.click(screen.getByRole("button", { name: "Cancel run" }));
    fireEvent.click(screen.getByRole("button", { name: "Keep running" }));
    expect(mutation.reset).toHaveBeenCalledTimes(1);
    expect(mutation.mutateAsync).not.toHaveBeenCalled();
  });
});
