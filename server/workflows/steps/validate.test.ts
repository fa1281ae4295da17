/**
 * Validation of step workflows (validate.ts): the Summit-Flow spec's example end to end (validated, its templates
 * rendered, its outputs resolved), then every problem with its path, several at once, the ordering rule (a sequence
 * unless depends_on replaces the implicit edge), cycles, templates and the run's inputs.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Problem, StepWorkflowDefinition } from "./definition";
import { type TemplateScope, renderOutputs, renderParams } from "./templates";
import type { ToolCatalog } from "./tools/catalog";
import { SEED_EXAMPLE as SUMMIT_EXAMPLE } from "../../testing/stepWorkflows";
import { checkInputs, validateDefinition } from "./validate";

const TOOLS: Record<string, z.ZodType> = {
  "search.google": z.object({ query: z.string().min(1), limit: z.number().int().positive().optional() }),
  "llm.extract_entities": z.object({ text: z.string(), schema: z.enum(["Person", "Company"]) }),
  "graph.create_nodes": z.strictObject({ nodes: z.array(z.object({ name: z.string() })), edge_type: z.string() }),
  echo: z.object({ text: z.string().optional(), n: z.number().optional(), list: z.array(z.number()).optional() }),
};

/** A catalog of these tools. */
const catalogOf = (tools: Record<string, z.ZodType>): ToolCatalog => ({
  has: (name) => Object.hasOwn(tools, name),
  names: () => Object.keys(tools),
  paramsSchema: (name) => tools[name]!,
});
const catalog = catalogOf(TOOLS);

function valid(raw: unknown): { definition: StepWorkflowDefinition; order: Record<string, string[]> } {
  const result = validateDefinition(raw, catalog);
  if (!result.ok) throw new Error(`expected the definition to be valid:\n${result.problems.map((p) => `${p.path}: ${p.message}`).join("\n")}`);
  return result;
}

function problems(raw: unknown, tools: ToolCatalog = catalog): Problem[] {
  const result = validateDefinition(raw, tools);
  if (result.ok) throw new Error("expected the definition to be refused");
  return result.problems;
}

/** Problems one a line, `path: message`, to compare with a block of text. */
const report = (found: readonly Problem[]): string => found.map((p) => `${p.path}: ${p.message}`).join("\n");
const lines = (block: string): string =>
  block
    .trim()
    .split("\n")
    .map((line) => line.trim())
    .join("\n");

/** A workflow with these steps (echo unless said) and inputs. */
const wf = (steps: Record<string, unknown>[], extra: Record<string, unknown> = {}) => ({ id: "w", steps: steps.map((s) => ({ tool: "echo", ...s })), ...extra });

describe("the Summit-Flow spec's example", () => {
  it("validates with a catalog that knows its tools; it runs as a sequence", () => {
    const { definition, order } = valid(SUMMIT_EXAMPLE);
    expect(definition).toEqual(SUMMIT_EXAMPLE);
    expect(order).toEqual({ google_search: [], extract_executives: ["google_search"], enrich_graph: ["extract_executives"] });
  });

  it("its templates render typed values step by step, and its outputs resolve when the run ends", () => {
    const { definition } = valid(SUMMIT_EXAMPLE);
    const results: Record<string, unknown> = {
      google_search: [{ title: "Acme Corp | LinkedIn", url: "https://linkedin.com/company/acme" }],
      extract_executives: { entities: [{ name: "Ada Lovelace" }, { name: "Bob Noyce" }], summary: "Two executives of Acme Corp", count: 2 },
      enrich_graph: { count: 2, ids: ["n1", "n2"] },
    };
    const scope: TemplateScope = {
      inputs: { company_name: "Acme Corp" },
      outputs: (id) => (Object.hasOwn(results, id) ? { status: "completed", output: results[id] } : undefined),
    };
    const [search, extract, enrich] = definition.steps.map((step) => renderParams(step.params, scope));
    expect(search).toEqual({ query: "site:linkedin.com/company Acme Corp" });
    expect(extract).toEqual({ text: results.google_search, schema: "Person" });
    expect(enrich).toEqual({ nodes: results.extract_executives, edge_type: "WORKS_FOR" });
    expect(renderOutputs(definition.outputs, scope)).toEqual({ summary: { value: "Two executives of Acme Corp" }, graph_update_count: { value: 2 } });
  });

  it("its inputs: company_name is required, jurisdiction optional", () => {
    const { definition } = valid(SUMMIT_EXAMPLE);
    expect(checkInputs(definition, { company_name: "Acme" })).toEqual([]);
    expect(checkInputs(definition, { company_name: "Acme", jurisdiction: "DE" })).toEqual([]);
    expect(checkInputs(definition, {})).toEqual([{ path: "inputs.company_name", message: "missing (expected a string)" }]);
    expect(checkInputs(definition, { company_name: 42 })).toEqual([{ path: "inputs.company_name", message: "expected a string, got the number 42" }]);
  });

  it("with a catalog that lacks graph.create_nodes, the unknown tool is named with the known ones", () => {
    const { "graph.create_nodes": _, ...others } = TOOLS;
    expect(problems(SUMMIT_EXAMPLE, catalogOf(others))).toEqual([
      { path: "steps[2].tool", message: 'unknown tool "graph.create_nodes"; the known tools are echo, llm.extract_entities, search.google' },
    ]);
  });
});

