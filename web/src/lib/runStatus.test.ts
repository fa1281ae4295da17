import { describe, expect, it } from "vitest";
import { describeRunStatus, isRunActive, isRunCancellable, parseRunStatus } from "./runStatus";

describe("run status", () => {
  it("reads a cancelled run as finished: its own phase, no agent, not polled, nothing left to cancel", () => {
    expect(parseRunStatus("CANCELLED")).toEqual({ phase: "cancelled", slug: null });
    expect(describeRunStatus("CANCELLED")).toBe("Cancelled");
    expect(describeRunStatus("CANCELLED", "Requirements")).toBe("Cancelled");
    expect(isRunActive("CANCELLED")).toBe(false);
    expect(isRunCancellable("CANCELLED")).toBe(false);
  });

  it("polls only runs that can still move, and offers cancelling every run not completed or cancelled", () => {
    expect(["IN_PROGRESS_QA", "WAITING_APPROVAL_REQUIREMENTS", "RETRYING_AGILE"].map(isRunActive)).toEqual([true, true, true]);
    expect(["COMPLETED", "FAILED_QA", "FAILED"].map(isRunActive)).toEqual([false, false, false]);
    expect(["IN_PROGRESS_QA", "WAITING_APPROVAL_REQUIREMENTS", "FAILED_QA"].map(isRunCancellable)).toEqual([true, true, true]);
    expect(isRunCancellable("COMPLETED")).toBe(false);
  });
});
