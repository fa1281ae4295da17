/** The `when` grammar (condition.ts): parsing with located errors, precedence, quotes, and evaluation. */
import { describe, expect, it } from "vitest";
import { type Condition, conditionReferences, evaluateCondition, parseCondition } from "./condition";
import type { NodeOutput, OutputLookup } from "./references";

function parsed(source: string): Condition {
  const result = parseCondition(source);
  if (!result.ok) throw new Error(`expected ${source} to parse: ${result.message}`);
  return result.ast;
}

/** A compact form of a tree: `(a == 'x' || (b > 2 && c != true))`. */
function show(ast: Condition): string {
  if (ast.type === "comparison") {
    const { nodeId, field } = ast.reference;
    const value = ast.value.type === "string" ? `'${ast.value.value}'` : String(ast.value.value);
    return `${nodeId}${field ? `.${field}` : ""} ${ast.operator} ${value}`;
  }
  return `(${ast.operands.map(show).join(ast.type === "and" ? " && " : " || ")})`;
}

function outputs(map: Record<string, string | NodeOutput>): OutputLookup {
  return (id) => {
    const out = map[id];
    return typeof out === "string" ? { status: "completed", output: out } : out;
  };
}

const holds = (source: string, map: Record<string, string | NodeOutput>): boolean => evaluateCondition(parsed(source), outputs(map));

describe("parseCondition", () => {
  it("parses a comparison of a whole output and of a field, with its offsets", () => {
    expect(parsed("$review.output == 'approve'")).toEqual({
      type: "comparison",
      reference: { nodeId: "review", start: 0, end: 14 },
      operator: "==",
      value: { type: "string", value: "approve" },
    });
    expect(parsed("  $plan.output.count>=3  ")).toEqual({
      type: "comparison",
      reference: { nodeId: "plan", field: "count", start: 2, end: 20 },
      operator: ">=",
      value: { type: "number", value: 3 },
    });
  });

  it("reads every operator and every kind of value", () => {
    const ops = ["==", "!=", "<", ">", "<=", ">="];
    for (const op of ops) expect(show(parsed(`$a.output ${op} 1`))).toBe(`a ${op} 1`);
    expect(["'x'", '"x"', "-2.5", "+4", "0", "10.", "true", "false"].map((v) => show(parsed(`$a.output == ${v}`)))).toEqual([
      "a == 'x'", "a == 'x'", "a == -2.5", "a == 4", "a == 0", "a == 10", "a == true", "a == false",
    ]);
  });

  it("binds && tighter than ||", () => {
    expect(show(parsed("$a.output == 1 || $b.output == 2 && $c.output == 3"))).toBe("(a == 1 || (b == 2 && c == 3))");
    expect(show(parsed("$a.output == 1 && $b.output == 2 || $c.output == 3"))).toBe("((a == 1 && b == 2) || c == 3)");
    expect(show(parsed("$a.output == 1 && $b.output == 2 && $c.output == 3 || $d.output == 4 || $e.output == 5"))).toBe(
      "((a == 1 && b == 2 && c == 3) || d == 4 || e == 5)",
    );
  });

  it("treats operators inside quotes as text", () => {
    expect(show(parsed("$a.output == 'x && y' || $b.output != '|| == <'"))).toBe("(a == 'x && y' || b != '|| == <')");
    expect(show(parsed("$a.output=='$b.output'&&$c.output!=\"it's\""))).toBe("(a == '$b.output' && c != 'it's')");
  });

  it("reads \\' and \\\\ inside a quoted string", () => {
    expect(parsed("$a.output == 'it\\'s \\\\ done \\n'")).toMatchObject({ value: { type: "string", value: "it's \\ done \\n" } });
  });

  it("says what was expected at which character", () => {
    const cases: [string, number, string][] = [
      ["", 0, "expected a node output reference ($id.output or $id.output.field) at character 1, found the end of the condition"],
      ["approve == 'x'", 0, 'expected a node output reference ($id.output or $id.output.field) at character 1, found "approve == \'…"'],
      ["$a.output = 'x'", 10, "expected an operator (==, !=, <=, >=, <, >) at character 11, found \"= 'x'\""],
      ["$a.output == approve", 13, "expected a value ('quoted string', number, true or false) at character 14, found \"approve\""],
      ["$a.output == 'x", 13, "expected a closing ' for the string that starts at character 14, found \"'x\""],
      ["$a.output == 'x' and $b.output == 1", 17, 'expected &&, || or the end of the condition at character 18, found "and $b.outpu…"'],
      ["$a.output == 1 &&", 17, "expected a node output reference ($id.output or $id.output.field) at character 18, found the end of the condition"],
      ["$ARGUMENTS == 'x'", 0, "expected a node output reference"],
      ["$a.outputs == 1", 0, "expected a node output reference"],
      ["$a.output == 1.2.3", 13, "expected a value"],
      ["$a.output == truey", 13, "expected a value"],
      ["($a.output == 1)", 0, "expected a node output reference"],
      ["$a.output === 'x'", 12, "expected a value"],
    ];
    for (const [source, offset, message] of cases) {
      const result = parseCondition(source);
      expect(result, source).toMatchObject({ ok: false, offset });
      if (!result.ok) expect(result.message, source).toContain(message);
    }
  });
});

