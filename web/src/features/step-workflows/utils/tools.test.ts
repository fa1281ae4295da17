import { describe, expect, it } from "vitest";
import { paramsOf } from "./tools";

describe("a tool's params", () => {
  it("lists each property and whether it is required", () => {
    expect(paramsOf({ type: "object", properties: { query: { type: "string" }, num: { type: "number" } }, required: ["query"] })).toEqual([
      { name: "query", required: true },
      { name: "num", required: false },
    ]);
    expect(paramsOf({ type: "object", properties: {} })).toEqual([]);
  });

  it("answers null for a tool that takes any object", () => {
    expect(paramsOf({ type: "object", additionalProperties: {} })).toBeNull();
  });
});
