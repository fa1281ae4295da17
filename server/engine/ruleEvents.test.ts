/**
 * The engine's events for nodes that fire by trigger rule (the workflow front doors' nodes), in the pure core:
 * readiness once every dependency has settled, skipping that cascades, executors' skip / iterate events, approval
 * gates, interactive input and resuming a failed or cancelled run. Driven through PureRun, so through the engine's
 * own macrostep; nothing is performed.
 */
import { describe, expect, it } from "vitest";
import { graphOf, uxNode } from "../testing/flows";
import { PureRun } from "../testing/pureRun";
import type { StitchEdge, StitchNode } from "./schemas";
import { runStatusOf } from "./transition";

const at = { x: 0, y: 0 };
/** A node this server runs itself (no webhook), firing by `rule`. */
const task = (id: string, rule = "all_success", data: Record<string, unknown> = {}): StitchNode => ({
  id, type: "Worker", position: at, data: { executor: "workflow", triggerRule: rule, ...data },
});
const approval = (id: string, data: Record<string, unknown> = {}): StitchNode => ({
  id, type: "UX", position: at, data: { gate: "approval", triggerRule: "all_success", ...data },
});
const edges = (...pairs: [string, string][]): StitchEdge[] => pairs.map(([source, target]) => ({ id: `${source}->${target}`, source, target }));
const flow = (nodes: StitchNode[], ...pairs: [string, string][]) => ({ nodes, edges: edges(...pairs) });

const counts = (run: PureRun) => {
  const c = { running: 0, waiting: 0, failed: 0 };
  for (const row of run.rows.values()) {
    if (row.status === "running") c.running++;
    else if (row.status === "waiting_for_user") c.waiting++;
    else if (row.status === "failed") c.failed++;
  }
  return c;
};

describe("trigger rules: a node fires once every dependency has settled", () => {
  /** A and B feed J, which fires by `rule`. */
  const join = (rule: string) => new PureRun(flow([task("A"), task("B"), task("J", rule)], ["A", "J"], ["B", "J"]));

  it("waits while a dependency is unsettled, however the others ended (no layers: B's delay does not hold A back)", () => {
    const run = join("one_success");
    run.start();
    expect(run.dispatchesOf("A")).toHaveLength(1);
    expect(run.dispatchesOf("B")).toHaveLength(1);
    run.complete("A", "a");
    expect(run.status("J")).toBe("pending");
    run.fail("B", "boom");
    expect(run.status("J")).toBe("running");
  });

  const cases: [string, "complete" | "fail" | "skip", string][] = [
    ["all_success", "fail", "skipped"], ["all_success", "skip", "skipped"], ["all_success", "complete", "running"],
    ["one_success", "fail", "running"], ["one_success", "skip", "running"],
    ["none_failed_min_one_success", "fail", "skipped"], ["none_failed_min_one_success", "skip", "running"],
    ["all_done", "fail", "running"], ["all_done", "skip", "running"],
  ];
  it.each(cases)("%s with A completed and B %s: J is %s", (rule, outcome, expected) => {
    const run = join(rule);
    run.start();
    run.complete("A", "a");
    if (outcome === "complete") run.complete("B", "b");
    else if (outcome === "fail") run.fail("B", "boom");
    else run.send({ type: "skip", key: "B", attempt: 1, reason: "when: $x.output == 'y' was false" });
    expect(run.status("J")).toBe(expected);
    if (expected === "skipped") expect(run.row("J").error).toMatch(new RegExp(`^trigger_rule ${rule}: "B" (failed|did not run)$`));
  });

  it("one_success and none_failed_min_one_success skip when no dependency completed; the skip cascades with its reason", () => {
    const run = new PureRun(flow([task("A"), task("B"), task("J", "one_success"), task("K"), task("L", "all_done")], ["A", "J"], ["B", "J"], ["J", "K"], ["K", "L"]));
    run.start();
    run.fail("A");
    run.fail("B");
    expect(run.row("J")).toMatchObject({ status: "skipped", error: "trigger_rule one_success: no dependency completed" });
    expect(run.row("K")).toMatchObject({ status: "skipped", error: 'trigger_rule all_success: "J" did not run' });
    expect(run.status("L")).toBe("running");
  });

  it("independent branches go on after a failure, and the run ends failed even when a later branch recovers", () => {
    const run = new PureRun(flow([task("A"), task("B"), task("C", "all_done")], ["A", "C"]));
    run.start();
    run.fail("A");
    expect(run.status("B")).toBe("running");
    run.complete("B", "b");
    run.complete("C", "c");
    expect(runStatusOf(counts(run))).toBe("failed");
  });

  it("a skip is for the attempt it names; a late or repeated one changes nothing", () => {
    const run = new PureRun(flow([task("A")]));
    run.start();
    expect(run.send({ type: "skip", key: "A", attempt: 2, reason: "late" }).outcome.kind).toBe("duplicate");
    expect(run.send({ type: "skip", key: "A", attempt: 1, reason: "no" }).outcome.kind).toBe("applied");
    expect(run.send({ type: "skip", key: "A", attempt: 1, reason: "no" }).outcome.kind).toBe("duplicate");
  });

  it("a node that runs on this server is dispatched to its executor, not a webhook", () => {
    const run = new PureRun(flow([task("A")]));
    run.start();
    expect(run.dispatchesOf("A")[0]).toMatchObject({ url: "executor:workflow", payload: { nodeId: "A", config: { executor: "workflow" } } });
  });

  it("a failure its executor calls final is not retried, whatever the retry policy", () => {
    const run = new PureRun(flow([task("A", "all_success", { retry: { maxAttempts: 3, backoffMs: 1000 } })]));
    run.start();
    run.send({ type: "callback", key: "A", status: "failed", error: "exit code 2", retryable: false });
    expect(run.row("A")).toMatchObject({ status: "failed", error: "exit code 2" });
  });
});

