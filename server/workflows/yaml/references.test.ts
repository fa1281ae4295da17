/**
 * `$...` references (references.ts): finding them, substituting them into text, and passing them to bash through the
 * environment so that no value can become shell syntax (proved by running bash on the produced script).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  type NodeOutput, ReferenceProblem, type SubstitutionContext, UnresolvableReference, UnsafeShellReference, readOutputReference, referenceText,
  referencesIn, scanReferences, shellReferences, shellReferencesIn, substitute, substituteForShell,
} from "./references";

/** A context whose nodes have these outputs (completed unless given as a NodeOutput). */
function context(outputs: Record<string, string | NodeOutput>, extra: Partial<SubstitutionContext> = {}): SubstitutionContext {
  return {
    runMessage: "the message",
    runId: "run-42",
    outputOf: (id) => {
      const out = outputs[id];
      return typeof out === "string" ? { status: "completed", output: out } : out;
    },
    ...extra,
  };
}

describe("referencesIn: the node-output references of a text", () => {
  it("finds $id.output and $id.output.field with their offsets", () => {
    const text = "Do $plan.output, then $plan.output.steps and $my-node_2.output.";
    expect(referencesIn(text)).toEqual([
      { nodeId: "plan", start: 3, end: 15 },
      { nodeId: "plan", field: "steps", start: 22, end: 40 },
      { nodeId: "my-node_2", start: 45, end: 62 },
    ]);
    expect(text.slice(45, 62)).toBe("$my-node_2.output");
  });

  it("leaves out run variables, unknown variables and look-alikes", () => {
    expect(referencesIn("$ARGUMENTS $USER_MESSAGE $HOME $1 $a.outputs $a.out $9a.output $a.output_x ${a}.output")).toEqual([]);
  });

  it("takes a field one level only, and stops at characters a field cannot hold", () => {
    expect(referencesIn("$a.output.x.y")).toEqual([{ nodeId: "a", field: "x", start: 0, end: 11 }]);
    expect(referencesIn("$a.output.x-y")).toEqual([{ nodeId: "a", field: "x", start: 0, end: 11 }]);
    expect(referencesIn("see $a.output.")).toEqual([{ nodeId: "a", start: 4, end: 13 }]);
    expect(referencesIn("$a.output.9")).toEqual([{ nodeId: "a", start: 0, end: 9 }]);
  });

  it("finds references glued to other text, and a node named like a variable when .output follows", () => {
    expect(referencesIn("x$a.output$b.output.f")).toEqual([
      { nodeId: "a", start: 1, end: 10 },
      { nodeId: "b", field: "f", start: 10, end: 21 },
    ]);
    expect(referencesIn("$ARGUMENTS.output")).toEqual([{ nodeId: "ARGUMENTS", start: 0, end: 17 }]);
  });

  it("scanReferences also lists run variables, whole words only", () => {
    expect(scanReferences("$ARGUMENTS $WORKFLOW_ID $ARGUMENTS_X $LOOP_PREV_OUTPUT").map((r) => (r.kind === "variable" ? r.name : r.nodeId))).toEqual([
      "ARGUMENTS", "WORKFLOW_ID", "LOOP_PREV_OUTPUT",
    ]);
  });

  it("referenceText writes a reference back", () => {
    expect(scanReferences("$a.output $a.output.f $REJECTION_REASON").map(referenceText)).toEqual(["$a.output", "$a.output.f", "$REJECTION_REASON"]);
  });
});

