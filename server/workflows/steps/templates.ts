/**
 * The `{{ }}` templates of a step workflow's `params` and `outputs`: finding them, and giving them their values when
 * a step runs (or, for `outputs`, when the run ends). Pure: the caller gives the run's inputs and a way to read the
 * steps' results.
 *
 * What a template names (spaces inside the braces are allowed: `{{ inputs.company_name }}`):
 * - `{{inputs.name}}`: the run's input `name`; `{{inputs.name.a.b}}` reads into it.
 * - `{{step_id.output}}`: the whole output of step `step_id`; `{{step_id.output.a.b}}` reads into it, any depth,
 *   a list's items by their index (`{{enrich_graph.output.ids.0}}`).
 * - `{{steps.step_id.output...}}`: the same (Summit's own form).
 * - `{{step_id.field...}}`: short for `{{step_id.output.field...}}` (`{{extract_executives.summary}}`). So
 *   `{{x.output}}` is always the whole output; a field itself called `output` is `{{x.output.output}}`.
 * A name in a path is letters, digits, `_` and `-`; a key with other characters cannot be read by a template.
 *
 * How a value is written:
 * - a string that is exactly one template, nothing around it, takes the value with its type: a list stays a list,
 *   an object an object, a number a number, `null` null (a copy: the step's output is never shared with a tool);
 * - a template inside text becomes text: a string as itself, a number or boolean as written, null as `null`, a
 *   list or object as JSON.
 * Only string values are rendered, at any depth of objects and lists; object keys are left as they are. A rendered
 * value is never searched for templates again. Every `{{` opens a template (there is no escape): an unclosed one
 * is a syntax problem.
 *
 * A template that has no value (an input not given, a step that has not completed, a field its output lacks, a
 * syntax problem) throws `UnresolvableTemplate`: nothing is ever written as `undefined`.
 */
import { z } from "zod";
import { isPlainObject } from "../../lib/json";
import { childPath, describeValue } from "./definition";

export type TemplateReference = { kind: "input"; name: string; path: string[] } | { kind: "step"; stepId: string; path: string[] };

/** One `{{ }}` of a text, as written (`text`, from `start` to `end` exclusive): what it names, or why it names nothing. */
export type Template = { text: string; start: number; end: number } & ({ ok: true; ref: TemplateReference } | { ok: false; problem: string });

/** A template found in a value: `path` is the JSON path (inside that value) of the string holding it, `keys` the same as keys. */
export type TemplateSite = Template & { path: string; keys: (string | number)[]; whole: boolean };

const SEGMENT = /^[A-Za-z0-9_-]+$/;
const FORMS = "{{inputs.name}}, {{step_id.output}} or {{step_id.output.field}}";

type Parsed = { ref: TemplateReference } | { problem: string };

function stepReference(stepId: string, rest: string[], written: string): Parsed {
  if (rest.length === 0) return { problem: `names step "${stepId}" but not what of it: write {{${written}.output}} or {{${written}.output.field}}` };
  return { ref: { kind: "step", stepId, path: rest[0] === "output" ? rest.slice(1) : rest } };
}

/** What the inside of `{{ }}` names. */
function parseExpression(inside: string): Parsed {
  const expression = inside.trim();
  if (expression === "") return { problem: `an empty template: write ${FORMS}` };
  const segments = expression.split(".");
  if (!segments.every((s) => SEGMENT.test(s))) {
    return { problem: `"${expression}" is not a reference: a template is names joined by dots, like ${FORMS}` };
  }
  const [head, ...rest] = segments as [string, ...string[]];
  if (head === "inputs") {
    const [name, ...path] = rest;
    return name === undefined ? { problem: "names no input: write {{inputs.name}}" } : { ref: { kind: "input", name, path } };
  }
  if (head === "steps") {
    const [stepId, ...path] = rest;
    return stepId === undefined ? { problem: "names no step: write {{steps.step_id.output}}" } : stepReference(stepId, path, `steps.${stepId}`);
  }
  return stepReference(head, rest, head);
}

