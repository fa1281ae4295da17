/**
 * The `$...` references of a YAML workflow's texts (prompts, bash, loop prompts, approval messages, cancel reasons,
 * `when`): finding them, and replacing them with what they stand for when a node runs. Pure: the caller gives the
 * run's values and a way to read other nodes' outputs.
 *
 * - `$id.output`: the whole output text of node `id` (`""` unless the node completed).
 * - `$id.output.field`: one level into the node's output read as JSON; strings as themselves, anything else as JSON.
 * - `$ARGUMENTS`, `$USER_MESSAGE` (both the run's message), `$WORKFLOW_ID` (the run id), `$LOOP_PREV_OUTPUT`,
 *   `$LOOP_USER_INPUT`, `$REJECTION_REASON` (empty when not set).
 * - Any other `$NAME` (`$HOME`, `$1`) is not a reference and is left as it is.
 *
 * Substitution is one pass: a substituted value is never searched for references again. A bash script's references
 * are passed to it in its environment instead (shellReferences.ts).
 */
import { isPlainObject } from "../../lib/json";

/** A node id: also what `$id.output` accepts. */
export const NODE_ID_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]*$/;

export const RUN_VARIABLES = ["ARGUMENTS", "USER_MESSAGE", "WORKFLOW_ID", "LOOP_PREV_OUTPUT", "LOOP_USER_INPUT", "REJECTION_REASON"] as const;
export type RunVariable = (typeof RUN_VARIABLES)[number];

/** The run variables a caller sets per node (the others come from the run itself). */
export type NodeVariable = "LOOP_PREV_OUTPUT" | "LOOP_USER_INPUT" | "REJECTION_REASON";

/** `$id.output` or `$id.output.field`, with its place in the text (`end` exclusive). */
export interface OutputReference {
  nodeId: string;
  field?: string;
  start: number;
  end: number;
}

export type Reference =
  | ({ kind: "output" } & OutputReference)
  | { kind: "variable"; name: RunVariable; start: number; end: number };

// A reference ends where no identifier character follows, so `$a.outputs` and `$ARGUMENTS_X` are not references.
const REFERENCE = new RegExp(
  String.raw`\$(?:([A-Za-z_][A-Za-z0-9_-]*)\.output(?:\.([A-Za-z_][A-Za-z0-9_]*))?|(${RUN_VARIABLES.join("|")}))(?![A-Za-z0-9_])`,
  "y",
);

/** The reference that starts at `index` (on its `$`), if one does. */
export function matchReferenceAt(text: string, index: number): Reference | undefined {
  REFERENCE.lastIndex = index;
  const m = REFERENCE.exec(text);
  if (!m) return undefined;
  const start = index;
  const end = index + m[0].length;
  if (m[1] !== undefined) return { kind: "output", nodeId: m[1], ...(m[2] === undefined ? {} : { field: m[2] }), start, end };
  return { kind: "variable", name: m[3] as RunVariable, start, end };
}

/** Every reference in `text`, node outputs and run variables, in order. */
export function scanReferences(text: string): Reference[] {
  const found: Reference[] = [];
  for (let i = text.indexOf("$"); i !== -1; ) {
    const ref = matchReferenceAt(text, i);
    if (ref) found.push(ref);
    i = text.indexOf("$", ref ? ref.end : i + 1);
  }
  return found;
}

/** The node-output references of a list, without their `kind`. */
export const outputReferences = (refs: readonly Reference[]): OutputReference[] =>
  refs.flatMap((ref) => (ref.kind === "output" ? [(({ kind: _kind, ...rest }) => rest)(ref)] : []));

/** The node-output references (`$id.output`, `$id.output.field`) in `text`, with their offsets. */
export const referencesIn = (text: string): OutputReference[] => outputReferences(scanReferences(text));

/** How a reference is written: `$plan.output.steps`, `$ARGUMENTS`. */
export function referenceText(ref: Reference | OutputReference): string {
  if ("name" in ref) return `$${ref.name}`;
  return `$${ref.nodeId}.output${ref.field === undefined ? "" : `.${ref.field}`}`;
}

/** What a node left behind, as far as references are concerned. */
export interface NodeOutput {
  status: "completed" | "failed" | "skipped" | (string & {});
  output: string;
}
export type OutputLookup = (nodeId: string) => NodeOutput | undefined;

