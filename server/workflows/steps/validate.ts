/**
 * A step workflow's definition checked before anything is stored, and a run's inputs checked against it. Pure.
 *
 * `validateDefinition` reports every problem at once, each at its JSON path (definition.ts), sorted by path: the
 * checks that need more than one field still run when some fields are wrong, on the fields that are right.
 *
 * Order: steps run in the order written, each after the one before it, unless a step names `depends_on`, which
 * replaces that implicit dependency (`depends_on: []` makes a step start with the run). So a definition is a
 * sequence, a DAG, or both. `order` is each step's resolved dependencies, in the order named; a step named twice
 * in one `depends_on` counts once.
 */
import type { z } from "zod";
import { findCycles, reachableFrom } from "../../lib/cycles";
import { isPlainObject } from "../../lib/json";
import { type InputType, type Problem, Step, StepInput, StepWorkflowDefinition, describeValue, pathOf } from "./definition";
import { type TemplateSite, templateReferences } from "./templates";
import type { ToolCatalog } from "./tools/catalog";

/** Each step's id → the ids of the steps it runs after. */
export type StepOrder = Record<string, string[]>;

export type ValidationResult = { ok: true; definition: StepWorkflowDefinition; order: StepOrder } | { ok: false; problems: Problem[] };

type Key = string | number;

/** A problem while validating: its place as keys, made a path once sorted. */
interface Found {
  keys: Key[];
  message: string;
}

type Issue = z.ZodError["issues"][number];

/** Zod's issues under `base`, an unknown field at its own path; `note` is added to every message. */
function issuesFound(issues: readonly Issue[], base: readonly Key[], note = ""): Found[] {
  return issues.flatMap((issue) => {
    const keys = [...base, ...issue.path.map((k) => (typeof k === "symbol" ? String(k) : k))];
    if (issue.code === "unrecognized_keys") {
      const why = issue.message.startsWith("Unrecognized key") ? "" : `: ${issue.message}`;
      return issue.keys.map((key) => ({ keys: [...keys, key], message: `unknown field "${key}"${why}${note}` }));
    }
    return [{ keys, message: `${issue.message}${note}` }];
  });
}

