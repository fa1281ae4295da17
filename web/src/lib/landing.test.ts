/** Each person lands where their work is: the landing rule, per role. */
import { describe, expect, it } from "vitest";
import { landingPath } from "./landing";

const nothing = { waitingForMe: 0, undecidable: 0, failedRunId: null };

describe("landingPath", () => {
  it("an analyst lands on the new brief beside her runs, whatever waits", () => {
    expect(landingPath("analyst", nothing)).toBe("/app");
    expect(landingPath("analyst", { waitingForMe: 3, undecidable: 2, failedRunId: "RUN_1" })).toBe("/app");
  });
  it("a reviewer with decisions waiting lands on them; without, on the new brief", () => {
    expect(landingPath("reviewer", { ...nothing, waitingForMe: 2 })).toBe("/app/reviews");
    expect(landingPath("reviewer", nothing)).toBe("/app");
    expect(landingPath("reviewer", { ...nothing, undecidable: 1, failedRunId: "RUN_1" })).toBe("/app");
  });
  it("an operator lands on what needs an operator: decisions nobody can take, then a failed run, then the inbox", () => {
    expect(landingPath("operator", { waitingForMe: 1, undecidable: 1, failedRunId: "RUN_1" })).toBe("/app/reviews?view=undecidable");
    expect(landingPath("operator", { waitingForMe: 1, undecidable: 0, failedRunId: "RUN_1" })).toBe("/app/runs/RUN_1");
    expect(landingPath("operator", { ...nothing, waitingForMe: 1 })).toBe("/app/reviews");
    expect(landingPath("operator", nothing)).toBe("/app");
  });
});
