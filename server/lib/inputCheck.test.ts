import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, jsonFlaw, printable, textFlaw } from "./inputCheck";
import { nulPath } from "./json";

const nested = (depth: number, leaf: unknown = 1): unknown => {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
};

describe("textFlaw", () => {
  it("accepts any well-formed text, surrogate pairs (emoji) included", () => {
    for (const text of ["", "plain", "naïve café", "😀 emoji", "\uD83D\uDE00", "tab\tand\nnewline", "\u0001\u001f"]) expect(textFlaw(text)).toBeUndefined();
  });

  it("names the NUL character", () => {
    expect(textFlaw("abc\u0000def")).toMatch(/NUL character \(\\u0000\)/);
  });

  it("names a lone surrogate, high or low, wherever it stands", () => {
    for (const [text, code] of [["\uDFFF\uD800", "dfff"], ["x\uD800", "d800"], ["\uD800x", "d800"], ["\uDC00", "dc00"], ["😀\uDC00", "dc00"]]) {
      expect(textFlaw(text!)).toContain(`lone UTF-16 surrogate (\\u${code})`);
    }
  });
});

describe("printable", () => {
  it("writes NULs and lone surrogates as escapes and leaves pairs alone", () => {
    expect(printable("a\u0000b\uD800c😀")).toBe("a\\u0000b\\ud800c😀");
  });
});

describe("jsonFlaw", () => {
  it("accepts values up to the depth limit", () => {
    expect(jsonFlaw(nested(MAX_JSON_DEPTH))).toBeUndefined();
    expect(jsonFlaw({ graph: { nodes: [{ id: "A", config: { prompt: "p" } }], edges: [] }, input: "😀" })).toBeUndefined();
    for (const scalar of [null, 1, true, "text"]) expect(jsonFlaw(scalar)).toBeUndefined();
  });

  it("refuses one level more, naming the first steps of the path", () => {
    expect(jsonFlaw(nested(MAX_JSON_DEPTH + 1))).toEqual({ path: "a.0.a.0.a.0...", problem: `is nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects` });
    expect(jsonFlaw({ ok: 1, deep: nested(3) }, 3)).toEqual({ path: "deep.a.0", problem: "is nested deeper than 3 levels of arrays and objects" });
  });

  it("looks at 100,000 levels without overflowing the stack", () => {
    const deep = JSON.parse(`${"[".repeat(100_000)}${"]".repeat(100_000)}`) as unknown;
    expect(jsonFlaw(deep)?.path).toBe("0.0.0.0.0.0...");
  });

  it("names the field holding a NUL or a lone surrogate, in a value or a key", () => {
    expect(jsonFlaw({ a: [1, { b: "x\u0000" }] })).toMatchObject({ path: "a.1.b", problem: expect.stringMatching(/NUL/) });
    expect(jsonFlaw(JSON.parse('{"output": "\\udfff\\ud800"}'))).toMatchObject({ path: "output", problem: expect.stringMatching(/surrogate \(\\udfff\)/) });
    expect(jsonFlaw({ ["k\u0000"]: 1 })).toMatchObject({ path: "k\\u0000" });
    expect(jsonFlaw("\uD800")).toMatchObject({ path: "" });
  });

  it("reports depth before text, since the text walk recurses", () => {
    expect(jsonFlaw([nested(5, "\u0000")], 3)?.problem).toMatch(/nested deeper/);
  });
});

describe("nulPath (server/lib/json), built on the same walk", () => {
  it("still finds a NUL in a key or a value, under a name", () => {
    expect(nulPath({ a: { "b\u0000": 1 } }, "input")).toBe("input.a.b\u0000");
    expect(nulPath({ a: ["ok", "x\u0000"] })).toBe("a.1");
    expect(nulPath({ a: "\uD800" })).toBeUndefined();
  });
});