describe("substitute", () => {
  it("writes the whole output for $id.output", () => {
    expect(substitute("Review:\n$plan.output\nEnd", context({ plan: "step 1\nstep 2\n" }))).toBe("Review:\nstep 1\nstep 2\n\nEnd");
  });

  it('writes "" for a skipped or failed node, or one that has not run, in both forms', () => {
    const ctx = context({ s: { status: "skipped", output: "ignored" }, f: { status: "failed", output: "boom" }, r: { status: "running", output: "half" } });
    expect(substitute("[$s.output][$f.output][$r.output][$none.output][$s.output.x][$f.output.x]", ctx)).toBe("[][][][][][]");
  });

  it("reads one level into a JSON output: strings as themselves, other values as JSON", () => {
    const plan = JSON.stringify({ title: "Fix it", steps: ["a", "b"], meta: { n: 1 }, count: 3, ratio: 0.5, done: false, none: null, quote: 'say "hi"' });
    const ctx = context({ plan });
    expect(substitute("$plan.output.title|$plan.output.steps|$plan.output.meta|$plan.output.count", ctx)).toBe('Fix it|["a","b"]|{"n":1}|3');
    expect(substitute("$plan.output.ratio|$plan.output.done|$plan.output.none|$plan.output.quote", ctx)).toBe('0.5|false|null|say "hi"');
  });

  it("reads JSON surrounded by whitespace or fenced as ```json", () => {
    expect(substitute("$a.output.k", context({ a: '\n  {"k": "v"}\n' }))).toBe("v");
    expect(substitute("$a.output.k", context({ a: '```json\n{"k": 7}\n```\n' }))).toBe("7");
  });

  it("throws UnresolvableReference naming the reference when the output is not JSON or lacks the field", () => {
    const ctx = context({ plan: "not json", list: "[1,2]", obj: '{"other": 1}' });
    expect(() => substitute("x $plan.output.steps", ctx)).toThrow(new UnresolvableReference("$plan.output.steps", 'the output of "plan" is not JSON'));
    expect(() => substitute("$obj.output.steps", ctx)).toThrow('$obj.output.steps: the output of "obj" has no field "steps"');
    expect(() => substitute("$list.output.steps", ctx)).toThrow('$list.output.steps: the output of "list" is JSON but not an object');
    expect(() => substitute("$obj.output.constructor", ctx)).toThrow('has no field "constructor"');
    try {
      substitute("$plan.output.steps", ctx);
    } catch (e) {
      expect(e).toBeInstanceOf(UnresolvableReference);
      expect(e).toBeInstanceOf(ReferenceProblem);
      expect(e).toMatchObject({ name: "UnresolvableReference", reference: "$plan.output.steps", message: '$plan.output.steps: the output of "plan" is not JSON' });
    }
  });

  it("readOutputReference reports the same problems without throwing", () => {
    expect(readOutputReference({ nodeId: "a", field: "x" }, () => ({ status: "completed", output: "{}" }))).toEqual({ ok: false, problem: 'the output of "a" has no field "x"' });
    expect(readOutputReference({ nodeId: "a" }, () => ({ status: "completed", output: "{}" }))).toEqual({ ok: true, value: "{}" });
  });

  it('with unresolvable: "empty", writes "" for an unreadable field instead of throwing', () => {
    expect(substitute("<$a.output.x>", context({ a: "text" }), { unresolvable: "empty" })).toBe("<>");
  });

  it("writes the run variables, and the node variables or \"\" when not given", () => {
    const text = "$ARGUMENTS|$USER_MESSAGE|$WORKFLOW_ID|$LOOP_PREV_OUTPUT|$LOOP_USER_INPUT|$REJECTION_REASON";
    expect(substitute(text, context({}))).toBe("the message|the message|run-42|||");
    const variables = { LOOP_PREV_OUTPUT: "prev", LOOP_USER_INPUT: "more tests", REJECTION_REASON: "too long" };
    expect(substitute(text, context({}, { variables }))).toBe("the message|the message|run-42|prev|more tests|too long");
  });

  it("leaves unknown variables and a lone $ as they are", () => {
    expect(substitute("$HOME $PATH costs $5 and $ signs; ${ARGS}", context({}))).toBe("$HOME $PATH costs $5 and $ signs; ${ARGS}");
  });

  it("substitutes in one pass: a value holding a reference is not expanded again", () => {
    expect(substitute("$a.output / $b.output", context({ a: "$b.output $ARGUMENTS", b: "B" }))).toBe("$b.output $ARGUMENTS / B");
  });

  it("passes each value through encode when given", () => {
    const encode = (value: string) => JSON.stringify(value);
    expect(substitute("say $a.output to $ARGUMENTS", context({ a: 'hi "x"' }), { encode })).toBe('say "hi \\"x\\"" to "the message"');
  });
});

