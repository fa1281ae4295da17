/** What a run's end notification calls the run (runEnds.ts `titleOf`): each front door by the name the app gives it. */
import { describe, expect, it } from "vitest";
import { titleOf } from "./runEnds";

const id = "0b6f2c1e-4d2a-4f7e-9a51-3c1d2e4f5a6b";
const none = { flowName: null, domain: null, workflow: null };

describe("a run's title in its end notification", () => {
  it("names each front door as the app does, with the run's id", () => {
    expect(titleOf("pipeline", "RUN_123", { ...none, domain: "tool library" })).toBe("Pipeline run RUN_123 for tool library");
    expect(titleOf("yaml", id, { ...none, workflow: "release-notes" })).toBe("Workflow release-notes run 0b6f2c1e");
    expect(titleOf("steps", id, { ...none, workflow: "nightly-report" })).toBe("Step workflow nightly-report run 0b6f2c1e");
    expect(titleOf("flow", id, { ...none, flowName: "orders" })).toBe('Flow "orders" run 0b6f2c1e');
  });

  it("still names a run whose names could not be read", () => {
    expect(titleOf("pipeline", "RUN_123", none)).toBe("Pipeline run RUN_123");
    expect(titleOf("steps", id, none)).toBe("Step workflow run 0b6f2c1e");
    expect(titleOf("yaml", id, none)).toBe("Workflow run 0b6f2c1e");
  });
});
