import { describe, expect, it } from "vitest";
import { briefCoverage, thinBriefMessage } from "./briefCoverage";

describe("briefCoverage", () => {
  it("finds a one-liner thin and says what it lacks", () => {
    const brief = "Tool library app for neighbours";
    const coverage = briefCoverage(brief);
    expect(coverage.thin).toBe(true);
    expect([...coverage.covered]).toEqual(["audience"]);
    expect(thinBriefMessage(brief)).toBe(
      "It is short (31 characters) and does not say what people do with it, its rules and constraints or the systems it connects to.",
    );
  });

  it("finds a brief that covers the four topics at length not thin", () => {
    const brief =
      "A tool library for neighbours in one building: members lend drills and ladders, book them for a day and get a reminder to return them. " +
      "One item per person at a time, and a deposit is required. Card payments by Stripe and email reminders.";
    const coverage = briefCoverage(brief);
    expect(coverage.missing).toEqual([]);
    expect(coverage.thin).toBe(false);
  });

  it("finds a long brief silent on two topics thin, naming them", () => {
    const brief = "A tool library for neighbours in one building, run by the volunteers of the residents' association, with a friendly tone and a simple look that older residents can read easily.";
    expect(briefCoverage(brief).short).toBe(false);
    expect(thinBriefMessage(brief)).toBe("It does not say its rules and constraints or the systems it connects to.");
  });
});