describe("every problem at once, each at its path", () => {
  it("reports structural, tool, params, template, graph and output problems together, sorted by path", () => {
    const raw = {
      id: "",
      inputs: [{ name: "q", type: "string" }, { name: "q", type: "text" }],
      steps: [
        { id: "a", tool: "search.google", params: { query: 3 }, retries: 20 },
        { id: "a", tool: "search.bing" },
        { id: "c", tool: "echo", params: { text: "{{inputs.nope}} {{ghost.output}} {{d.output}}" }, depends_on: ["zzz"] },
        { id: "d", tool: "echo", colour: "red" },
      ],
      outputs: { x: "{{ }}" },
    };
    expect(report(problems(raw))).toBe(
      lines(`
        id: a step workflow's id must not be empty
        inputs[1].name: duplicate input "q": inputs[0] already has it
        inputs[1].type: expected one of string, number, boolean, object, array, got a string
        outputs.x: {{ }}: an empty template: write {{inputs.name}}, {{step_id.output}} or {{step_id.output.field}}
        steps[0].params.query: Invalid input: expected string, received number (params of tool "search.google")
        steps[0].retries: retries must be a whole number from 0 to 10
        steps[1].id: duplicate step id "a": steps[0] already has it
        steps[1].tool: unknown tool "search.bing"; the known tools are echo, graph.create_nodes, llm.extract_entities, search.google
        steps[2].depends_on[0]: depends_on names unknown step "zzz"; the steps are a, c, d
        steps[2].params.text: {{inputs.nope}}: no input "nope" is declared (the inputs are q)
        steps[2].params.text: {{ghost.output}}: no step "ghost" in this workflow (the steps are a, c, d)
        steps[2].params.text: {{d.output}}: step "d" does not run before "c" (it is not among the steps "c" depends on, directly or through others), so its output is not there yet: name it in the depends_on of "c"
        steps[3].colour: unknown field "colour": a step has id, tool, params, retries, depends_on, timeout_ms
      `),
    );
  });

  it("sorts list indexes as numbers (steps[2] before steps[10])", () => {
    const steps = Array.from({ length: 11 }, (_, i) => ({ id: `s${i}`, tool: i === 2 || i === 10 ? "nope" : "echo" }));
    expect(problems(wf(steps)).map((p) => p.path)).toEqual(["steps[2].tool", "steps[10].tool"]);
  });

  it("a document that is not an object, or has no steps", () => {
    expect(problems("workflow")).toEqual([{ path: "", message: "expected a step workflow, got a string" }]);
    expect(problems(null)).toEqual([{ path: "", message: "expected a step workflow, got null" }]);
    expect(problems({ id: "w" })).toEqual([{ path: "steps", message: "missing (expected a list of steps)" }]);
    expect(problems({ id: "w", steps: [] })).toEqual([{ path: "steps", message: "a step workflow needs at least one step" }]);
  });

  it("an unknown field at the top, in an input and in a step, each at its own path", () => {
    expect(problems(wf([{ id: "a", retry: 1, dependsOn: ["x"] }], { input: [], inputs: [{ name: "q", type: "string", default: "x" }] }))).toEqual([
      { path: "input", message: 'unknown field "input": a step workflow has id, name, version, description, inputs, steps, outputs' },
      { path: "inputs[0].default", message: 'unknown field "default": an input has name, type, optional' },
      { path: "steps[0].dependsOn", message: 'unknown field "dependsOn": a step has id, tool, params, retries, depends_on, timeout_ms' },
      { path: "steps[0].retry", message: 'unknown field "retry": a step has id, tool, params, retries, depends_on, timeout_ms' },
    ]);
  });

  it("checks what can be checked of a step whose other fields are wrong", () => {
    expect(problems(wf([{ id: 7 }, { id: "b", tool: "nope", timeout_ms: -1, params: { text: "{{a.output}}" } }]))).toEqual([
      { path: "steps[0].id", message: "expected a string, got the number 7" },
      { path: "steps[1].params.text", message: '{{a.output}}: no step "a" in this workflow (the steps are b)' },
      { path: "steps[1].timeout_ms", message: "timeout_ms must be a positive whole number of milliseconds" },
      { path: "steps[1].tool", message: 'unknown tool "nope"; the known tools are echo, graph.create_nodes, llm.extract_entities, search.google' },
    ]);
  });

  it("says so when no tools are known", () => {
    expect(problems(wf([{ id: "a" }]), catalogOf({}))).toEqual([{ path: "steps[0].tool", message: 'unknown tool "echo"; no tools are known' }]);
  });
});

