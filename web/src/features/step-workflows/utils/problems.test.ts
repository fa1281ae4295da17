import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import { inputProblems, parseDefinition, problemsOf } from "./problems";

const refusal = (details: unknown) => new TRPCClientError("the step workflow has 2 problems", { result: { error: { message: "refused", code: -32600, data: { httpStatus: 400, refusalDetails: details } } } });

describe("the server's problems", () => {
  it("reads the located problems of a refusal", () => {
    const error = refusal({ issues: [{ path: "steps[1].tool", message: 'unknown tool "utils.nope"' }, { path: "", message: "missing id" }, { oops: true }] });
    expect(problemsOf(error)).toEqual([
      { path: "steps[1].tool", message: 'unknown tool "utils.nope"' },
      { path: "", message: "missing id" },
    ]);
  });

  it("answers null for any other error", () => {
    expect(problemsOf(new Error("offline"))).toBeNull();
    expect(problemsOf(refusal(null))).toBeNull();
    expect(problemsOf(refusal({ issues: [] }))).toBeNull();
  });

  it("puts refused inputs beside the input they name", () => {
    expect(
      inputProblems([
        { path: "inputs.limit", message: "expected a number, got a string" },
        { path: "inputs.limit", message: "too big" },
        { path: "inputs", message: "expected an object of input values" },
      ]),
    ).toEqual({ byInput: { limit: "expected a number, got a string; too big" }, other: [{ path: "inputs", message: "expected an object of input values" }] });
  });
});

describe("the pasted definition", () => {
  it("is a JSON object", () => {
    expect(parseDefinition('{"id": "x", "steps": []}')).toEqual({ ok: true, definition: { id: "x", steps: [] } });
  });

  it("says where the JSON breaks", () => {
    const parsed = parseDefinition('{\n  "id": "x"\n  "steps": []\n}');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.problem).toMatch(/^This is not valid JSON: /);
      expect(parsed.problem).toMatch(/line 3,? column 3\b/);
    }
  });

  it("refuses empty text and JSON that is not an object", () => {
    expect(parseDefinition("  ")).toEqual({ ok: false, problem: "Paste or write a definition: a JSON object with id and steps." });
    expect(parseDefinition("[1]")).toEqual({ ok: false, problem: "A definition is a JSON object ({ ... }) with id and steps." });
  });
});
