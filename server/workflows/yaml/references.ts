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
 * Substitution is one pass: a substituted value is never searched for references again.
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

// ---------------------------------------------------------------------------------------------------------------
// bash: values travel in environment variables, never in the script text.
// ---------------------------------------------------------------------------------------------------------------

/** The environment variables `substituteForShell` passes values in: `STITCH_REF_0`, `STITCH_REF_1`, ... */
export const SHELL_ENV_PREFIX = "STITCH_REF_";

/**
 * Where a reference stands in a bash script, which decides how the variable is written in its place:
 * - `bare` (`echo $a.output`): `"${STITCH_REF_0}"`, quoted so it is neither split into words nor globbed;
 * - `double` (`"… $a.output …"`): `${STITCH_REF_0}`, already quoted;
 * - `single` (`'… $a.output …'`, where bash expands nothing): the quotes are closed, the variable written
 *   double-quoted and the quotes reopened: `'…'"${STITCH_REF_0}"'…'`, one word to bash;
 * - `ansi` (`$'… $a.output …'`): the same, reopened as `$'`;
 * - `heredoc` (the body of `<<EOF`): `${STITCH_REF_0}` (quotes would be printed). In the body of a quoted
 *   heredoc (`<<'EOF'`), where bash expands nothing, the delimiter is unquoted and the body's own `\`, `$` and
 *   backquotes escaped, so the body reads the same and the variable expands;
 * - `arithmetic` (`$(( … ))`, `(( … ))`): `${STITCH_REF_0}`, and the value must be an integer, because bash
 *   evaluates arithmetic text as code (`a[$(cmd)]` would run `cmd`).
 */
export type ShellQuoting = "bare" | "double" | "single" | "ansi" | "heredoc" | "arithmetic";

export interface ShellReference {
  reference: Reference;
  quoting: ShellQuoting;
}

const SHELL_FORMS: Record<ShellQuoting, (name: string) => string> = {
  bare: (name) => `"\${${name}}"`,
  double: (name) => `\${${name}}`,
  single: (name) => `'"\${${name}}"'`,
  ansi: (name) => `'"\${${name}}"$'`,
  heredoc: (name) => `\${${name}}`,
  arithmetic: (name) => `\${${name}}`,
};

/** A reference that cannot be passed to bash safely: `$n.output: it stands in bash arithmetic, ...`. */
export class UnsafeShellReference extends ReferenceProblem {
  override readonly name = "UnsafeShellReference";
}

/** A quoted heredoc whose body holds references: its delimiter is written unquoted, these characters escaped. */
interface HeredocRewrite {
  delimiterStart: number;
  delimiterEnd: number;
  delimiter: string;
  escapes: number[];
  firstReference: Reference;
}

interface PendingHeredoc {
  delimiter: string;
  stripTabs: boolean;
  quoted: boolean;
  wordStart: number;
  wordEnd: number;
}

type FrameKind = "bare" | "double" | "single" | "ansi" | "backtick" | "command" | "subshell" | "arithmetic";

const WORD_END = /[\s;&|<>()]/;

/**
 * Reads a bash script just far enough to know the quoting around each reference: quotes, `$'…'`, backslashes,
 * comments, `$( )`, backquotes, subshells, arithmetic and heredocs. A `$` escaped with a backslash (outside single
 * quotes) is bash's literal dollar and not a reference. Where the reading is wrong (an unusual construct), only the
 * form of the `${STITCH_REF_n}` written changes: a value is still never part of the script's text.
 */
class ShellReader {
  readonly sites: ShellReference[] = [];
  readonly rewrites: HeredocRewrite[] = [];
  private readonly stack: { kind: FrameKind; depth: number }[] = [{ kind: "bare", depth: 0 }];
  private pending: PendingHeredoc[] = [];
  private i = 0;

  constructor(private readonly script: string) {
    while (this.i < script.length) this.step();
  }

  private push(kind: FrameKind, skip: number): void {
    this.stack.push({ kind, depth: 0 });
    this.i += skip;
  }

  private pop(skip: number): void {
    if (this.stack.length > 1) this.stack.pop();
    this.i += skip;
  }

