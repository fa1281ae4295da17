import { describe, expect, it } from "vitest";
import { describeResult, formatValue, inputsInShort } from "./result";

describe("a tool's result as a person reads it", () => {
  it("shows a string as text", () => {
    expect(describeResult("plain")).toEqual({ text: "plain", textField: null, json: null });
  });

  it("reads an object's text field first, with the whole result as JSON", () => {
    const output = { results: [{ title: "A" }], text: "1. A" };
    expect(describeResult(output)).toEqual({ text: "1. A", textField: "text", json: JSON.stringify(output, null, 2) });
  });

  it("reads a summary where there is no text", () => {
    expect(describeResult({ entities: [], summary: "No people found", count: 0 })).toMatchObject({ text: "No people found", textField: "summary" });
  });

  it("pretty-prints anything else", () => {
    expect(describeResult({ count: 2, ids: ["a", "b"] })).toEqual({ text: null, textField: null, json: '{\n  "count": 2,\n  "ids": [\n    "a",\n    "b"\n  ]\n}' });
    expect(describeResult([1])).toEqual({ text: null, textField: null, json: "[\n  1\n]" });
    expect(describeResult({ text: 3 })).toMatchObject({ text: null });
    expect(describeResult(undefined)).toEqual({ text: null, textField: null, json: null });
  });
});

describe("a value", () => {
  it("is a string as itself, a number or boolean as JSON on one line, an object as pretty JSON", () => {
    expect(formatValue("ACME")).toEqual({ text: "ACME", json: false });
    expect(formatValue(3)).toEqual({ text: "3", json: false });
    expect(formatValue(false)).toEqual({ text: "false", json: false });
    expect(formatValue(null)).toEqual({ text: "null", json: false });
    expect(formatValue({ a: 1 })).toEqual({ text: '{\n  "a": 1\n}', json: true });
  });
});

describe("a run's inputs in short", () => {
  it("names each input and its value, cut past 90 characters", () => {
    expect(inputsInShort({ company: "ACME", limit: 3, tags: ["a"] })).toBe('company=ACME, limit=3, tags=["a"]');
    expect(inputsInShort({})).toBe("Run without inputs");
    expect(inputsInShort({ text: "x".repeat(200) })).toHaveLength(91);
  });
});