/** Every template of `text`, in order. */
export function scanTemplates(text: string): Template[] {
  const found: Template[] = [];
  for (let start = text.indexOf("{{"); start !== -1; ) {
    const close = text.indexOf("}}", start + 2);
    if (close === -1) {
      found.push({ text: text.slice(start), start, end: text.length, ok: false, problem: "this {{ is never closed: a template ends with }}" });
      break;
    }
    const end = close + 2;
    const parsed = parseExpression(text.slice(start + 2, close));
    const where = { text: text.slice(start, end), start, end };
    found.push("ref" in parsed ? { ...where, ok: true, ref: parsed.ref } : { ...where, ok: false, problem: parsed.problem });
    start = text.indexOf("{{", end);
  }
  return found;
}

/** How a reference is written in its full form: `{{inputs.company_name}}`, `{{extract_executives.output.summary}}`. */
export function referenceText(ref: TemplateReference): string {
  const head = ref.kind === "input" ? `inputs.${ref.name}` : `${ref.stepId}.output`;
  return `{{${[head, ...ref.path].join(".")}}}`;
}

/** `value` with every string (at any depth of objects and lists) replaced by `map(text, keys)`. */
function mapStrings(value: unknown, map: (text: string, keys: (string | number)[]) => unknown, keys: (string | number)[] = []): unknown {
  if (typeof value === "string") return map(value, keys);
  if (Array.isArray(value)) return value.map((item, i) => mapStrings(item, map, [...keys, i]));
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapStrings(item, map, [...keys, key])]));
  return value;
}

/** The template `text` consists of, nothing around it (a string whose value keeps its type), if it is one. */
const onlyTemplate = (templates: readonly Template[], text: string): Template | undefined =>
  templates.length === 1 && templates[0]!.start === 0 && templates[0]!.end === text.length ? templates[0] : undefined;

const pathOfKeys = (keys: readonly (string | number)[]): string => keys.reduce<string>(childPath, "");

/** Every template anywhere in `value` (a step's params, an output's text), with the JSON path of the string holding it. */
export function templateReferences(value: unknown): TemplateSite[] {
  const sites: TemplateSite[] = [];
  mapStrings(value, (text, keys) => {
    const templates = scanTemplates(text);
    const whole = onlyTemplate(templates, text) !== undefined;
    for (const template of templates) sites.push({ ...template, path: pathOfKeys(keys), keys, whole });
    return text;
  });
  return sites;
}

/** What one step left behind, as far as templates are concerned; only a `completed` one (any case) can be read. */
export interface StepResult {
  status: string;
  output: unknown;
}

export interface TemplateScope {
  /** The run's inputs. An input not in here (an optional one not given included) cannot be read. */
  inputs: Record<string, unknown>;
  /** A step's result, or undefined when it has not run. */
  outputs: (stepId: string) => StepResult | undefined;
}

/** A template without a value: `{{extract_executives.summary}}: the output of "extract_executives" has no field "summary"`. */
export class UnresolvableTemplate extends Error {
  override readonly name = "UnresolvableTemplate";
  constructor(
    /** The template as written. */
    readonly template: string,
    readonly problem: string,
    /** Where the template stands: the JSON path inside the rendered value (params, or `outputs.<key>`). */
    readonly path: string = "",
  ) {
    super(`${template}: ${problem}`);
  }
}

type Read = { ok: true; value: unknown } | { ok: false; problem: string };

/** `value` read along `path`; `subject` names it in messages (`the output of "x"`). */
function readPath(value: unknown, path: readonly string[], subject: string): Read {
  let at = value;
  for (const [i, key] of path.entries()) {
    const where = i === 0 ? subject : `${subject} at "${path.slice(0, i).join(".")}"`;
    if (Array.isArray(at)) {
      const index = /^\d+$/.test(key) ? Number(key) : -1;
      if (index < 0 || index >= at.length) return { ok: false, problem: `${where} is a list of ${at.length} item${at.length === 1 ? "" : "s"}, with no item "${key}"` };
      at = at[index];
    } else if (isPlainObject(at)) {
      if (!Object.hasOwn(at, key) || at[key] === undefined) return { ok: false, problem: `${where} has no field "${key}"` };
      at = at[key];
    } else {
      return { ok: false, problem: `${where} is ${describeValue(at)}, which has no field "${key}"` };
    }
  }
  return at === undefined ? { ok: false, problem: `${subject} is empty` } : { ok: true, value: at };
}

