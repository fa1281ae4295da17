/**
 * The `$...` references of a bash script (a `bash` node, a loop's `until_bash`): reading the quoting around each, and
 * passing their values to bash in environment variables, never in the script's text, so that no value can add shell
 * syntax to the script. What a reference stands for is `references.ts`'s.
 */
import {
  type OutputReference, type Reference, ReferenceProblem, type SubstituteOptions, type SubstitutionContext, matchReferenceAt, outputReferences,
  referenceText, resolveReference, scanReferences,
} from "./references";

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