describe("params against the tool's schema", () => {
  it("reports every place that does not fit, with the tool named, and a missing required param", () => {
    expect(problems(wf([{ id: "a", tool: "graph.create_nodes", params: { nodes: [{ name: 1 }, { name: "ok" }], extra: true } }]))).toEqual([
      { path: "steps[0].params.edge_type", message: 'Invalid input: expected string, received undefined (params of tool "graph.create_nodes")' },
      { path: "steps[0].params.extra", message: 'unknown field "extra" (params of tool "graph.create_nodes")' },
      { path: "steps[0].params.nodes[0].name", message: 'Invalid input: expected string, received number (params of tool "graph.create_nodes")' },
    ]);
  });

  it("absent params are checked as {}", () => {
    expect(problems(wf([{ id: "a", tool: "llm.extract_entities" }])).map((p) => p.path)).toEqual(["steps[0].params.schema", "steps[0].params.text"]);
    expect(valid(wf([{ id: "a" }])).definition.steps[0]).toEqual({ id: "a", tool: "echo" });
  });

  it("skips the places holding a template: a whole template, a template in text, an item of a list", () => {
    valid(
      wf([
        { id: "a" },
        { id: "b", params: { n: "{{a.output.n}}", list: [1, "{{a.output.n}}", 3] } },
        { id: "c", tool: "llm.extract_entities", params: { text: "{{a.output}}", schema: "{{inputs.kind}}" } },
        { id: "d", tool: "graph.create_nodes", params: { nodes: ["{{a.output}}"], edge_type: "E" } },
        { id: "e", tool: "graph.create_nodes", params: { nodes: "{{a.output.list}}", edge_type: "x-{{inputs.kind}}" } },
      ], { inputs: [{ name: "kind", type: "string" }] }),
    );
  });

  it("still checks the places next to a template", () => {
    expect(problems(wf([{ id: "a" }, { id: "b", params: { n: "{{a.output}}", list: [1, "x", "{{a.output}}"], text: 5 } }]))).toEqual([
      { path: "steps[1].params.list[1]", message: 'Invalid input: expected number, received string (params of tool "echo")' },
      { path: "steps[1].params.text", message: 'Invalid input: expected string, received number (params of tool "echo")' },
    ]);
  });

  it("a template is not a way around a wrong shape elsewhere: nodes holds no template, so its items are checked", () => {
    expect(problems(wf([{ id: "a" }, { id: "b", tool: "graph.create_nodes", params: { nodes: [{ name: 1 }], edge_type: "{{a.output}}" } }])).map((p) => p.path)).toEqual([
      "steps[1].params.nodes[0].name",
    ]);
  });
});