describe("evaluateCondition", () => {
  it("compares text exactly, with the output's surrounding whitespace trimmed", () => {
    expect(holds("$r.output == 'approve'", { r: "approve\n" })).toBe(true);
    expect(holds("$r.output == 'approve'", { r: "Approve" })).toBe(false);
    expect(holds("$r.output != 'approve'", { r: "reject" })).toBe(true);
    expect(holds("$r.output == ''", { r: "  \n" })).toBe(true);
  });

  it("compares numerically when both sides are numbers, for == and != too", () => {
    expect(holds("$n.output == 1", { n: "1.0" })).toBe(true);
    expect(holds("$n.output == '1.0'", { n: "1" })).toBe(true);
    expect(holds("$n.output != 2", { n: "2e0" })).toBe(false);
    expect(holds("$n.output == 1", { n: "one" })).toBe(false);
    expect(holds("$n.output != 1", { n: "one" })).toBe(true);
    expect(holds("$n.output == 'abc'", { n: "abc" })).toBe(true);
  });

  it("orders numbers only: a side that is not a number makes <, >, <=, >= false", () => {
    const n = { n: "10\n" };
    expect([holds("$n.output > 9", n), holds("$n.output < 9", n), holds("$n.output >= 10", n), holds("$n.output <= 9.5", n)]).toEqual([true, false, true, false]);
    expect(holds("$n.output > '9'", n)).toBe(true);
    for (const op of ["<", ">", "<=", ">="]) {
      expect(holds(`$n.output ${op} 5`, { n: "ten" }), op).toBe(false);
      expect(holds(`$n.output ${op} 'x'`, n), op).toBe(false);
      expect(holds(`$n.output ${op} true`, n), op).toBe(false);
      expect(holds(`$n.output ${op} 5`, { n: "" }), op).toBe(false);
      expect(holds(`$n.output ${op} 5`, { n: "0x10" }), op).toBe(false);
    }
  });

  it('compares true and false with the text "true" and "false"', () => {
    expect(holds("$t.output == true", { t: "true\n" })).toBe(true);
    expect(holds("$t.output == true", { t: "True" })).toBe(false);
    expect(holds("$t.output != false", { t: "yes" })).toBe(true);
    expect(holds("$j.output.ok == true && $j.output.bad == false", { j: '{"ok": true, "bad": false}' })).toBe(true);
  });

  it("reads a field one level into a JSON output", () => {
    const j = { j: '{"verdict": "pass", "score": 0.93, "list": [1]}' };
    expect(holds("$j.output.verdict == 'pass' && $j.output.score > 0.9", j)).toBe(true);
    expect(holds("$j.output.list == '[1]'", j)).toBe(true);
  });

  it('takes "" for a skipped or failed node, or one that has not run', () => {
    const map = { s: { status: "skipped", output: "x" }, f: { status: "failed", output: "x" } };
    expect(holds("$s.output == '' && $f.output == '' && $none.output == ''", map)).toBe(true);
    expect(holds("$s.output == 'x'", map)).toBe(false);
    expect(holds("$s.output.k == ''", map)).toBe(true);
  });

  it("makes a comparison on an unreadable field false, whatever its operator, and does not throw", () => {
    for (const op of ["==", "!=", "<", ">", "<=", ">="]) {
      expect(holds(`$j.output.k ${op} 1`, { j: "not json" }), op).toBe(false);
      expect(holds(`$j.output.k ${op} 1`, { j: '{"other": 1}' }), op).toBe(false);
      expect(holds(`$j.output.k ${op} 1`, { j: "[1]" }), op).toBe(false);
    }
    expect(holds("$j.output.k == 1 || $j.output == 'not json'", { j: "not json" })).toBe(true);
  });

  it("evaluates && before ||", () => {
    const truth = (a: string, b: string, c: string) => holds("$a.output == 1 || $b.output == 1 && $c.output == 1", { a, b, c });
    expect(truth("1", "0", "0")).toBe(true);
    expect(truth("0", "1", "0")).toBe(false);
    expect(truth("0", "1", "1")).toBe(true);
    expect(truth("0", "0", "1")).toBe(false);
  });
});

describe("conditionReferences", () => {
  it("lists the node ids read, each once, in order", () => {
    expect(conditionReferences(parsed("$b.output == 1 || $a.output.x == 2 && $b.output.y != 'z' || $c.output > 0"))).toEqual(["b", "a", "c"]);
    expect(conditionReferences(parsed("$only.output == 1"))).toEqual(["only"]);
  });
});
