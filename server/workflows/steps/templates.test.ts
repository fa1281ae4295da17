/**
 * The `{{ }}` templates (templates.ts): the forms and their syntax problems, finding them anywhere in params,
 * rendering (typed when a string is only one template, text otherwise), the templates that cannot be resolved,
 * and the run's outputs.
 */
import { describe, expect, it } from "vitest";
import {
  type StepResult,
  type TemplateScope,
  UnresolvableTemplate,
  referenceText,
  renderOutputs,
  renderParams,
  scanTemplates,
  templateReferences,
} from "./templates";

const refOf = (text: string) => {
  const [template, ...more] = scanTemplates(text);
  expect(more).toEqual([]);
  if (!template?.ok) throw new Error(`expected one reference in ${text}, got ${JSON.stringify(template)}`);
  return template.ref;
};

const problemOf = (text: string): string => {
  const [template] = scanTemplates(text);
  if (!template || template.ok) throw new Error(`expected a syntax problem in ${text}`);
  return template.problem;
};

/** A scope whose steps all completed with these outputs (and whose other steps have not run). */
function scope(outputs: Record<string, unknown>, inputs: Record<string, unknown> = {}, statuses: Record<string, string> = {}): TemplateScope {
  return {
    inputs,
    outputs: (id): StepResult | undefined =>
      Object.hasOwn(outputs, id) || Object.hasOwn(statuses, id) ? { status: statuses[id] ?? "completed", output: outputs[id] } : undefined,
  };
}

/** The message `renderParams` throws for these params. */
function failure(params: Record<string, unknown>, s: TemplateScope): UnresolvableTemplate {
  try {
    renderParams(params, s);
  } catch (error) {
    if (error instanceof UnresolvableTemplate) return error;
    throw error;
  }
  throw new Error("expected UnresolvableTemplate");
}

describe("the template forms", () => {
  it("{{inputs.name}} names an input, with an optional path into it", () => {
    expect(refOf("{{inputs.company_name}}")).toEqual({ kind: "input", name: "company_name", path: [] });
    expect(refOf("{{inputs.company.address.0}}")).toEqual({ kind: "input", name: "company", path: ["address", "0"] });
  });

  it("{{step_id.output}} is the whole output; deeper paths read into it at any depth, indexes as .0", () => {
    expect(refOf("{{google_search.output}}")).toEqual({ kind: "step", stepId: "google_search", path: [] });
    expect(refOf("{{enrich_graph.output.ids.0}}")).toEqual({ kind: "step", stepId: "enrich_graph", path: ["ids", "0"] });
    expect(refOf("{{a.output.b.c.d.e}}")).toEqual({ kind: "step", stepId: "a", path: ["b", "c", "d", "e"] });
  });

  it("{{steps.step_id.output}} (Summit's form) names the same as {{step_id.output}}", () => {
    expect(refOf("{{steps.extract_executives.output}}")).toEqual(refOf("{{extract_executives.output}}"));
    expect(refOf("{{steps.x.output.a.1}}")).toEqual({ kind: "step", stepId: "x", path: ["a", "1"] });
    expect(refOf("{{steps.x.summary}}")).toEqual(refOf("{{x.output.summary}}"));
  });

  it("{{step_id.field}} is short for {{step_id.output.field}}; a field called output is {{x.output.output}}", () => {
    expect(refOf("{{extract_executives.summary}}")).toEqual({ kind: "step", stepId: "extract_executives", path: ["summary"] });
    expect(refOf("{{x.a.b}}")).toEqual(refOf("{{x.output.a.b}}"));
    expect(refOf("{{x.output.output}}")).toEqual({ kind: "step", stepId: "x", path: ["output"] });
  });

  it("allows spaces inside the braces, and ids with - and digits", () => {
    expect(refOf("{{ inputs.company_name }}")).toEqual({ kind: "input", name: "company_name", path: [] });
    expect(refOf("{{\tstep-2.output\n}}")).toEqual({ kind: "step", stepId: "step-2", path: [] });
  });

  it("finds each template of a text with its place, as written", () => {
    const text = "site:{{ inputs.site }} {{a.output}}!";
    expect(scanTemplates(text).map((t) => [t.text, t.start, t.end, text.slice(t.start, t.end)])).toEqual([
      ["{{ inputs.site }}", 5, 22, "{{ inputs.site }}"],
      ["{{a.output}}", 23, 35, "{{a.output}}"],
    ]);
    expect(scanTemplates("no templates } here { }")).toEqual([]);
  });

  it("writes a reference in its full form", () => {
    expect(referenceText(refOf("{{ steps.x.y.0 }}"))).toBe("{{x.output.y.0}}");
    expect(referenceText(refOf("{{inputs.a.b}}"))).toBe("{{inputs.a.b}}");
  });
});