/** `value` when `schema` accepts it: the fields that are right, to check further while others are wrong. */
function fitting<T>(schema: z.ZodType<T>, value: unknown): T | undefined {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

const field = (value: unknown, key: string): unknown => (isPlainObject(value) ? value[key] : undefined);
const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const names = (items: Iterable<string>): string => [...items].join(", ");

/** A step as far as its fields are right. */
interface StepDraft {
  index: number;
  keys: Key[];
  id?: string;
  tool?: string;
  params?: Record<string, unknown>;
  /** `depends_on` when it is a list: its step ids with their places. */
  dependsOn?: { id: string; keys: Key[] }[];
}

function draftStep(raw: unknown, index: number): StepDraft {
  const keys: Key[] = ["steps", index];
  const dependsOn = field(raw, "depends_on");
  return {
    index,
    keys,
    id: fitting(Step.shape.id, field(raw, "id")),
    tool: fitting(Step.shape.tool, field(raw, "tool")),
    params: field(raw, "params") === undefined ? {} : fitting(Step.shape.params, field(raw, "params")),
    ...(Array.isArray(dependsOn)
      ? { dependsOn: dependsOn.flatMap((id, j) => (typeof id === "string" ? [{ id, keys: [...keys, "depends_on", j] }] : [])) }
      : {}),
  };
}

/** A dependency of one step on another (by index); `keys` is the `depends_on` entry, none for the implicit one. */
interface Edge {
  to: number;
  keys?: Key[];
}

/** The steps as a graph: ids, dependencies, and what is wrong with them. */
class StepGraph {
  readonly byId = new Map<string, number>();
  readonly edges: Edge[][];
  /** Each step's index → the indexes of the steps it runs after. */
  private readonly after: ReadonlyMap<number, readonly number[]>;

  constructor(
    readonly steps: readonly StepDraft[],
    private readonly found: Found[],
  ) {
    for (const step of steps) {
      if (step.id === undefined) continue;
      const first = this.byId.get(step.id);
      if (first === undefined) this.byId.set(step.id, step.index);
      else found.push({ keys: [...step.keys, "id"], message: `duplicate step id "${step.id}": steps[${first}] already has it` });
    }
    this.edges = steps.map((step) => this.edgesOf(step));
    this.after = new Map(this.edges.map((edges, index) => [index, edges.map((e) => e.to)]));
    this.reportCycles();
  }

  /** A step's id, or its place when it has none. */
  private nameOf(index: number): string {
    return this.steps[index]?.id ?? `steps[${index}]`;
  }

  private label(index: number): string {
    const id = this.steps[index]?.id;
    return id === undefined ? `steps[${index}]` : `"${id}"`;
  }

  private edgesOf(step: StepDraft): Edge[] {
    if (!step.dependsOn) return step.index > 0 ? [{ to: step.index - 1 }] : [];
    const edges: Edge[] = [];
    for (const dep of step.dependsOn) {
      const to = this.byId.get(dep.id);
      if (to === undefined) this.found.push({ keys: dep.keys, message: `depends_on names unknown step "${dep.id}"; the steps are ${names(this.byId.keys())}` });
      else if (to === step.index) this.found.push({ keys: dep.keys, message: `step "${dep.id}" depends on itself` });
      else if (!edges.some((e) => e.to === to)) edges.push({ to, keys: dep.keys });
    }
    return edges;
  }

  /** One report per group of steps that wait for each other: the shortest walk from its first step back to it. */
  private reportCycles(): void {
    for (const cycle of findCycles(this.steps.map((step) => step.index), this.after)) {
      const walk = cycle.slice(1).map((to, i) => ({ from: cycle[i]!, ...this.edges[cycle[i]!]!.find((e) => e.to === to)! }));
      // An implicit edge goes back one step in the list, so a cycle always has a depends_on entry to report at.
      const named = walk.find((e) => e.keys)!;
      const implicit = walk.filter((e) => !e.keys).map((e) => ` (${this.label(e.from)} waits for ${this.label(e.to)} because it comes right after it and names no depends_on)`);
      const ids = cycle.map((index) => this.nameOf(index));
      this.found.push({ keys: named.keys!, message: `the steps form a cycle, each waiting for the next: ${ids.join(" → ")}${implicit.join("")}` });
    }
  }

  /** The steps `index` runs after, directly or through others. */
  ancestors(index: number): Set<number> {
    return reachableFrom(index, this.after);
  }

  order(): StepOrder {
    return Object.fromEntries(this.steps.map((step) => [step.id!, this.edges[step.index]!.map((e) => this.steps[e.to]!.id!)]));
  }
}

/** The declared input names (duplicates reported). */
function declaredInputs(raw: unknown, found: Found[]): Set<string> {
  const declared = new Map<string, number>();
  listOf(field(raw, "inputs")).forEach((input, i) => {
    const name = fitting(StepInput.shape.name, field(input, "name"));
    if (name === undefined) return;
    const first = declared.get(name);
    if (first === undefined) declared.set(name, i);
    else found.push({ keys: ["inputs", i, "name"], message: `duplicate input "${name}": inputs[${first}] already has it` });
  });
  return new Set(declared.keys());
}

/** The checks of the templates in one value (a step's params, an output): syntax, unknown inputs and steps, and, for a step, the order. */
function checkTemplates(sites: readonly TemplateSite[], base: readonly Key[], inputs: ReadonlySet<string>, graph: StepGraph, step: StepDraft | undefined, found: Found[]): void {
  const upstream = step ? graph.ancestors(step.index) : undefined;
  for (const site of sites) {
    const problem = ((): string | undefined => {
      if (!site.ok) return site.problem;
      const ref = site.ref;
      if (ref.kind === "input") {
        if (inputs.has(ref.name)) return undefined;
        return `no input "${ref.name}" is declared (${inputs.size === 0 ? "the workflow declares no inputs" : `the inputs are ${names(inputs)}`})`;
      }
      const target = graph.byId.get(ref.stepId);
      if (target === undefined) return `no step "${ref.stepId}" in this workflow (the steps are ${names(graph.byId.keys())})`;
      if (!step || step.id === undefined) return undefined;
      if (target === step.index) return `step "${step.id}" cannot read its own output`;
      if (!upstream!.has(target)) return `step "${ref.stepId}" does not run before "${step.id}" (it is not among the steps "${step.id}" depends on, directly or through others), so its output is not there yet: name it in the depends_on of "${step.id}"`;
      return undefined;
    })();
    if (problem !== undefined) found.push({ keys: [...base, ...site.keys], message: `${site.text}: ${problem}` });
  }
}

/** True when `keys` is `prefix` or lies below it. */
const within = (keys: readonly PropertyKey[], prefix: readonly Key[]): boolean => prefix.every((k, i) => i < keys.length && String(keys[i]) === String(k));

/** The params against the tool's schema, except at the places a template holds (their value is only known when the step runs). */
function checkParams(step: StepDraft, sites: readonly TemplateSite[], tools: ToolCatalog, found: Found[]): void {
  if (step.tool === undefined || step.params === undefined || !tools.has(step.tool)) return;
  const parsed = tools.paramsSchema(step.tool).safeParse(step.params);
  if (parsed.success) return;
  const checked = parsed.error.issues.filter((issue) => !sites.some((site) => within(issue.path, site.keys)));
  found.push(...issuesFound(checked, [...step.keys, "params"], ` (params of tool "${step.tool}")`));
}

/** Paths in document order: keys one by one, list indexes as numbers. */
function byPlace(a: Found, b: Found): number {
  for (let i = 0; i < Math.min(a.keys.length, b.keys.length); i++) {
    const [x, y] = [a.keys[i]!, b.keys[i]!];
    if (x === y) continue;
    if (typeof x === "number" && typeof y === "number") return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return a.keys.length - b.keys.length;
}

/** A step workflow's definition checked: the definition and each step's dependencies, or every problem. Stores nothing. */
export function validateDefinition(raw: unknown, tools: ToolCatalog): ValidationResult {
  const found: Found[] = [];
  const parsed = StepWorkflowDefinition.safeParse(raw);
  if (!parsed.success) found.push(...issuesFound(parsed.error.issues, []));

  const inputs = declaredInputs(raw, found);
  const steps = listOf(field(raw, "steps")).map(draftStep);
  const graph = new StepGraph(steps, found);
  const known = [...tools.names()].sort();
  for (const step of steps) {
    if (step.tool !== undefined && !tools.has(step.tool)) {
      found.push({ keys: [...step.keys, "tool"], message: `unknown tool "${step.tool}"; ${known.length === 0 ? "no tools are known" : `the known tools are ${names(known)}`}` });
    }
    const sites = templateReferences(step.params ?? {});
    checkParams(step, sites, tools, found);
    checkTemplates(sites, [...step.keys, "params"], inputs, graph, step, found);
  }
  const outputs = field(raw, "outputs");
  if (isPlainObject(outputs)) {
    for (const [key, text] of Object.entries(outputs)) {
      if (typeof text === "string") checkTemplates(templateReferences(text), ["outputs", key], inputs, graph, undefined, found);
    }
  }

  if (!parsed.success || found.length > 0) {
    return { ok: false, problems: found.sort(byPlace).map((f) => ({ path: pathOf(f.keys), message: f.message })) };
  }
  return { ok: true, definition: parsed.data, order: graph.order() };
}

const TYPE_TEXT: Record<InputType, string> = { string: "a string", number: "a number", boolean: "true or false", object: "an object", array: "a list" };

function hasType(type: InputType, value: unknown): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return typeof value === "boolean";
    case "object":
      return isPlainObject(value);
    case "array":
      return Array.isArray(value);
  }
}