describe("the order steps run in", () => {
  it("a sequence: each step after the one written before it", () => {
    expect(valid(wf([{ id: "a" }, { id: "b" }, { id: "c" }])).order).toEqual({ a: [], b: ["a"], c: ["b"] });
  });

  it("depends_on replaces the implicit edge: a DAG with a fan-out and a join", () => {
    const { order } = valid(wf([{ id: "root" }, { id: "left", depends_on: ["root"] }, { id: "right", depends_on: ["root"] }, { id: "join", depends_on: ["left", "right"] }, { id: "after" }]));
    expect(order).toEqual({ root: [], left: ["root"], right: ["root"], join: ["left", "right"], after: ["join"] });
  });

  it("depends_on: [] starts a step with the run; a step named twice counts once", () => {
    expect(valid(wf([{ id: "a" }, { id: "b", depends_on: [] }, { id: "c", depends_on: ["a", "b", "a"] }])).order).toEqual({ a: [], b: [], c: ["a", "b"] });
  });

  it("a step may depend on a step written after it", () => {
    expect(valid(wf([{ id: "a", depends_on: ["b"] }, { id: "b", depends_on: [] }])).order).toEqual({ a: ["b"], b: [] });
  });

  it("depends_on naming an unknown step, or the step itself", () => {
    expect(problems(wf([{ id: "a" }, { id: "b", depends_on: ["a", "nope", "b"] }]))).toEqual([
      { path: "steps[1].depends_on[1]", message: 'depends_on names unknown step "nope"; the steps are a, b' },
      { path: "steps[1].depends_on[2]", message: 'step "b" depends on itself' },
    ]);
  });

  it("a cycle, named by its step ids, reported once at a depends_on entry", () => {
    expect(problems(wf([{ id: "a", depends_on: ["c"] }, { id: "b", depends_on: ["a"] }, { id: "c", depends_on: ["b"] }, { id: "d" }]))).toEqual([
      { path: "steps[0].depends_on[0]", message: "the steps form a cycle, each waiting for the next: a → c → b → a" },
    ]);
  });

  it("a cycle through an implicit edge says where that edge comes from", () => {
    expect(problems(wf([{ id: "a" }, { id: "b", depends_on: ["c"] }, { id: "c" }]))).toEqual([
      {
        path: "steps[1].depends_on[0]",
        message: 'the steps form a cycle, each waiting for the next: b → c → b ("c" waits for "b" because it comes right after it and names no depends_on)',
      },
    ]);
  });

  it("two separate cycles are two problems", () => {
    const found = problems(wf([{ id: "a", depends_on: ["b"] }, { id: "b", depends_on: ["a"] }, { id: "c", depends_on: ["d"] }, { id: "d", depends_on: ["c"] }]));
    expect(found.map((p) => [p.path, p.message.split(": ")[1]])).toEqual([
      ["steps[0].depends_on[0]", "a → b → a"],
      ["steps[2].depends_on[0]", "c → d → c"],
    ]);
  });
});