describe("substituteForShell: the script and the environment it runs with", () => {
  it("replaces a bare reference by a double-quoted variable and puts the value in env", () => {
    expect(substituteForShell("cat $plan.output > out.txt", context({ plan: "$(rm -rf /)" }))).toEqual({
      script: 'cat "${STITCH_REF_0}" > out.txt',
      env: { STITCH_REF_0: "$(rm -rf /)" },
    });
  });

  it("writes the variable as it fits the quoting around the reference", () => {
    const cases: [string, string][] = [
      ['echo "plan: $a.output!"', 'echo "plan: ${STITCH_REF_0}!"'],
      ["echo 'plan: $a.output!'", `echo 'plan: '"\${STITCH_REF_0}"'!'`],
      ["echo $'tab\\t$a.output\\'s'", `echo $'tab\\t'"\${STITCH_REF_0}"$'\\'s'`],
      ["x=$a.output", 'x="${STITCH_REF_0}"'],
      ['echo "$(grep -c x $a.output)"', 'echo "$(grep -c x "${STITCH_REF_0}")"'],
      ["echo `cat $a.output`", 'echo `cat "${STITCH_REF_0}"`'],
      ["cat <<EOF\n- $a.output\nEOF\n", "cat <<EOF\n- ${STITCH_REF_0}\nEOF\n"],
      ["cat <<-EOF >f; echo $a.output\n\t$a.output\n\tEOF\n", 'cat <<-EOF >f; echo "${STITCH_REF_0}"\n\t${STITCH_REF_0}\n\tEOF\n'],
      ['case $a.output in x) echo "$a.output";; esac', 'case "${STITCH_REF_0}" in x) echo "${STITCH_REF_0}";; esac'],
      ["echo $((1 << 2)) $a.output", 'echo $((1 << 2)) "${STITCH_REF_0}"'],
    ];
    for (const [script, expected] of cases) expect(substituteForShell(script, context({ a: "v" })).script, script).toBe(expected);
  });

  it("unquotes a quoted heredoc holding a reference and escapes the body's own \\, $ and backquotes", () => {
    const out = substituteForShell("cat <<'EOF'\n$HOME \\n `x` $a.output\nEOF\necho $a.output", context({ a: "v" }));
    expect(out.script).toBe('cat <<EOF\n\\$HOME \\\\n \\`x\\` ${STITCH_REF_0}\nEOF\necho "${STITCH_REF_0}"');
    expect(substituteForShell("cat <<'EOF'\n$HOME\nEOF", context({})).script).toBe("cat <<'EOF'\n$HOME\nEOF");
  });

  it("uses one variable per distinct reference", () => {
    const out = substituteForShell('echo $a.output "$a.output" $ARGUMENTS $a.output.k $WORKFLOW_ID', context({ a: '{"k":1}' }));
    expect(out.script).toBe('echo "${STITCH_REF_0}" "${STITCH_REF_0}" "${STITCH_REF_1}" "${STITCH_REF_2}" "${STITCH_REF_3}"');
    expect(out.env).toEqual({ STITCH_REF_0: '{"k":1}', STITCH_REF_1: "the message", STITCH_REF_2: "1", STITCH_REF_3: "run-42" });
  });

  it("leaves shell variables, escaped dollars and comments alone", () => {
    const script = "echo $HOME ${PATH} \\$a.output \"\\$ARGUMENTS\" $$ $#\n# don't $a.output\necho 'it''s' $a.output";
    expect(substituteForShell(script, context({ a: "v" })).script).toBe(
      "echo $HOME ${PATH} \\$a.output \"\\$ARGUMENTS\" $$ $#\n# don't $a.output\necho 'it''s' \"${STITCH_REF_0}\"",
    );
    expect(shellReferencesIn(script)).toEqual([{ nodeId: "a", start: script.lastIndexOf("$a.output"), end: script.length }]);
  });

  it("reports the quoting it read for each reference", () => {
    const sites = shellReferences("echo $a.output \"$b.output\" '$c.output' $(( $d.output + 1 )) $'$e.output'\ncat <<X\n$f.output\nX");
    expect(sites.map((s) => [referenceText(s.reference), s.quoting])).toEqual([
      ["$a.output", "bare"], ["$b.output", "double"], ["$c.output", "single"], ["$d.output", "arithmetic"], ["$e.output", "ansi"], ["$f.output", "heredoc"],
    ]);
  });

  it("accepts only an integer in arithmetic, where bash would evaluate the text as code", () => {
    expect(substituteForShell("echo $(( $n.output * 2 )); (( i = $n.output ))", context({ n: " 21\n" })).script).toBe(
      "echo $(( ${STITCH_REF_0} * 2 )); (( i = ${STITCH_REF_0} ))",
    );
    expect(() => substituteForShell("echo $(( $n.output + 1 ))", context({ n: "a[$(echo pwned)]" }))).toThrow(UnsafeShellReference);
    expect(() => substituteForShell("echo $(( $n.output + 1 ))", context({ n: "1.5" }))).toThrow("$n.output: it stands in bash arithmetic");
  });

  it("refuses a reference in a quoted heredoc whose delimiter cannot be unquoted", () => {
    expect(() => substituteForShell("cat <<'END OF'\n$a.output\nEND OF\n", context({ a: "v" }))).toThrow(/\$a\.output: it stands in a quoted heredoc/);
  });

  it("throws UnresolvableReference for an unreadable field, as substitute does", () => {
    expect(() => substituteForShell("echo $a.output.k", context({ a: "no" }))).toThrow(UnresolvableReference);
    expect(substituteForShell("echo $a.output.k", context({ a: "no" }), { unresolvable: "empty" }).env).toEqual({ STITCH_REF_0: "" });
  });
});