  private step(): void {
    const frame = this.stack[this.stack.length - 1]!;
    const c = this.script[this.i]!;
    const next = this.script[this.i + 1] ?? "";
    switch (frame.kind) {
      case "single":
        if (c === "'") this.pop(1);
        else this.dollarOrNext(c, "single", false);
        return;
      case "ansi":
        if (c === "\\") this.i += 2;
        else if (c === "'") this.pop(1);
        else this.dollarOrNext(c, "ansi", false);
        return;
      case "double":
        if (c === "\\") this.i += next !== "" && '$`"\\\n'.includes(next) ? 2 : 1;
        else if (c === '"') this.pop(1);
        else if (c === "`") this.push("backtick", 1);
        else this.dollarOrNext(c, "double", true);
        return;
      case "arithmetic":
        if (c === "(") {
          frame.depth++;
          this.i++;
        } else if (c === ")") {
          if (frame.depth > 0) {
            frame.depth--;
            this.i++;
          } else this.pop(next === ")" ? 2 : 1);
        } else this.dollarOrNext(c, "arithmetic", true);
        return;
      default:
        this.bare(frame.kind, c, next);
    }
  }

  /** On a `$`: a command substitution, arithmetic or reference; otherwise one character on. */
  private dollarOrNext(c: string, quoting: ShellQuoting, nests: boolean): void {
    if (c !== "$") {
      this.i++;
      return;
    }
    if (nests && this.script.startsWith("$((", this.i)) return this.push("arithmetic", 3);
    if (nests && this.script.startsWith("$(", this.i)) return this.push("command", 2);
    const ref = matchReferenceAt(this.script, this.i);
    if (!ref) {
      this.i++;
      return;
    }
    this.sites.push({ reference: ref, quoting });
    this.i = ref.end;
  }

  private bare(kind: FrameKind, c: string, next: string): void {
    const s = this.script;
    if (c === "\\") this.i += 2;
    else if (c === "'") this.push("single", 1);
    else if (c === '"') this.push("double", 1);
    else if (c === "`") kind === "backtick" ? this.pop(1) : this.push("backtick", 1);
    else if (c === "$" && next === "'") this.push("ansi", 2);
    else if (c === "(") this.push(next === "(" ? "arithmetic" : "subshell", next === "(" ? 2 : 1);
    else if (c === ")") kind === "command" || kind === "subshell" ? this.pop(1) : this.i++;
    else if (c === "#" && (this.i === 0 || /[\s;&|()]/.test(s[this.i - 1]!))) {
      const end = s.indexOf("\n", this.i);
      this.i = end === -1 ? s.length : end;
    } else if (c === "<" && s.startsWith("<<<", this.i)) this.i += 3;
    else if (c === "<" && next === "<") this.heredocOperator();
    else if (c === "\n") {
      this.i++;
      this.heredocBodies();
    } else this.dollarOrNext(c, "bare", true);
  }

  /** `<<WORD` / `<<-WORD`: the delimiter, its body read after the end of the line. */
  private heredocOperator(): void {
    const s = this.script;
    let j = this.i + 2;
    const stripTabs = s[j] === "-";
    if (stripTabs) j++;
    while (s[j] === " " || s[j] === "\t") j++;
    const wordStart = j;
    let delimiter = "";
    let quoted = false;
    while (j < s.length && !WORD_END.test(s[j]!)) {
      const ch = s[j]!;
      if (ch === "'" || ch === '"') {
        const close = s.indexOf(ch, j + 1);
        if (close === -1) break;
        delimiter += s.slice(j + 1, close);
        quoted = true;
        j = close + 1;
      } else if (ch === "\\") {
        delimiter += s[j + 1] ?? "";
        quoted = true;
        j += 2;
      } else {
        delimiter += ch;
        j++;
      }
    }
    if (j > wordStart) this.pending.push({ delimiter, stripTabs, quoted, wordStart, wordEnd: j });
    this.i = Math.max(j, this.i + 2);
  }

  /** After a newline: the bodies of the heredocs opened on the line just ended, in order. */
  private heredocBodies(): void {
    const s = this.script;
    for (const doc of this.pending) {
      const bodyStart = this.i;
      let bodyEnd = s.length;
      let after = s.length;
      for (let lineStart = this.i; lineStart < s.length; ) {
        const newline = s.indexOf("\n", lineStart);
        const lineEnd = newline === -1 ? s.length : newline;
        const line = s.slice(lineStart, lineEnd);
        if ((doc.stripTabs ? line.replace(/^\t+/, "") : line) === doc.delimiter) {
          bodyEnd = lineStart;
          after = Math.min(lineEnd + 1, s.length);
          break;
        }
        lineStart = lineEnd + 1;
      }
      if (doc.quoted) this.quotedBody(doc, bodyStart, bodyEnd);
      else this.unquotedBody(bodyStart, bodyEnd);
      this.i = after;
    }
    this.pending = [];
  }

