import { describe, expect, it } from "vitest";
import { outputBlocks, prettyJson } from "./output";

describe("outputBlocks", () => {
  it("pretty-prints objects and lists, and leaves bare values and broken JSON as text", () => {
    expect(outputBlocks(' [1, {"a": true}] ', "prompt")).toEqual([{ kind: "json", text: '[\n  1,\n  {\n    "a": true\n  }\n]' }]);
    expect(prettyJson("42")).toBeNull();
    expect(outputBlocks("{not json", "prompt")).toEqual([{ kind: "text", text: "{not json" }]);
  });

  it("sets fenced code apart from the text around it, with its language, and leaves an unclosed fence as text", () => {
    expect(outputBlocks("Intro\n\n```ts\nconst a = 1;\n```\n\nOutro\n", "prompt")).toEqual([
      { kind: "text", text: "Intro" },
      { kind: "code", text: "const a = 1;", language: "ts" },
      { kind: "text", text: "Outro" },
    ]);
    expect(outputBlocks("Intro\n```\nnever closed", "prompt")).toEqual([{ kind: "text", text: "Intro\n```\nnever closed" }]);
  });

  it("shows what a program printed as it is, and nothing for an empty output", () => {
    expect(outputBlocks("  indented\nline\n", "bash")).toEqual([{ kind: "code", text: "  indented\nline", language: null }]);
    expect(outputBlocks(" \n ", "prompt")).toEqual([]);
  });
});
