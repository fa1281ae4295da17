/** Nouns in the right number and with the right article. */
import { describe, expect, it } from "vitest";
import { pluralNoun, singular, withArticle } from "./nouns";

describe("nouns", () => {
  it.each([
    ["trip", "trips"],
    ["category", "categories"],
    ["box", "boxes"],
    ["person", "people"],
    ["operations staff", "operations staff"],
    ["staff member", "staff members"],
    ["status", "statuses"],
  ])("pluralNoun(%s) = %s", (one, many) => {
    expect(pluralNoun(one)).toBe(many);
  });

  it.each([
    ["trips", "trip"],
    ["courses", "course"],
    ["nurses", "nurse"],
    ["statuses", "status"],
    ["people", "person"],
    ["address", "address"],
  ])("singular(%s) = %s", (many, one) => {
    expect(singular(many)).toBe(one);
  });

  it("picks the article by sound, acronyms included", () => {
    expect(["rider", "operations staff member", "user", "SMS gateway", "QR payment", "hour"].map(withArticle)).toEqual([
      "a rider",
      "an operations staff member",
      "a user",
      "an SMS gateway",
      "a QR payment",
      "an hour",
    ]);
  });
});
