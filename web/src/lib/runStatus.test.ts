import { describe, expect, it } from "vitest";
import type { RunPhase, RunState } from "./trpc";
import { describeRunState, isAgentWorking, isRunActive, isRunCancellable } from "./runStatus";

const state = (phase: RunPhase, agent: string | null = null): RunState => ({ phase, agent });

describe("run state", () => {
  it("reads a cancelled run as finished: its own label, no agent, not polled, nothing left to cancel", () => {
    expect(describeRunState(state("cancelled"))).toBe("Cancelled");
    expect(describeRunState(state("cancelled"), "Requirements")).toBe("Cancelled");
    expect(isRunActive(state("cancelled"))).toBe(false);
    expect(isRunCancellable(state("cancelled"))).toBe(false);
  });

  it("polls only runs that can still move, and offers cancelling every run not completed or cancelled", () => {
    expect([state("in_progress", "qa"), state("waiting_approval", "requirements"), state("retrying", "agile")].map(isRunActive)).toEqual([true, true, true]);
    expect([state("completed"), state("failed", "qa"), undefined].map(isRunActive)).toEqual([false, false, false]);
    expect([state("in_progress", "qa"), state("waiting_approval", "requirements"), state("failed", "qa")].map(isRunCancellable)).toEqual([true, true, true]);
    expect(isRunCancellable(state("completed"))).toBe(false);
  });

  it("names the phase and the agent it concerns, by name when known, else by its slug", () => {
    expect(describeRunState(state("waiting_approval", "requirements"), "Requirements")).toBe("Waiting for review · Requirements");
    expect(describeRunState(state("in_progress", "inception"))).toBe("Working · Inception");
    expect(describeRunState(state("retrying", "agile"), "User stories")).toBe("Revising · User stories");
    expect(describeRunState(state("failed", "qa"), "QA")).toBe("Failed · QA");
    expect(describeRunState(state("completed"))).toBe("Completed");
    expect([state("in_progress", "qa"), state("retrying", "qa"), state("waiting_approval", "qa")].map((s) => isAgentWorking(s.phase))).toEqual([true, true, false]);
  });
});