describe("templates in params and outputs", () => {
  it("a step may read any step that runs before it, directly or through others, in every form", () => {
    valid(wf([{ id: "a" }, { id: "b" }, { id: "c", params: { text: "{{a.output}} {{steps.a.output.x}} {{a.x.0}} {{b.output}}" } }]));
  });

  it("a step of another branch does not run before it", () => {
    const found = problems(wf([{ id: "root" }, { id: "left", depends_on: ["root"] }, { id: "right", depends_on: ["root"], params: { text: "{{left.output}} {{root.output}}" } }]));
    expect(found).toEqual([{ path: "steps[2].params.text", message: expect.stringContaining('{{left.output}}: step "left" does not run before "right"') }]);
  });

  it("depends_on replacing the implicit edge means the step before no longer runs first", () => {
    expect(problems(wf([{ id: "a" }, { id: "b", depends_on: [], params: { text: "{{a.output}}" } }])).map((p) => p.message)).toEqual([
      expect.stringContaining('step "a" does not run before "b"'),
    ]);
  });

  it("a step cannot read its own output; a template's syntax problem is reported at its place", () => {
    expect(problems(wf([{ id: "a", params: { text: "{{a.output}}", n: "{{ a b }}", list: ["{{inputs}}"] } }]))).toEqual([
      { path: "steps[0].params.list[0]", message: "{{inputs}}: names no input: write {{inputs.name}}" },
      { path: "steps[0].params.n", message: expect.stringContaining('{{ a b }}: "a b" is not a reference') },
      { path: "steps[0].params.text", message: '{{a.output}}: step "a" cannot read its own output' },
    ]);
  });

  it("an unknown input when the workflow declares none", () => {
    expect(problems(wf([{ id: "a", params: { text: "{{inputs.q}}" } }]))).toEqual([
      { path: "steps[0].params.text", message: '{{inputs.q}}: no input "q" is declared (the workflow declares no inputs)' },
    ]);
  });

  it("outputs may name any step and any declared input; unknown ones are problems", () => {
    valid(wf([{ id: "a", depends_on: [] }, { id: "b", depends_on: [] }], { inputs: [{ name: "q", type: "string" }], outputs: { all: "{{a.output}} {{b.n}} {{inputs.q}}" } }));
    expect(problems(wf([{ id: "a" }], { outputs: { x: "{{z.output}}", "a key": "{{inputs.q}}" } }))).toEqual([
      { path: 'outputs["a key"]', message: '{{inputs.q}}: no input "q" is declared (the workflow declares no inputs)' },
      { path: "outputs.x", message: '{{z.output}}: no step "z" in this workflow (the steps are a)' },
    ]);
  });

  it("the reserved ids and ids a template cannot name", () => {
    expect(problems(wf([{ id: "steps" }, { id: "my step" }])).map((p) => [p.path, p.message.slice(0, 30)])).toEqual([
      ["steps[0].id", '"steps" is reserved for templa'],
      ["steps[1].id", "a step id must be a letter or "],
    ]);
  });
});

describe("checkInputs", () => {
  const definition = valid(
    wf([{ id: "a" }], {
      inputs: [
        { name: "s", type: "string" },
        { name: "n", type: "number" },
        { name: "b", type: "boolean" },
        { name: "o", type: "object" },
        { name: "l", type: "array" },
        { name: "maybe", type: "string", optional: true },
      ],
    }),
  ).definition;
  const good = { s: "x", n: 1.5, b: false, o: { k: 1 }, l: [] };

  it("accepts each type, an optional input left out or given", () => {
    expect(checkInputs(definition, good)).toEqual([]);
    expect(checkInputs(definition, { ...good, maybe: "" })).toEqual([]);
  });

  it("reports every required input missing and every wrong type", () => {
    expect(report(checkInputs(definition, { s: 1, n: "1", b: "true", o: [], l: {}, maybe: 2 }))).toBe(
      lines(`
        inputs.s: expected a string, got the number 1
        inputs.n: expected a number, got a string
        inputs.b: expected true or false, got a string
        inputs.o: expected an object, got a list
        inputs.l: expected a list, got an object
        inputs.maybe: expected a string, got the number 2
      `),
    );
    expect(checkInputs(definition, {}).map((p) => p.message)).toEqual([
      "missing (expected a string)",
      "missing (expected a number)",
      "missing (expected true or false)",
      "missing (expected an object)",
      "missing (expected a list)",
    ]);
  });

  it("refuses null (leave an optional input out instead), and numbers that are not finite", () => {
    expect(checkInputs(definition, { ...good, maybe: null, n: Number.NaN })).toEqual([
      { path: "inputs.n", message: "expected a number, got the number NaN" },
      { path: "inputs.maybe", message: "expected a string, got null" },
    ]);
  });

  it("refuses inputs the workflow does not declare", () => {
    expect(checkInputs(definition, { ...good, mabye: "x", "odd key": 1 })).toEqual([
      { path: "inputs.mabye", message: "unknown input; the workflow's inputs are s, n, b, o, l, maybe" },
      { path: 'inputs["odd key"]', message: "unknown input; the workflow's inputs are s, n, b, o, l, maybe" },
    ]);
    expect(checkInputs(valid(wf([{ id: "a" }])).definition, { x: 1 })).toEqual([{ path: "inputs.x", message: "unknown input; the workflow takes no inputs" }]);
  });

  it("inputs that are not an object", () => {
    expect(checkInputs(definition, ["x"])).toEqual([{ path: "inputs", message: "expected an object of input values, got a list" }]);
    expect(checkInputs(definition, undefined)).toEqual([{ path: "inputs", message: "expected an object of input values, got nothing" }]);
  });
});