describe("template syntax problems", () => {
  it.each([
    ["{{}}", "an empty template"],
    ["{{   }}", "an empty template"],
    ["{{ a b }}", '"a b" is not a reference'],
    ["{{a..b}}", '"a..b" is not a reference'],
    ["{{a.}}", '"a." is not a reference'],
    ["{{inputs.x[0]}}", "is not a reference"],
    ["{{ {{a.output}} }}", "is not a reference"],
    ["{{inputs}}", "names no input: write {{inputs.name}}"],
    ["{{steps}}", "names no step: write {{steps.step_id.output}}"],
    ["{{steps.x}}", 'names step "x" but not what of it: write {{steps.x.output}}'],
    ["{{extract_executives}}", 'names step "extract_executives" but not what of it: write {{extract_executives.output}}'],
    ["{{a.output", "this {{ is never closed: a template ends with }}"],
  ])("%s: %s", (text, message) => {
    expect(problemOf(text)).toContain(message);
  });

  it("an unclosed {{ runs to the end of the text; templates before it still count", () => {
    const found = scanTemplates("{{a.output}} and {{b.output");
    expect(found.map((t) => [t.ok, t.text])).toEqual([
      [true, "{{a.output}}"],
      [false, "{{b.output"],
    ]);
  });
});

describe("templateReferences", () => {
  it("finds templates at any depth of objects and lists, each with the JSON path of its string", () => {
    const params = {
      text: "{{a.output}}",
      nested: { list: ["plain", "x {{inputs.q}} y {{b.output.n}}"], "odd key": "{{c.output}}" },
      count: 3,
      flag: true,
      nothing: null,
    };
    expect(templateReferences(params).map((s) => [s.path, s.keys, s.text, s.whole, s.ok && s.ref])).toEqual([
      ["text", ["text"], "{{a.output}}", true, { kind: "step", stepId: "a", path: [] }],
      ["nested.list[1]", ["nested", "list", 1], "{{inputs.q}}", false, { kind: "input", name: "q", path: [] }],
      ["nested.list[1]", ["nested", "list", 1], "{{b.output.n}}", false, { kind: "step", stepId: "b", path: ["n"] }],
      ['nested["odd key"]', ["nested", "odd key"], "{{c.output}}", true, { kind: "step", stepId: "c", path: [] }],
    ]);
  });

  it("reports syntax problems as sites too, and reads no keys", () => {
    expect(templateReferences({ "{{a.output}}": "{{ }}" })).toMatchObject([{ path: '["{{a.output}}"]', ok: false, problem: expect.stringContaining("empty") }]);
  });

  it("a bare string is at the empty path; a string with text around its one template is not whole", () => {
    expect(templateReferences("{{a.output}}")).toMatchObject([{ path: "", whole: true }]);
    expect(templateReferences(" {{a.output}}")).toMatchObject([{ path: "", whole: false }]);
    expect(templateReferences([1, "{{a.x}}"])).toMatchObject([{ path: "[1]", keys: [1] }]);
  });
});