  private unquotedBody(start: number, end: number): void {
    const s = this.script;
    for (let j = start; j < end; ) {
      if (s[j] === "\\" && j + 1 < end && '$`\\\n'.includes(s[j + 1]!)) j += 2;
      else if (s[j] === "$") {
        const ref = matchReferenceAt(s, j);
        if (ref && ref.end <= end) {
          this.sites.push({ reference: ref, quoting: "heredoc" });
          j = ref.end;
        } else j++;
      } else j++;
    }
  }

  private quotedBody(doc: PendingHeredoc, start: number, end: number): void {
    const s = this.script;
    const refs = scanReferences(s.slice(start, end)).map((r) => ({ ...r, start: r.start + start, end: r.end + start }));
    if (refs.length === 0) return;
    const escapes: number[] = [];
    let r = 0;
    for (let j = start; j < end; j++) {
      const ref = refs[r];
      if (ref && j === ref.start) {
        j = ref.end - 1;
        r++;
      } else if ("\\$`".includes(s[j]!)) escapes.push(j);
    }
    for (const ref of refs) this.sites.push({ reference: ref, quoting: "heredoc" });
    this.rewrites.push({ delimiterStart: doc.wordStart, delimiterEnd: doc.wordEnd, delimiter: doc.delimiter, escapes, firstReference: refs[0]! });
  }
}

/** The references of a bash script with the quoting around each (escaped `\$` are not references). */
export const shellReferences = (script: string): ShellReference[] => new ShellReader(script).sites;

/** The node-output references of a bash script (as `referencesIn`, but a `\$` bash takes literally is not one). */
export const shellReferencesIn = (script: string): OutputReference[] => outputReferences(shellReferences(script).map((site) => site.reference));

export interface ShellSubstitution {
  /** The script with `${STITCH_REF_n}` where its references stood. */
  script: string;
  /** The values, to be added to the environment bash runs in. */
  env: Record<string, string>;
}

const INTEGER = /^\s*[+-]?\d+\s*$/;
const PLAIN_DELIMITER = /^[A-Za-z0-9_.,:@%+=/-]+$/;

/**
 * A bash script's references replaced by environment variables holding their values (see `ShellQuoting`), so that no
 * value can add shell syntax to the script. The same reference twice uses one variable. Bash still evaluates a
 * value as code where the script asks it to (`eval`, `bash -c "$x"`, `[[ $x -eq 1 ]]`); `$(( ))` and `(( ))` are
 * guarded (an integer only). Throws `UnresolvableReference` and `UnsafeShellReference`.
 */
export function substituteForShell(script: string, ctx: SubstitutionContext, options: Pick<SubstituteOptions, "unresolvable"> = {}): ShellSubstitution {
  const reader = new ShellReader(script);
  const env: Record<string, string> = {};
  const names = new Map<string, string>();
  const edits: { start: number; end: number; text: string }[] = [];
  for (const { reference, quoting } of reader.sites) {
    const key = referenceText(reference);
    let name = names.get(key);
    if (name === undefined) {
      name = `${SHELL_ENV_PREFIX}${names.size}`;
      names.set(key, name);
      env[name] = resolveReference(reference, ctx, options);
    }
    if (quoting === "arithmetic" && !INTEGER.test(env[name]!)) {
      throw new UnsafeShellReference(key, "it stands in bash arithmetic, which evaluates its text as code, and its value is not an integer");
    }
    edits.push({ start: reference.start, end: reference.end, text: SHELL_FORMS[quoting](name) });
  }
  for (const rewrite of reader.rewrites) {
    if (!PLAIN_DELIMITER.test(rewrite.delimiter)) {
      throw new UnsafeShellReference(
        referenceText(rewrite.firstReference),
        `it stands in a quoted heredoc whose delimiter "${rewrite.delimiter}" cannot be written unquoted; use a delimiter of letters, digits and _`,
      );
    }
    edits.push({ start: rewrite.delimiterStart, end: rewrite.delimiterEnd, text: rewrite.delimiter });
    for (const at of rewrite.escapes) edits.push({ start: at, end: at, text: "\\" });
  }
  edits.sort((a, b) => a.start - b.start || a.end - b.end);
  let out = "";
  let last = 0;
  for (const edit of edits) {
    out += script.slice(last, edit.start) + edit.text;
    last = edit.end;
  }
  return { script: out + script.slice(last), env };
}
