/**
 * A bash script's `$...` references (shellReferences.ts): passed to bash through the environment so that no value can
 * become shell syntax (proved by running bash on the produced script).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { UnresolvableReference, referenceText } from "./references";
import { UnsafeShellReference, shellReferences, shellReferencesIn, substituteForShell } from "./shellReferences";
import { context } from "../../testing/yamlWorkflows";

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
