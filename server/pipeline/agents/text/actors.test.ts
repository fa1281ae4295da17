/** How a group is named as a role, and with a verb that agrees. */
import { describe, expect, it } from "vitest";
import { actorClause, roleName } from "./actors";

describe("actors", () => {
  it("names one member of a group for stories, and the group with a verb that agrees", () => {
    expect(["Riders", "Operations staff", "Back office", "Street vendors", "People"].map(roleName)).toEqual(["Rider", "Operations staff member", "Back office member", "Street vendor", "Person"]);
    expect(actorClause("Back office", ["reconcile settlements", "approve refunds"])).toBe("the back office reconciles settlements and approves refunds");
    expect(actorClause("Riders", "pay by card")).toBe("riders pay by card");
  });
});
