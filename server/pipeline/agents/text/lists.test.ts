/** Counts in prose. */
import { describe, expect, it } from "vitest";
import { count, countInWords } from "./lists";

describe("counts", () => {
  it("counts with the noun in the right number", () => {
    expect([count(0, "quality target"), count(1, "capability"), count(5, "capability")]).toEqual(["no quality targets", "1 capability", "5 capabilities"]);
    expect([countInWords(1, "group"), countInWords(3, "group")]).toEqual(["one group", "three groups"]);
  });
});
