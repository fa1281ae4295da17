/**
 * When YAML workflow nodes run, through the real executor and dispatcher on every test database: each trigger rule
 * over a failed and a skipped dependency, `when` conditions, branches that never wait for each other, and a failure
 * that stops only what depends on it.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { testDatabases } from "../../testing/databases";
import { startTestServer } from "../../testing/harness";
import { TRIGGER_RULES, type TriggerRule } from "./definition";
import { workflowSuite } from "../../testing/yamlWorkflows";

/** A bash script that waits until the test writes `release` into the run's directory. */
const UNTIL_RELEASED = "while [ ! -f release ]; do sleep 0.05; done";

describe.each(testDatabases)("YAML workflow firing on $name", (testDatabase) => {
  const wf = workflowSuite({ open: () => testDatabase.open(), start: startTestServer });

  it("every trigger rule (all_success, one_success, none_failed_min_one_success, all_done) with a failed and with a skipped dependency", async () => {
    // ok completes, bad fails, skipped is skipped by its `when`; each rule's node depends on two of them.
    const pairs = { failed: ["ok", "bad"], skipped: ["ok", "skipped"], nothing_completed: ["bad", "skipped"] } as const;
    const ruleNodes = TRIGGER_RULES.flatMap((rule) =>
      Object.entries(pairs).map(([pair, deps]) => `  - id: ${rule}__${pair}\n    depends_on: [${deps.join(", ")}]\n    trigger_rule: ${rule}\n    bash: echo ran\n`),
    );
    const yaml = `name: trigger-rules
description: every trigger rule over a failed and a skipped dependency
nodes:
  - id: ok
    bash: echo ok
  - id: bad
    bash: "echo broken >&2; exit 1"
  - id: skipped
    depends_on: [ok]
    when: "$ok.output == 'never'"
    bash: echo never
${ruleNodes.join("")}`;
    const started = await wf.run(yaml);
    const done = await wf.settled(started.id);

    expect(done.status).toBe("failed");
    expect(done.nodes.bad).toMatchObject({ status: "failed", error: "exit code 1: broken" });
    expect(done.nodes.skipped).toMatchObject({ status: "skipped", skip_reason: "when: $ok.output == 'never' was false" });
    const ran = { status: "completed", output: "ran", attempts: 1 };
    const skipped = (rule: TriggerRule, why: string) => ({ status: "skipped", skip_reason: `trigger_rule ${rule}: ${why}`, attempts: 0 });
    const expected: Record<TriggerRule, Record<keyof typeof pairs, object>> = {
      all_success: { failed: skipped("all_success", '"bad" failed'), skipped: skipped("all_success", '"skipped" did not run'), nothing_completed: skipped("all_success", '"bad" failed') },
      one_success: { failed: ran, skipped: ran, nothing_completed: skipped("one_success", "no dependency completed") },
      none_failed_min_one_success: {
        failed: skipped("none_failed_min_one_success", '"bad" failed'),
        skipped: ran,
        nothing_completed: skipped("none_failed_min_one_success", '"bad" failed'),
      },
      all_done: { failed: ran, skipped: ran, nothing_completed: ran },
    };
    for (const rule of TRIGGER_RULES) {
      for (const pair of Object.keys(pairs) as (keyof typeof pairs)[]) {
        expect({ node: `${rule}__${pair}`, ...done.nodes[`${rule}__${pair}`] }).toMatchObject({ node: `${rule}__${pair}`, ...expected[rule][pair] });
      }
    }
  });

  it("when: true runs, false skips with the reason, over a skipped node, numeric comparisons, and && binding tighter than ||", async () => {
    const cases: Record<string, { deps: string[]; when: string; runs: boolean; rule?: TriggerRule }> = {
      is_true: { deps: ["word"], when: "$word.output == 'x'", runs: true },
      is_false: { deps: ["word"], when: "$word.output != 'x'", runs: false },
      // `gone` was skipped: its output reads as "" (its fields too), so only a comparison with "" holds.
      skipped_is_empty: { deps: ["word", "gone"], rule: "none_failed_min_one_success", when: "$gone.output == ''", runs: true },
      skipped_has_no_text: { deps: ["word", "gone"], rule: "none_failed_min_one_success", when: "$gone.output == 'never'", runs: false },
      skipped_field_is_empty: { deps: ["word", "gone"], rule: "all_done", when: "$gone.output.anything == ''", runs: true },
      greater: { deps: ["num"], when: "$num.output > 5", runs: true },
      not_greater: { deps: ["num"], when: "$num.output > 10", runs: false },
      numerically_equal: { deps: ["num"], when: "$num.output == 7.0", runs: true },
      field_at_least: { deps: ["json"], when: "$json.output.count >= 3", runs: true },
      field_below: { deps: ["json"], when: "$json.output.count < 3", runs: false },
      text_is_not_a_number: { deps: ["word"], when: "$word.output > 5", runs: false },
      // x || (q && yes): true; read left to right, (x || q) && yes would be false.
      and_first_on_the_right: { deps: ["word", "other"], when: "$word.output == 'x' || $word.output == 'q' && $other.output == 'yes'", runs: true },
      // (q && no) || no: true; read right to left, q && (no || no) would be false.
      and_first_on_the_left: { deps: ["word", "other"], when: "$word.output == 'q' && $other.output == 'no' || $other.output == 'no'", runs: true },
      // q || (x && yes): false.
      and_binds_tighter: { deps: ["word", "other"], when: "$word.output == 'q' || $word.output == 'x' && $other.output == 'yes'", runs: false },
    };
    const yaml = `name: conditions
description: when
nodes:
  - id: word
    bash: echo x
  - id: other
    bash: echo no
  - id: num
    bash: echo 7
  - id: json
    bash: "echo '{\\"count\\": 3, \\"label\\": \\"big\\"}'"
  - id: gone
    depends_on: [word]
    when: "$word.output == 'y'"
    bash: echo never
${Object.entries(cases)
  .map(([id, c]) => `  - id: ${id}\n    depends_on: [${c.deps.join(", ")}]\n${c.rule ? `    trigger_rule: ${c.rule}\n` : ""}    when: ${JSON.stringify(c.when)}\n    bash: echo ran\n`)
  .join("")}`;
    const started = await wf.run(yaml);
    const done = await wf.settled(started.id);

    expect(done.status).toBe("completed");
    expect(done.nodes.json!.output).toBe('{"count": 3, "label": "big"}');
    expect(done.nodes.gone).toMatchObject({ status: "skipped", skip_reason: "when: $word.output == 'y' was false" });
    for (const [id, c] of Object.entries(cases)) {
      const want = c.runs ? { status: "completed", output: "ran" } : { status: "skipped", output: null, skip_reason: `when: ${c.when} was false` };
      expect({ id, ...done.nodes[id] }).toMatchObject({ id, ...want });
    }
  });

  it("a node is never held back by an unrelated slow branch: a chain completes while a sleeping branch still runs", async () => {
    const yaml = `name: independent
description: branches do not wait for each other
nodes:
  - id: slow
    bash: "sleep 2; ${UNTIL_RELEASED}; echo slow"
  - id: a
    bash: echo a
  - id: b
    depends_on: [a]
    bash: echo "$a.output b"
  - id: c
    depends_on: [b]
    bash: echo "$b.output c"
  - id: joined
    depends_on: [slow, c]
    bash: echo "$slow.output + $c.output"
`;
    const started = await wf.run(yaml);
    // The slow branch cannot finish before the release below: the chain completing first shows nothing waited for it.
    const chainDone = await wf.nodeIs(started.id, "c", "completed");
    expect(chainDone.nodes.c!.output).toBe("a b c");
    expect(chainDone.nodes.slow!.status).toBe("running");
    expect(chainDone.nodes.joined!.status).toBe("pending");
    expect(chainDone.status).toBe("running");

    writeFileSync(join(wf.runDir(started.id), "release"), "");
    const done = await wf.settled(started.id);
    expect(done.status).toBe("completed");
    expect(done.nodes.joined!.output).toBe("slow + a b c");
  });

  it("independent branches go on after a failure, and the run then ends failed", async () => {
    const yaml = `name: failure-is-local
description: a failure stops only what depends on it
nodes:
  - id: boom
    bash: "echo broke >&2; exit 1"
  - id: after_boom
    depends_on: [boom]
    bash: echo never
  - id: gate
    bash: "${UNTIL_RELEASED}; echo released"
  - id: next
    depends_on: [gate]
    bash: echo "after $gate.output"
  - id: last
    depends_on: [next]
    bash: echo "$next.output, done"
`;
    const started = await wf.run(yaml);
    const failed = await wf.nodeIs(started.id, "boom", "failed");
    expect(failed.status).toBe("running");
    expect(failed.nodes.after_boom).toMatchObject({ status: "skipped", skip_reason: 'trigger_rule all_success: "boom" failed' });

    // Only now does the other branch go on: what it runs next, it runs after the failure.
    writeFileSync(join(wf.runDir(started.id), "release"), "");
    const done = await wf.settled(started.id);
    expect(done.status).toBe("failed");
    expect(done.nodes.next).toMatchObject({ status: "completed", output: "after released" });
    expect(done.nodes.last).toMatchObject({ status: "completed", output: "after released, done" });
    expect(done.nodes.boom).toMatchObject({ status: "failed", error: "exit code 1: broke" });
  });
});