describe("approval gates", () => {
  it("approve completes the gate with the comment when it captures the response, and fires what follows; a repeat is a duplicate", () => {
    const run = new PureRun(flow([task("A"), approval("G", { captureResponse: true }), task("B")], ["A", "G"], ["G", "B"]));
    run.start();
    run.complete("A", "draft");
    expect(run.status("G")).toBe("waiting_for_user");
    expect(run.send({ type: "complete", key: "G", output: "x" }).outcome).toMatchObject({ kind: "rejected", code: "conflict" });
    run.send({ type: "review", key: "G", decision: "approve", feedback: "ship it" });
    expect(run.row("G")).toMatchObject({ status: "completed", output: "ship it" });
    expect(run.status("B")).toBe("running");
    expect(run.send({ type: "review", key: "G", decision: "approve" }).outcome.kind).toBe("duplicate");
  });

  it("without capture_response the output is empty; a gate that is not waiting refuses a decision", () => {
    const run = new PureRun(flow([task("A"), approval("G")], ["A", "G"]));
    run.start();
    expect(run.send({ type: "review", key: "G", decision: "approve" }).outcome).toMatchObject({ kind: "rejected", code: "conflict" });
    run.complete("A", "draft");
    run.send({ type: "review", key: "G", decision: "approve", feedback: "fine" });
    expect(run.row("G").output).toBe("");
  });

  it("a rejection runs the gate's follow-up work with the reason, and the gate then waits again", () => {
    const run = new PureRun(flow([approval("G", { executor: "workflow" })]));
    run.start();
    run.send({ type: "review", key: "G", decision: "reject", feedback: "too long" });
    expect(run.row("G")).toMatchObject({ status: "running", attempt: 2, feedback: { text: "too long", round: 1 } });
    expect(run.dispatchesOf("G")[0]!.payload.feedback).toMatchObject({ text: "too long" });
    run.complete("G", "shorter now");
    expect(run.status("G")).toBe("waiting_for_user");
  });

  it("a gate with a precheck is dispatched before it waits: a skip skips it (and what follows decides by rule), a callback lets it wait", () => {
    const run = new PureRun(flow([task("A"), approval("G", { executor: "workflow", precheck: true }), approval("H", { executor: "workflow", precheck: true }), task("B", "all_done")], ["A", "G"], ["A", "H"], ["G", "B"]));
    run.start();
    run.complete("A", "draft");
    expect(run.row("G")).toMatchObject({ status: "running", attempt: 1, feedback: null });
    expect(run.dispatchesOf("G")[0]!.payload.feedback).toBeUndefined();
    run.send({ type: "skip", key: "G", attempt: 1, reason: "when: false" });
    expect(run.row("G")).toMatchObject({ status: "skipped", error: "when: false" });
    expect(run.status("B")).toBe("running");
    run.complete("H", "");
    expect(run.status("H")).toBe("waiting_for_user");
    run.send({ type: "review", key: "H", decision: "approve" });
    expect(run.status("H")).toBe("completed");
  });

  it("a gate with no follow-up work cannot be rejected by the engine (its front door decides)", () => {
    const run = new PureRun(flow([approval("G")]));
    run.start();
    expect(run.send({ type: "review", key: "G", decision: "reject", feedback: "no" }).outcome).toMatchObject({ kind: "rejected", code: "conflict" });
  });
});

