/**
 * The step workflow schemas (definition.ts) on their own: what they accept, the message of each refusal, and the
 * JSON paths problems are located by. The checks across fields are validate.test.ts's.
 */
import { describe, expect, it } from "vitest";
import { Problem, Step, StepInput, StepWorkflowDefinition, childPath, describeValue, pathOf } from "./definition";

const messagesOf = (schema: { safeParse: (v: unknown) => { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } }, value: unknown) =>
  (schema.safeParse(value).error?.issues ?? []).map((i) => [pathOf(i.path), i.message]);

describe("StepWorkflowDefinition", () => {
  it("accepts a minimal workflow: an id and one step", () => {
    const parsed = StepWorkflowDefinition.parse({ id: "w", steps: [{ id: "a", tool: "echo" }] });
    expect(parsed).toEqual({ id: "w", steps: [{ id: "a", tool: "echo" }] });
  });

  it("accepts every field", () => {
    const full = {
      id: "w",
      name: "W",
      version: "1.0.0",
      description: "d",
      inputs: [{ name: "q", type: "string" }, { name: "n", type: "number", optional: true }],
      steps: [{ id: "a", tool: "echo", params: { text: "{{inputs.q}}" }, retries: 10, depends_on: [], timeout_ms: 1 }],
      outputs: { out: "{{a.output}}" },
    };
    expect(StepWorkflowDefinition.parse(full)).toEqual(full);
  });

  it.each<[string, unknown, [string, unknown][]]>([
    ["not an object", [], [["", "expected a step workflow, got a list"]]],
    ["nothing", undefined, [["", "missing (expected a step workflow)"]]],
    ["no id and no steps", {}, [["id", "missing (expected a string)"], ["steps", "missing (expected a list of steps)"]]],
    ["an empty id and no step", { id: "", steps: [] }, [["id", "a step workflow's id must not be empty"], ["steps", "a step workflow needs at least one step"]]],
    ["a version that is a number", { id: "w", version: 1, steps: [{ id: "a", tool: "t" }] }, [["version", "expected a string, got the number 1"]]],
    ["outputs that are not text", { id: "w", steps: [{ id: "a", tool: "t" }], outputs: { n: 3 } }, [["outputs.n", "expected a template string, got the number 3"]]],
    ["outputs that are a list", { id: "w", steps: [{ id: "a", tool: "t" }], outputs: ["x"] }, [["outputs", "expected an object of template strings, got a list"]]],
    ["an unknown field", { id: "w", steps: [{ id: "a", tool: "t" }], stepz: [] }, [["", "a step workflow has id, name, version, description, inputs, steps, outputs"]]],
  ])("refuses %s", (_, value, expected) => {
    expect(messagesOf(StepWorkflowDefinition, value)).toEqual(expected);
  });
});