/**
 * A run's inputs against the definition's: each required one given, each given one of its type (`null` is no
 * type's value: leave an optional input out instead), and no input the definition does not declare (a misspelt
 * optional input would otherwise be dropped without a word). Paths are `inputs.<name>`.
 */
export function checkInputs(definition: StepWorkflowDefinition, inputs: unknown): Problem[] {
  if (!isPlainObject(inputs)) return [{ path: "inputs", message: `expected an object of input values, got ${describeValue(inputs)}` }];
  const declared = definition.inputs ?? [];
  const problems: Problem[] = [];
  for (const input of declared) {
    const path = pathOf([input.name], "inputs");
    const value = Object.hasOwn(inputs, input.name) ? inputs[input.name] : undefined;
    if (value === undefined) {
      if (!input.optional) problems.push({ path, message: `missing (expected ${TYPE_TEXT[input.type]})` });
    } else if (!hasType(input.type, value)) problems.push({ path, message: `expected ${TYPE_TEXT[input.type]}, got ${describeValue(value)}` });
  }
  const names = new Set(declared.map((i) => i.name));
  for (const key of Object.keys(inputs)) {
    if (names.has(key)) continue;
    const known = declared.length === 0 ? "the workflow takes no inputs" : `the workflow's inputs are ${[...names].join(", ")}`;
    problems.push({ path: pathOf([key], "inputs"), message: `unknown input; ${known}` });
  }
  return problems;
}