describe("loops: each iteration is an event", () => {
  it("iterate fires the next iteration with the last output kept; a stale iterate is a duplicate", () => {
    const run = new PureRun(flow([task("L", "all_success", { loop: { interactive: false } })]));
    run.start();
    run.send({ type: "iterate", key: "L", attempt: 1, output: "first try" });
    expect(run.row("L")).toMatchObject({ status: "running", attempt: 2, output: "first try" });
    expect(run.dispatchesOf("L")).toHaveLength(2);
    expect(run.send({ type: "iterate", key: "L", attempt: 1, output: "again" }).outcome.kind).toBe("duplicate");
  });

  it("an interactive loop waits for the user between iterations, and their input fires the next one", () => {
    const run = new PureRun(flow([task("L", "all_success", { loop: { interactive: true } })]));
    run.start();
    run.send({ type: "iterate", key: "L", attempt: 1, output: "question?" });
    expect(run.status("L")).toBe("waiting_for_user");
    expect(runStatusOf(counts(run))).toBe("waiting_for_user");
    run.send({ type: "input", key: "L", text: "answer" });
    expect(run.row("L")).toMatchObject({ status: "running", attempt: 2, feedback: { text: "answer", round: 1 } });
    expect(run.send({ type: "input", key: "L", text: "again" }).outcome).toMatchObject({ kind: "rejected", code: "conflict" });
  });

  it("input and iterate are refused on nodes that are not loops", () => {
    const run = new PureRun(graphOf([uxNode("U")]));
    run.start();
    expect(run.send({ type: "input", key: "U", text: "x" }).outcome).toMatchObject({ kind: "rejected", code: "conflict" });
  });
});

describe("resume", () => {
  it("re-fires failed nodes, returns their skipped descendants to pending, and re-runs completed always_run nodes only", () => {
    const run = new PureRun(flow([task("A"), task("B"), task("C"), task("Z", "all_done", { alwaysRun: true })], ["A", "B"], ["B", "C"], ["C", "Z"]));
    run.start();
    run.complete("A", "a");
    run.fail("B", "boom");
    expect(run.status("C")).toBe("skipped");
    run.complete("Z", "cleanup 1");
    const resumed = run.send({ type: "resume" });
    expect(resumed.outcome.kind).toBe("applied");
    expect(run.status("A")).toBe("completed");
    expect(run.row("A").output).toBe("a");
    expect(run.status("B")).toBe("running");
    expect(run.status("C")).toBe("pending");
    expect(run.status("Z")).toBe("pending");
    run.complete("B", "b");
    run.complete("C", "c");
    expect(run.status("Z")).toBe("running");
  });

  it("a cancelled run resumes: its cancelled nodes return and the run is no longer cancelled; a finished run has nothing to resume", () => {
    const run = new PureRun(flow([task("A"), approval("G")], ["A", "G"]));
    run.start();
    run.complete("A", "a");
    run.send({ type: "cancel", reason: "rejected: no" });
    expect(run.status("G")).toBe("cancelled");
    run.send({ type: "resume" });
    expect(run.status("G")).toBe("waiting_for_user");
    run.send({ type: "review", key: "G", decision: "approve" });
    expect(run.send({ type: "resume" }).outcome).toMatchObject({ kind: "rejected", code: "conflict" });
  });
});

describe("retrying a failed node that fires by rule", () => {
  it("returns the nodes its failure skipped to pending, and they run once it completes", () => {
    const run = new PureRun(flow([task("A"), task("B"), task("C"), task("D", "all_success")], ["A", "B"], ["B", "C"], ["C", "D"]));
    run.start();
    run.fail("A", "boom");
    expect([run.status("B"), run.status("C"), run.status("D")]).toEqual(["skipped", "skipped", "skipped"]);
    run.send({ type: "retry", key: "A" });
    expect([run.status("A"), run.status("B"), run.status("C")]).toEqual(["running", "pending", "pending"]);
    run.complete("A", "a");
    expect(run.status("B")).toBe("running");
  });

  it("a descendant skipped for another reason is skipped again, with that reason", () => {
    const run = new PureRun(flow([task("A"), task("X"), task("J", "all_success")], ["A", "J"], ["X", "J"]));
    run.start();
    run.fail("X", "other");
    run.fail("A", "boom");
    run.send({ type: "retry", key: "A" });
    run.complete("A", "a");
    expect(run.row("J")).toMatchObject({ status: "skipped", error: 'trigger_rule all_success: "X" failed' });
  });
});

describe("resume leaves alone what the failure did not touch", () => {
  it("a node skipped by its own condition, not after the failed node, stays skipped", () => {
    const run = new PureRun(flow([task("A"), task("B"), task("W")], ["A", "B"]));
    run.start();
    run.send({ type: "skip", key: "W", attempt: 1, reason: "when: $x.output == 'y' was false" });
    run.complete("A", "a");
    run.fail("B", "boom");
    run.send({ type: "resume" });
    expect(run.status("B")).toBe("running");
    expect(run.row("W")).toMatchObject({ status: "skipped", attempt: 1 });
  });
});