describe("renderParams", () => {
  const outputs = {
    google_search: [{ title: "Acme", url: "https://acme.example" }],
    extract_executives: { entities: [{ name: "Ada" }, { name: "Bob" }], summary: "Two executives", count: 2, none: null, ok: true },
  };
  const s = scope(outputs, { company_name: "Acme", limit: 5, tags: ["a", "b"] });

  it("a string that is only one template takes the value with its type", () => {
    const rendered = renderParams(
      {
        list: "{{google_search.output}}",
        object: "{{extract_executives.output}}",
        number: "{{extract_executives.count}}",
        boolean: "{{ extract_executives.output.ok }}",
        nothing: "{{extract_executives.none}}",
        input: "{{inputs.limit}}",
        inputList: "{{inputs.tags}}",
        item: "{{extract_executives.entities.1.name}}",
      },
      s,
    );
    expect(rendered).toEqual({
      list: outputs.google_search,
      object: outputs.extract_executives,
      number: 2,
      boolean: true,
      nothing: null,
      input: 5,
      inputList: ["a", "b"],
      item: "Bob",
    });
  });

  it("a template inside text becomes text: strings as themselves, other values as JSON", () => {
    expect(
      renderParams(
        {
          query: "site:linkedin.com/company {{inputs.company_name}}",
          mixed: "{{extract_executives.count}} of {{ inputs.limit }}: {{extract_executives.summary}}",
          json: "entities={{extract_executives.entities}} ok={{extract_executives.ok}} none={{extract_executives.none}}",
          spaced: " {{inputs.limit}}",
        },
        s,
      ),
    ).toEqual({
      query: "site:linkedin.com/company Acme",
      mixed: "2 of 5: Two executives",
      json: 'entities=[{"name":"Ada"},{"name":"Bob"}] ok=true none=null',
      spaced: " 5",
    });
  });

  it("renders at any depth and leaves every other value (and the keys) as it is", () => {
    const params = { a: { b: ["{{inputs.limit}}", { c: "n={{inputs.limit}}" }] }, n: 1, t: true, z: null, "{{inputs.limit}}": "k" };
    expect(renderParams(params, s)).toEqual({ a: { b: [5, { c: "n=5" }] }, n: 1, t: true, z: null, "{{inputs.limit}}": "k" });
    expect(params.a.b[0]).toBe("{{inputs.limit}}");
  });

  it("gives a copy: a tool changing its params does not change the step's output", () => {
    const rendered = renderParams({ object: "{{extract_executives.output}}" }, s) as { object: { entities: unknown[] } };
    rendered.object.entities.push("changed");
    expect(outputs.extract_executives.entities).toHaveLength(2);
  });

  it("does not search a rendered value for templates again", () => {
    expect(renderParams({ t: "{{inputs.q}}", u: "say {{inputs.q}}" }, scope({}, { q: "{{inputs.secret}}", secret: "x" }))).toEqual({
      t: "{{inputs.secret}}",
      u: "say {{inputs.secret}}",
    });
  });

  it("no params render as {}", () => {
    expect(renderParams(undefined, s)).toEqual({});
  });

  it("accepts the status completed in any case (Summit writes COMPLETED)", () => {
    expect(renderParams({ v: "{{a.output}}" }, scope({ a: 1 }, {}, { a: "COMPLETED" }))).toEqual({ v: 1 });
  });

  it.each<[string, Record<string, unknown>, TemplateScope, string]>([
    ["a field missing from the output (the spec's example)", { s: "{{extract_executives.summary}}" }, scope({ extract_executives: { entities: [] } }), '{{extract_executives.summary}}: the output of "extract_executives" has no field "summary"'],
    ["a field missing deeper", { s: "x {{ a.output.b.c }}" }, scope({ a: { b: { d: 1 } } }), '{{ a.output.b.c }}: the output of "a" at "b" has no field "c"'],
    ["an index past the end", { s: "{{a.ids.2}}" }, scope({ a: { ids: [1, 2] } }), '{{a.ids.2}}: the output of "a" at "ids" is a list of 2 items, with no item "2"'],
    ["a name on a list", { s: "{{a.output.first}}" }, scope({ a: [1] }), '{{a.output.first}}: the output of "a" is a list of 1 item, with no item "first"'],
    ["a field of a string", { s: "{{a.output.n}}" }, scope({ a: "text" }), '{{a.output.n}}: the output of "a" is a string, which has no field "n"'],
    ["a field of null", { s: "{{a.output.b.n}}" }, scope({ a: { b: null } }), '{{a.output.b.n}}: the output of "a" at "b" is null, which has no field "n"'],
    ["a step that has not run", { s: "{{b.output}}" }, scope({}), '{{b.output}}: step "b" has not run'],
    ["a step that failed", { s: "{{b.output}}" }, scope({}, {}, { b: "failed" }), '{{b.output}}: step "b" has not completed (it is failed)'],
    ["a step that was skipped", { s: "{{steps.b.output}}" }, scope({}, {}, { b: "skipped" }), '{{steps.b.output}}: step "b" has not completed (it is skipped)'],
    ["a completed step without an output", { s: "{{b.output}}" }, scope({ b: undefined }), '{{b.output}}: the output of "b" is empty'],
    ["an input not given (unknown, or optional and left out)", { s: "{{inputs.jurisdiction}}" }, scope({}, { company_name: "Acme" }), '{{inputs.jurisdiction}}: no input "jurisdiction" was given'],
    ["a field missing from an input", { s: "{{inputs.c.x}}" }, scope({}, { c: {} }), '{{inputs.c.x}}: the input "c" has no field "x"'],
    ["a syntax problem", { s: "{{ a b }}" }, scope({}), '{{ a b }}: "a b" is not a reference: a template is names joined by dots, like {{inputs.name}}, {{step_id.output}} or {{step_id.output.field}}'],
  ])("throws UnresolvableTemplate naming the template, never writing undefined: %s", (_, params, s2, message) => {
    const error = failure(params, s2);
    expect(error.message).toBe(message);
    expect(error.message).not.toContain("undefined");
    expect(error.name).toBe("UnresolvableTemplate");
  });

  it("the error tells where the template stands in the params", () => {
    expect(failure({ a: [{ b: "{{x.output}}" }] }, scope({}))).toMatchObject({ template: "{{x.output}}", problem: 'step "x" has not run', path: "a[0].b" });
  });
});