describe("substituteForShell under bash: values arrive verbatim and never run", () => {
  const dir = mkdtempSync(join(tmpdir(), "stitch-refs-"));
  const marker = join(dir, "pwned");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const PAYLOADS = [
    `$(touch ${marker})`,
    `\`touch ${marker}\``,
    `"; touch ${marker}; echo "`,
    `'; touch ${marker}; echo '`,
    `' "$(touch ${marker})" '`,
    `line 1\nline 2\n\ttabbed\n`,
    `EOF\ntouch ${marker}\nEOF`,
    "${HOME} $HOME $0 \\ \\\\ \\$",
    "* ?.txt [a-z]",
    "  spaced   out  ",
    "-n",
    "$'\\x41'",
    "",
  ];

  /** The script under bash with the produced env; its stdout. */
  function run(script: string, output: string): string {
    const out = substituteForShell(script, context({ a: output }));
    return execFileSync("bash", ["-c", out.script], { cwd: dir, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: "/home/test", ...out.env } }).toString();
  }

  const FORMS: [string, string, (value: string) => string][] = [
    ["bare", "printf '%s' $a.output", (v) => v],
    ["double-quoted", `printf '%s' "<$a.output>"`, (v) => `<${v}>`],
    ["single-quoted", "printf '%s' '<$a.output>'", (v) => `<${v}>`],
    ["ANSI-C quoted", "printf '%s' $'<$a.output>'", (v) => `<${v}>`],
    ["heredoc", "cat <<EOF\n<$a.output>\nEOF", (v) => `<${v}>\n`],
    ["quoted heredoc", "cat <<'EOF'\n<$a.output> $HOME \\ `x`\nEOF", (v) => `<${v}> $HOME \\ \`x\`\n`],
    ["command substitution", `printf '%s' "$(printf '%s' "$a.output")"`, (v) => v.replace(/\n+$/, "")],
    ["backquotes", "printf '%s' \"`printf '%s' $a.output`\"", (v) => v.replace(/\n+$/, "")],
    ["assignment", `x=$a.output; printf '%s' "$x"`, (v) => v],
  ];

  for (const [name, script, expected] of FORMS) {
    it(`${name}: ${JSON.stringify(script)}`, () => {
      for (const payload of PAYLOADS) {
        expect(run(script, payload), JSON.stringify(payload)).toBe(expected(payload));
        expect(existsSync(marker), JSON.stringify(payload)).toBe(false);
      }
    });
  }

  it("a bare reference stays one word however many spaces or globs its value has", () => {
    expect(run("set -- $a.output; echo $#", "a b  * c")).toBe("1\n");
  });
});
