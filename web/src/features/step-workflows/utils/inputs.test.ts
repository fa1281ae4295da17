import { describe, expect, it } from "vitest";
import { inputFields, parseInput, parseInputs } from "./inputs";

describe("the start form's fields", () => {
  it("makes one field per input, with a control for its type", () => {
    const fields = inputFields([
      { name: "company", type: "string", optional: false },
      { name: "limit", type: "number", optional: true },
      { name: "deep", type: "boolean", optional: false },
      { name: "strict", type: "boolean", optional: true },
      { name: "filters", type: "object", optional: false },
      { name: "tags", type: "array", optional: true },
    ]);
    expect(fields.map((f) => [f.name, f.control, f.initial])).toEqual([
      ["company", "text", ""],
      ["limit", "number", ""],
      ["deep", "checkbox", "false"],
      ["strict", "choice", ""],
      ["filters", "json", ""],
      ["tags", "json", ""],
    ]);
    expect(fields[1]!.hint).toContain("Optional");
    expect(fields[0]!.hint).not.toContain("Optional");
  });
});

describe("reading a field back", () => {
  const field = (type: "string" | "number" | "boolean" | "object" | "array", optional = false) => ({ type, optional });

  it("sends a string as typed, spaces included", () => {
    expect(parseInput(field("string"), "  ACME Corp ")).toEqual({ ok: true, value: "  ACME Corp " });
  });

  it("reads numbers, and refuses what is not one number", () => {
    expect(parseInput(field("number"), " 42 ")).toEqual({ ok: true, value: 42 });
    expect(parseInput(field("number"), "-3.5")).toEqual({ ok: true, value: -3.5 });
    expect(parseInput(field("number"), "1e3")).toEqual({ ok: true, value: 1000 });
    for (const wrong of ["twelve", "12abc", "0x10", "1,5", "Infinity", "."]) {
      const parsed = parseInput(field("number"), wrong);
      expect(parsed.ok, wrong).toBe(false);
      if (!parsed.ok) expect(parsed.error).toContain("is not a number");
    }
  });

  it("reads booleans from the checkbox or the choice, an unset optional one left out", () => {
    expect(parseInput(field("boolean"), "true")).toEqual({ ok: true, value: true });
    expect(parseInput(field("boolean"), "false")).toEqual({ ok: true, value: false });
    expect(parseInput(field("boolean", true), "")).toEqual({ ok: true, value: undefined });
    expect(parseInput(field("boolean"), "")).toEqual({ ok: false, error: "Required." });
  });

  it("reads objects and lists as JSON, saying what is wrong", () => {
    expect(parseInput(field("object"), '{"country": "NL"}')).toEqual({ ok: true, value: { country: "NL" } });
    expect(parseInput(field("array"), '["a", 2]')).toEqual({ ok: true, value: ["a", 2] });
    const broken = parseInput(field("object"), "{country: NL}");
    expect(broken.ok).toBe(false);
    if (!broken.ok) expect(broken.error).toMatch(/^Not valid JSON: /);
    expect(parseInput(field("object"), "[1]")).toEqual({ ok: false, error: "Expected a JSON object ({...}), got a list." });
    expect(parseInput(field("object"), "null")).toEqual({ ok: false, error: "Expected a JSON object ({...}), got null." });
    expect(parseInput(field("array"), '{"a": 1}')).toEqual({ ok: false, error: "Expected a JSON list ([...]), got an object." });
    expect(parseInput(field("array"), '"a"')).toEqual({ ok: false, error: "Expected a JSON list ([...]), got a string." });
  });

  it("requires what is not optional, and leaves out an optional field left empty", () => {
    expect(parseInput(field("string"), "")).toEqual({ ok: false, error: "Required." });
    expect(parseInput(field("number"), "   ")).toEqual({ ok: false, error: "Required." });
    expect(parseInput(field("number", true), "")).toEqual({ ok: true, value: undefined });
    expect(parseInput(field("array", true), " ")).toEqual({ ok: true, value: undefined });
  });
});

describe("reading the whole form back", () => {
  const fields = inputFields([
    { name: "company", type: "string", optional: false },
    { name: "limit", type: "number", optional: true },
    { name: "deep", type: "boolean", optional: false },
  ]);

  it("answers the inputs to send, typed, without the optional ones left empty", () => {
    expect(parseInputs(fields, { company: "ACME", limit: "", deep: "true" })).toEqual({ ok: true, inputs: { company: "ACME", deep: true } });
    expect(parseInputs(fields, { company: "ACME", limit: "3" })).toEqual({ ok: true, inputs: { company: "ACME", limit: 3, deep: false } });
  });

  it("answers every field's error at once", () => {
    expect(parseInputs(fields, { company: "", limit: "three", deep: "false" })).toEqual({
      ok: false,
      errors: { company: "Required.", limit: '"three" is not a number: write digits, such as 42 or 3.5.' },
    });
  });
});