describe("renderOutputs", () => {
  it("resolves the spec example's outputs from plausible step outputs", () => {
    const s = scope({ extract_executives: { entities: [{ name: "Ada" }, { name: "Bob" }], summary: "Two executives at Acme", count: 2 }, enrich_graph: { count: 2, ids: ["n1", "n2"] } });
    expect(renderOutputs({ summary: "{{extract_executives.summary}}", graph_update_count: "{{enrich_graph.count}}" }, s)).toEqual({
      summary: { value: "Two executives at Acme" },
      graph_update_count: { value: 2 },
    });
  });

  it("an output that cannot be resolved is { error }; the others are still there", () => {
    const s = scope({ a: { n: 1, error: "not a failure" } }, {}, { b: "failed" });
    expect(renderOutputs({ n: "{{a.n}}", broken: "{{b.count}}", missing: "{{a.nope}}", text: "n is {{a.n}}", whole: "{{a.output}}", fixed: "no template" }, s)).toEqual({
      n: { value: 1 },
      broken: { error: '{{b.count}}: step "b" has not completed (it is failed)' },
      missing: { error: '{{a.nope}}: the output of "a" has no field "nope"' },
      text: { value: "n is 1" },
      whole: { value: { n: 1, error: "not a failure" } },
      fixed: { value: "no template" },
    });
  });

  it("null is a value; no outputs are {}", () => {
    expect(renderOutputs({ v: "{{a.v}}" }, scope({ a: { v: null } }))).toEqual({ v: { value: null } });
    expect(renderOutputs(undefined, scope({}))).toEqual({});
  });
});
