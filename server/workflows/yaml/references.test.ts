/**
 * `$...` references (references.ts): finding them and substituting them into text. Passing them to bash is
 * shellReferences.test.ts's.
 */
import { describe, expect, it } from "vitest";
import {
  ReferenceProblem, UnresolvableReference, readOutputReference, referenceText, referencesIn, scanReferences, substitute,
} from "./references";
import { context } from "../../testing/yamlWorkflows";

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