/** The value a reference stands for in `scope`, or why it has none. */
export function resolveReference(ref: TemplateReference, scope: TemplateScope): Read {
  if (ref.kind === "input") {
    if (!Object.hasOwn(scope.inputs, ref.name) || scope.inputs[ref.name] === undefined) return { ok: false, problem: `no input "${ref.name}" was given` };
    return readPath(scope.inputs[ref.name], ref.path, `the input "${ref.name}"`);
  }
  const result = scope.outputs(ref.stepId);
  if (!result) return { ok: false, problem: `step "${ref.stepId}" has not run` };
  if (result.status.toLowerCase() !== "completed") return { ok: false, problem: `step "${ref.stepId}" has not completed (it is ${result.status})` };
  return readPath(result.output, ref.path, `the output of "${ref.stepId}"`);
}

function valueOf(template: Template, scope: TemplateScope, path: string): unknown {
  if (!template.ok) throw new UnresolvableTemplate(template.text, template.problem, path);
  const read = resolveReference(template.ref, scope);
  if (!read.ok) throw new UnresolvableTemplate(template.text, read.problem, path);
  return read.value;
}

/** A value written into text: a string as itself, anything else as JSON (`3`, `true`, `null`, `[1,2]`). */
const asText = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value));

/** One string rendered: the value itself when the string is exactly one template, else text. */
function renderString(text: string, scope: TemplateScope, path: string): unknown {
  const templates = scanTemplates(text);
  const only = onlyTemplate(templates, text);
  if (only) {
    const value = valueOf(only, scope, path);
    return value !== null && typeof value === "object" ? structuredClone(value) : value;
  }
  let out = "";
  let last = 0;
  for (const template of templates) {
    out += text.slice(last, template.start) + asText(valueOf(template, scope, path));
    last = template.end;
  }
  return out + text.slice(last);
}

/** A step's params with every template given its value (see the module comment). Throws `UnresolvableTemplate`. */
export function renderParams(params: Record<string, unknown> | undefined, scope: TemplateScope): Record<string, unknown> {
  return mapStrings(params ?? {}, (text, keys) => renderString(text, scope, pathOfKeys(keys))) as Record<string, unknown>;
}

/**
 * One entry of a run's outputs: `{ value }` when its template resolved (the value may be null, a list, an object),
 * `{ error }` (the `UnresolvableTemplate` message) when not. Tagged both ways, so that an output whose value is
 * itself an object with an `error` field cannot pass for a failed one.
 */
export const RenderedOutput = z.union([z.strictObject({ value: z.unknown() }), z.strictObject({ error: z.string() })]);
export type RenderedOutput = z.infer<typeof RenderedOutput>;

/** A run's evaluated outputs, by name, as the run and its outcome turn store them. */
export const RenderedOutputs = z.record(z.string(), RenderedOutput);
export type RenderedOutputs = z.infer<typeof RenderedOutputs>;

/**
 * The definition's `outputs`, evaluated when the run ends: every key is there, each `{ value }` or `{ error }`; one
 * that cannot be resolved (its step failed or was skipped, a field is missing) does not keep the others from theirs.
 */
export function renderOutputs(outputs: Record<string, string> | undefined, scope: TemplateScope): RenderedOutputs {
  return Object.fromEntries(
    Object.entries(outputs ?? {}).map(([key, text]): [string, RenderedOutput] => {
      try {
        return [key, { value: renderString(text, scope, childPath("outputs", key)) }];
      } catch (error) {
        if (error instanceof UnresolvableTemplate) return [key, { error: error.message }];
        throw error;
      }
    }),
  );
}