/** A reference that cannot be given its value; the message names it first: `$plan.output.steps: <problem>`. */
export abstract class ReferenceProblem extends Error {
  constructor(
    readonly reference: string,
    readonly problem: string,
  ) {
    super(`${reference}: ${problem}`);
  }
}

/** A reference whose value cannot be read: `$plan.output.steps: the output of "plan" is not JSON`. */
export class UnresolvableReference extends ReferenceProblem {
  override readonly name = "UnresolvableReference";
}

export type ReadResult = { ok: true; value: string } | { ok: false; problem: string };

/** A fenced block (```json ... ```) around the whole output is taken off before it is read as JSON. */
const FENCED = /^```[A-Za-z0-9_-]*[ \t]*\r?\n([\s\S]*?)\r?\n?```$/;

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  const trimmed = text.trim();
  const body = FENCED.exec(trimmed)?.[1] ?? trimmed;
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch {
    return { ok: false };
  }
}

/** A JSON value as text: a string as itself, anything else (numbers, booleans, null, objects, arrays) as JSON. */
export const jsonValueText = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value));

/**
 * The value of `$id.output` / `$id.output.field`. A node that has not completed (skipped, failed, not run) gives `""`
 * for both forms; a field of a completed node's output that is not JSON, not an object, or lacks the field is a problem.
 */
export function readOutputReference(ref: Pick<OutputReference, "nodeId" | "field">, outputOf: OutputLookup): ReadResult {
  const result = outputOf(ref.nodeId);
  if (!result || result.status !== "completed") return { ok: true, value: "" };
  if (ref.field === undefined) return { ok: true, value: result.output };
  const parsed = parseJson(result.output);
  if (!parsed.ok) return { ok: false, problem: `the output of "${ref.nodeId}" is not JSON` };
  if (!isPlainObject(parsed.value)) return { ok: false, problem: `the output of "${ref.nodeId}" is JSON but not an object, so it has no field "${ref.field}"` };
  if (!Object.hasOwn(parsed.value, ref.field)) return { ok: false, problem: `the output of "${ref.nodeId}" has no field "${ref.field}"` };
  return { ok: true, value: jsonValueText(parsed.value[ref.field]) };
}

/** What the references of one node's texts stand for. */
export interface SubstitutionContext {
  /** The run's message: `$ARGUMENTS` and `$USER_MESSAGE`. */
  runMessage: string;
  /** `$WORKFLOW_ID`. */
  runId: string;
  /** `$LOOP_PREV_OUTPUT`, `$LOOP_USER_INPUT`, `$REJECTION_REASON`: `""` when not given. */
  variables?: Partial<Record<NodeVariable, string>>;
  outputOf: OutputLookup;
}

export interface SubstituteOptions {
  /** An unreadable `$id.output.field`: throw `UnresolvableReference` (the default) or write `""`. */
  unresolvable?: "throw" | "empty";
  /** Applied to each value before it is written into the text (for example to escape it for the text's format). */
  encode?: (value: string, reference: Reference) => string;
}

/** The value a reference stands for. */
export function resolveReference(ref: Reference, ctx: SubstitutionContext, options: Pick<SubstituteOptions, "unresolvable"> = {}): string {
  if (ref.kind === "variable") {
    switch (ref.name) {
      case "ARGUMENTS":
      case "USER_MESSAGE":
        return ctx.runMessage;
      case "WORKFLOW_ID":
        return ctx.runId;
      default:
        return ctx.variables?.[ref.name] ?? "";
    }
  }
  const read = readOutputReference(ref, ctx.outputOf);
  if (read.ok) return read.value;
  if (options.unresolvable === "empty") return "";
  throw new UnresolvableReference(referenceText(ref), read.problem);
}

/** `text` with every reference replaced by its value (see the module comment). Throws `UnresolvableReference`. */
export function substitute(text: string, ctx: SubstitutionContext, options: SubstituteOptions = {}): string {
  let out = "";
  let last = 0;
  for (const ref of scanReferences(text)) {
    const value = resolveReference(ref, ctx, options);
    out += text.slice(last, ref.start) + (options.encode ? options.encode(value, ref) : value);
    last = ref.end;
  }
  return out + text.slice(last);
}
