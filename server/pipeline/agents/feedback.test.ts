/** How a reviewer's feedback on a rejected artifact is read into edits, one per sentence. */
import { describe, expect, it } from "vitest";
import { itemMatches, parseFeedback } from "./feedback";

describe("parseFeedback", () => {
  it.each([
    ["Add a capability for customers to rate drivers.", { kind: "add", subject: "customers to rate drivers", ids: [] }],
    ["Drivers should be able to rate customers", { kind: "add", subject: "Drivers should be able to rate customers", ids: [] }],
    ["Log every failed call.", { kind: "add", subject: "Log every failed call", ids: [] }],
    ["Add a test for expired cards in US-007.", { kind: "add", subject: "expired cards", ids: ["US-007"] }],
    ["US-001 needs a criterion for closed restaurants.", { kind: "add", subject: "closed restaurants", ids: ["US-001"] }],
    ["Please drop FR-008.", { kind: "remove", ids: ["FR-008"] }],
    ["Remove the map route capability", { kind: "remove", subject: "map route", ids: [] }],
    ["Rename Food to Meal", { kind: "modify", subject: "Food", replacement: "Meal", ids: [] }],
    ["Too generic overall.", { kind: "note", subject: "Too generic overall", ids: [] }],
    ["The vision is vague", { kind: "note", ids: [] }],
  ])("%s", (feedback, expected) => {
    const directives = parseFeedback(feedback);
    expect(directives).toHaveLength(1);
    expect(directives[0]).toMatchObject(expected);
  });

  it("reads one edit per sentence, in order", () => {
    expect(parseFeedback("Add refunds. Remove US-002; rename Customer to Client").map((directive) => directive.kind)).toEqual(["add", "remove", "modify"]);
  });
});

describe("itemMatches", () => {
  it("matches by id, or by most of the subject's words (one word must match exactly)", () => {
    expect(itemMatches({ id: "US-002", title: "Anything" }, { subject: "", ids: ["US-002"] })).toBe(true);
    expect(itemMatches({ name: "See the route on a map" }, { subject: "map route", ids: [] })).toBe(true);
    expect(itemMatches({ name: "Pay bills" }, { subject: "map route", ids: [] })).toBe(false);
    expect(itemMatches("Payments must go through Stripe", { subject: "Stripe", ids: [] })).toBe(true);
    expect(itemMatches("Payments must go through Stripe", { subject: "PayPal", ids: [] })).toBe(false);
  });
});
