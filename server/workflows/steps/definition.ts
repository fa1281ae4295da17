/**
 * A step workflow (Summit-Flow): a JSON definition whose steps each call one tool with `params` that may hold `{{ }}`
 * templates (templates.ts). Defined once as zod schemas, the types inferred; validation (validate.ts) adds the checks
 * that need more than one field (ids, tools, templates, the dependency graph). Unknown fields are refused, so that a
 * misspelt `depends_on` or `retries` is reported instead of silently changing how the workflow runs.
 *
 * Problems are located by a JSON path into the definition: `steps[1].params.text`, `inputs[0].type`, `outputs.summary`
 * (a key that is not a plain name is written `params["a key"]`); the definition as a whole is the empty path.
 */
import { z } from "zod";

/** Step ids and input names: what a template can name (`{{inputs.name}}`, `{{step_id.output}}`). */
export const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** Words a template reads as its own (`{{inputs.x}}`, `{{steps.x.output}}`), so no step may be called so. */
export const RESERVED_STEP_IDS: readonly string[] = ["inputs", "steps"];

export const INPUT_TYPES = ["string", "number", "boolean", "object", "array"] as const;

/** `the number 3`, `a string`, `a list`: what a value is, for messages. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return "a string";
  if (typeof value === "number" || typeof value === "boolean") return `the ${typeof value} ${String(value)}`;
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

/** The message of a value of the wrong type, or of a required field left out. */
const expected = (what: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? `missing (expected ${what})` : `expected ${what}, got ${describeValue(issue.input)}`),
});

/** A strict object: a wrong type, or the fields it does not know (each reported at its own path by validate.ts). */
const strictFields = <Shape extends z.ZodRawShape>(what: string, shape: Shape) =>
  z.strictObject(shape, {
    error: (issue) => (issue.code === "unrecognized_keys" ? `${what} has ${Object.keys(shape).join(", ")}` : expected(what).error(issue)),
  });

const name = (what: string) =>
  z
    .string(expected("a string"))
    .min(1, { error: `${what} must not be empty`, abort: true })
    .regex(NAME_PATTERN, `${what} must be a letter or _ followed by letters, digits, _ or -, so that a template can name it`);

export const InputType = z.enum(INPUT_TYPES, expected(`one of ${INPUT_TYPES.join(", ")}`));
export type InputType = z.infer<typeof InputType>;

/** An input a run is given (checked by `checkInputs` in validate.ts); required unless `optional`. */
export const StepInput = strictFields("an input", {
  name: name("an input's name"),
  type: InputType,
  optional: z.boolean(expected("true or false")).optional(),
});
export type StepInput = z.infer<typeof StepInput>;

export const MAX_RETRIES = 10;

export const Step = strictFields("a step", {
  id: name("a step id").refine((id) => !RESERVED_STEP_IDS.includes(id), { error: (issue) => `"${String(issue.input)}" is reserved for templates ({{inputs.x}}, {{steps.x.output}}); choose another step id` }),
  /** A tool of the catalog (tools/catalog.ts), `search.google`. */
  tool: z.string(expected("a string")).min(1, "a step's tool must not be empty"),
  /** The tool's parameters; any string in them may hold templates. Absent: `{}`. */
  params: z.record(z.string(), z.unknown(), expected("an object")).optional(),
  /** Attempts after a failed first one. */
  retries: z.number(expected("a number")).int(`retries must be a whole number from 0 to ${MAX_RETRIES}`).min(0, `retries must be a whole number from 0 to ${MAX_RETRIES}`).max(MAX_RETRIES, `retries must be a whole number from 0 to ${MAX_RETRIES}`).optional(),
  /** The steps this one runs after. Absent: the step written before it (none for the first). */
  depends_on: z.array(z.string(expected("a step id")), expected("a list of step ids")).optional(),
  /** How long one attempt may take; absent, the tool's default. */
  timeout_ms: z.number(expected("a number")).int("timeout_ms must be a positive whole number of milliseconds").positive("timeout_ms must be a positive whole number of milliseconds").optional(),
});
export type Step = z.infer<typeof Step>;

export const StepWorkflowDefinition = strictFields("a step workflow", {
  id: z.string(expected("a string")).min(1, "a step workflow's id must not be empty"),
  name: z.string(expected("a string")).optional(),
  version: z.string(expected("a string")).optional(),
  description: z.string(expected("a string")).optional(),
  inputs: z.array(StepInput, expected("a list of inputs")).optional(),
  steps: z.array(Step, expected("a list of steps")).min(1, "a step workflow needs at least one step"),
  /** What the run gives back when it ends: each a text with templates (`{{extract_executives.summary}}`). */
  outputs: z.record(z.string(), z.string(expected("a template string")), expected("an object of template strings")).optional(),
});
export type StepWorkflowDefinition = z.infer<typeof StepWorkflowDefinition>;

/** What is wrong, and where: `{ path: "steps[1].params.text", message: "..." }`. */
export const Problem = z.object({ path: z.string(), message: z.string() });
export type Problem = z.infer<typeof Problem>;

/** One step further into a JSON path: `steps` + 1 → `steps[1]`, `params` + `text` → `params.text`, + `a b` → `params["a b"]`. */
export function childPath(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)) return `${path}[${JSON.stringify(key)}]`;
  return path ? `${path}.${key}` : key;
}

/** A whole JSON path from its keys: `["steps", 1, "params"]` → `steps[1].params`. */
export const pathOf = (keys: readonly PropertyKey[], base = ""): string =>
  keys.reduce<string>((path, key) => childPath(path, typeof key === "symbol" ? String(key) : key), base);