describe("Step", () => {
  it.each<[string, unknown, [string, unknown][]]>([
    ["no id and no tool", {}, [["id", "missing (expected a string)"], ["tool", "missing (expected a string)"]]],
    ["an empty id (one problem)", { id: "", tool: "t" }, [["id", "a step id must not be empty"]]],
    ["an id a template cannot name", { id: "a.b", tool: "t" }, [["id", "a step id must be a letter or _ followed by letters, digits, _ or -, so that a template can name it"]]],
    ["an id starting with a digit", { id: "1a", tool: "t" }, [["id", expect.stringContaining("a letter or _")]]],
    ["the reserved id inputs", { id: "inputs", tool: "t" }, [["id", '"inputs" is reserved for templates ({{inputs.x}}, {{steps.x.output}}); choose another step id']]],
    ["the reserved id steps", { id: "steps", tool: "t" }, [["id", expect.stringContaining('"steps" is reserved')]]],
    ["an empty tool", { id: "a", tool: "" }, [["tool", "a step's tool must not be empty"]]],
    ["params that are a list", { id: "a", tool: "t", params: [1] }, [["params", "expected an object, got a list"]]],
    ["params that are text", { id: "a", tool: "t", params: "x" }, [["params", "expected an object, got a string"]]],
    ["retries of 11", { id: "a", tool: "t", retries: 11 }, [["retries", "retries must be a whole number from 0 to 10"]]],
    ["retries of -1", { id: "a", tool: "t", retries: -1 }, [["retries", "retries must be a whole number from 0 to 10"]]],
    ["retries of 1.5", { id: "a", tool: "t", retries: 1.5 }, [["retries", "retries must be a whole number from 0 to 10"]]],
    ["retries as text", { id: "a", tool: "t", retries: "2" }, [["retries", "expected a number, got a string"]]],
    ["depends_on as text", { id: "a", tool: "t", depends_on: "b" }, [["depends_on", "expected a list of step ids, got a string"]]],
    ["depends_on with a number", { id: "a", tool: "t", depends_on: ["b", 2] }, [["depends_on[1]", "expected a step id, got the number 2"]]],
    ["a timeout of 0", { id: "a", tool: "t", timeout_ms: 0 }, [["timeout_ms", "timeout_ms must be a positive whole number of milliseconds"]]],
    ["a timeout of 1.5", { id: "a", tool: "t", timeout_ms: 1.5 }, [["timeout_ms", "timeout_ms must be a positive whole number of milliseconds"]]],
  ])("refuses %s", (_, value, expected) => {
    expect(messagesOf(Step, value)).toEqual(expected);
  });

  it("accepts retries 0 to 10, ids with _ - and digits, and any params object", () => {
    for (const retries of [0, 10]) expect(Step.safeParse({ id: "_a-1", tool: "t", retries, params: { x: [{ y: null }] } }).success).toBe(true);
  });

  it("names the fields a step has when it has another", () => {
    expect(Step.safeParse({ id: "a", tool: "t", retry: 2 }).error?.issues).toMatchObject([
      { code: "unrecognized_keys", keys: ["retry"], message: "a step has id, tool, params, retries, depends_on, timeout_ms" },
    ]);
  });
});

describe("StepInput", () => {
  it.each<[string, unknown, [string, unknown][]]>([
    ["no name and no type", {}, [["name", "missing (expected a string)"], ["type", "missing (expected one of string, number, boolean, object, array)"]]],
    ["an unknown type", { name: "q", type: "text" }, [["type", "expected one of string, number, boolean, object, array, got a string"]]],
    ["a name with a dot", { name: "a.b", type: "string" }, [["name", expect.stringContaining("an input's name must be a letter")]]],
    ["optional as text", { name: "q", type: "string", optional: "yes" }, [["optional", "expected true or false, got a string"]]],
  ])("refuses %s", (_, value, expected) => {
    expect(messagesOf(StepInput, value)).toEqual(expected);
  });

  it("accepts the five types", () => {
    for (const type of ["string", "number", "boolean", "object", "array"]) expect(StepInput.safeParse({ name: "x", type }).success).toBe(true);
  });
});

describe("paths and values in messages", () => {
  it("writes JSON paths: names with dots, indexes in brackets, other keys quoted", () => {
    expect(pathOf(["steps", 1, "params", "text"])).toBe("steps[1].params.text");
    expect(pathOf([0, "a"])).toBe("[0].a");
    expect(pathOf(["params", "a b", "c-d", "$ok"])).toBe('params["a b"]["c-d"].$ok');
    expect(pathOf(["company_name"], "inputs")).toBe("inputs.company_name");
    expect(pathOf([])).toBe("");
    expect(childPath("", "x")).toBe("x");
    expect(childPath("outputs", 'say "hi"')).toBe('outputs["say \\"hi\\""]');
  });

  it("describes values", () => {
    expect([undefined, null, [], "s", 3, false, {}].map(describeValue)).toEqual(["nothing", "null", "a list", "a string", "the number 3", "the boolean false", "an object"]);
  });

  it("a problem is a path and a message", () => {
    expect(Problem.parse({ path: "steps[0].id", message: "m" })).toEqual({ path: "steps[0].id", message: "m" });
  });
});
