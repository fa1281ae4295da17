/**
 * Which rows a fork copies and which it starts afresh (forkPlan.ts), and what the fork's first event then does in the
 * pure core, for chains, joins, fan-outs (at a node inside a path, at the Splitter, at the Collector), loops, trigger
 * rules, nodes skipped in the original and a later version of the graph. No database: the original is driven through
 * the engine's own macrostep (PureRun), and so is the fork.
 */
import { describe, expect, it } from "vitest";
import { PureRun } from "../testing/pureRun";
import { chain, collectorNode, graphOf, splitterNode, uxNode, workerNode } from "../testing/flows";
import { type ForkPlan, type ForkRefusal, forkPlan } from "./forkPlan";
import { compileGraph } from "./graph";
import type { StitchGraph } from "./schemas";

const hook = "https://worker.example.test/hook";

const planOf = (run: PureRun, chosen: string, graph?: StitchGraph): ForkPlan => {
  const plan = forkPlan(graph ? compileGraph(graph) : run.graph, [...run.rows.values()], chosen, run.graph);
  if ("refused" in plan) throw new Error(plan.refused.message);
  return plan;
};

const refusalOf = (run: PureRun, chosen: string): ForkRefusal["refused"] => {
  const plan = forkPlan(run.graph, [...run.rows.values()], chosen);
  if (!("refused" in plan)) throw new Error(`the fork at "${chosen}" was planned`);
  return plan.refused;
};

/** The fork as a run of its own: seeded with the plan's rows, its first event applied. */
function forked(graph: StitchGraph, plan: ForkPlan, chosen: string, input?: unknown, runInput: unknown = null): PureRun {
  const fork = new PureRun(graph, runInput, { runId: "00000000-0000-4000-8000-00000000f0f0" });
  const settled = fork.fork({ type: "fork", key: chosen, ...(input === undefined ? {} : { input }), from: { run_id: "original", node_id: chosen }, rows: plan.rows, fire: plan.fire });
  expect(settled.outcome).toEqual({ kind: "applied" });
  return fork;
}

const sorted = (keys: string[]) => [...keys].sort();

describe("a chain", () => {
  const graph = graphOf([workerNode("A", hook), workerNode("B", hook), uxNode("U")], chain("A", "B", "U"));
  const original = () => {
    const run = new PureRun(graph, { topic: "t" });
    run.start();
    run.complete("A", { a: 1 });
    run.complete("B", { b: 1 });
    return run;
  };

  it("copies what is before the chosen node and starts it and what follows afresh", () => {
    const plan = planOf(original(), "B");
    expect(plan.copied).toEqual(["A"]);
    expect(plan.restarted).toEqual(["B", "U"]);
    expect(plan.unfinished).toEqual([]);
    expect(plan.fire).toEqual(["B"]);
  });

  it("calls only the chosen node, with the edited input, and no copied node again", () => {
    const run = original();
    const fork = forked(graph, planOf(run, "B"), "B", { a: 2 }, { topic: "t" });
    expect(fork.dispatches.map((d) => [d.key, d.payload.input])).toEqual([["B", { a: 2 }]]);
    expect(fork.row("A")).toEqual(run.row("A"));
    expect(fork.status("U")).toBe("pending");
    fork.complete("B", { b: 2 });
    expect(fork.status("U")).toBe("waiting_for_user");
    expect(fork.row("U").input).toEqual({ b: 2 });
  });

  it("without an edited input, the chosen node takes what the nodes before it gave", () => {
    const fork = forked(graph, planOf(original(), "B"), "B");
    expect(fork.dispatches.map((d) => [d.key, d.payload.input])).toEqual([["B", { a: 1 }]]);
  });

  it("forks at a waiting gate: the gate waits again, asked anew", () => {
    const plan = planOf(original(), "U");
    expect(plan.copied).toEqual(["A", "B"]);
    const fork = forked(graph, plan, "U");
    expect(fork.status("U")).toBe("waiting_for_user");
    expect(fork.dispatches).toEqual([]);
  });

  it("forks at a failed node, and at a running one", () => {
    const run = new PureRun(graph, {});
    run.start();
    run.complete("A", { a: 1 });
    expect(planOf(run, "B").copied).toEqual(["A"]);
    run.fail("B", "bad input");
    const fork = forked(graph, planOf(run, "B"), "B", { a: "fixed" });
    expect(fork.status("B")).toBe("running");
    expect(fork.row("B").error).toBeNull();
  });

  it("refuses a node of no run, and one that never ran", () => {
    const run = new PureRun(graph, {});
    run.start();
    expect(refusalOf(run, "Z")).toMatchObject({ code: "not_found" });
    expect(refusalOf(run, "B")).toMatchObject({ code: "conflict", message: expect.stringContaining("never ran") });
  });
});

describe("a join", () => {
  const graph = graphOf([workerNode("A", hook), workerNode("B", hook), workerNode("J", hook), workerNode("D", hook)], [["A", "J"], ["B", "J"], ["J", "D"]]);

  it("restarts one branch and the join; the other branch is copied and the join waits only for the restarted one", () => {
    const run = new PureRun(graph, {});
    run.start();
    run.complete("A", { a: 1 });
    run.complete("B", { b: 1 });
    run.complete("J", { j: 1 });
    const plan = planOf(run, "A");
    expect(plan.copied).toEqual(["B"]);
    expect(plan.restarted).toEqual(["A", "J", "D"]);
    const fork = forked(graph, plan, "A", { edited: true });
    expect(fork.dispatches.map((d) => d.key)).toEqual(["A"]);
    fork.complete("A", { a: 2 });
    expect(fork.dispatchesOf("J").map((d) => d.payload.input)).toEqual([{ a: 2, b: 1 }]);
  });

  it("starts afresh a parallel branch that had not finished: nothing of the original answers the fork", () => {
    const run = new PureRun(graph, {});
    run.start();
    run.complete("A", { a: 1 });
    const plan = planOf(run, "A");
    expect(plan.copied).toEqual([]);
    expect(plan.unfinished).toEqual(["B"]);
    const fork = forked(graph, plan, "A");
    expect(sorted(fork.dispatches.map((d) => d.key))).toEqual(["A", "B"]);
  });
});

describe("a fan-out", () => {
  const graph = graphOf([workerNode("In", hook), splitterNode("S"), workerNode("W", hook), collectorNode("C"), workerNode("After", hook)], chain("In", "S", "W", "C", "After"));
  const original = () => {
    const run = new PureRun(graph, {});
    run.start();
    run.complete("In", { items: ["x", "y"] });
    run.complete("W_0", "X");
    run.complete("W_1", "Y");
    run.complete("After", "done");
    return run;
  };

  it("at a node inside a path: that path, the Collector and what follows restart; the other path is copied", () => {
    const run = original();
    const plan = planOf(run, "W_1");
    expect(sorted(plan.copied)).toEqual(["In", "S", "W", "W_0"]);
    expect(plan.restarted).toEqual(["W_1", "C", "After"]);
    const collector = plan.rows.find((row) => row.key === "C")!;
    expect(collector).toMatchObject({ status: "pending", pathTotal: 2, pathDone: 1, pathFailed: 0 });
    const fork = forked(graph, plan, "W_1", "z");
    expect(fork.dispatches.map((d) => [d.key, d.payload.input])).toEqual([["W_1", "z"]]);
    fork.complete("W_1", "Z");
    expect(fork.row("C")).toMatchObject({ status: "completed", output: ["X", "Z"] });
    expect(fork.dispatchesOf("After").map((d) => d.payload.input)).toEqual([["X", "Z"]]);
  });

  it("at the Splitter: its paths are left out and made again from its input", () => {
    const plan = planOf(original(), "S");
    expect(plan.copied).toEqual(["In"]);
    expect(sorted(plan.restarted)).toEqual(sorted(["S", "W", "C", "After"]));
    expect(sorted(plan.dropped)).toEqual(["W_0", "W_1"]);
    const fork = forked(graph, plan, "S", { items: ["p", "q", "r"] });
    expect(fork.dispatches.map((d) => [d.key, d.payload.input])).toEqual([["W_0", "p"], ["W_1", "q"], ["W_2", "r"]]);
  });

  it("at the Collector: it collects the copied paths at once and what follows runs", () => {
    const plan = planOf(original(), "C");
    expect(sorted(plan.copied)).toEqual(["In", "S", "W", "W_0", "W_1"]);
    expect(plan.restarted).toEqual(["C", "After"]);
    const fork = forked(graph, plan, "C");
    expect(fork.row("C")).toMatchObject({ status: "completed", output: ["X", "Y"] });
    expect(fork.dispatches.map((d) => d.key)).toEqual(["After"]);
  });

  it("refuses a node that runs per path, named without its path", () => {
    expect(refusalOf(original(), "W")).toMatchObject({ code: "bad_request", message: expect.stringContaining('"W_0"') });
  });

  it("a Collector whose copied path failed fails with it, and recovers when that path is retried in the fork", () => {
    const run = new PureRun(graph, {});
    run.start();
    run.complete("In", { items: ["x", "y", "z"] });
    run.complete("W_0", "X");
    run.fail("W_1");
    run.complete("W_2", "Z");
    const plan = planOf(run, "W_2");
    expect(plan.rows.find((row) => row.key === "C")).toMatchObject({ status: "failed", pathDone: 1, pathFailed: 1 });
    const fork = forked(graph, plan, "W_2");
    fork.complete("W_2", "Z2");
    fork.send({ type: "retry", key: "W_1" });
    fork.complete("W_1", "Y");
    expect(fork.row("C")).toMatchObject({ status: "completed", output: ["X", "Y", "Z2"] });
  });
});

describe("loops, trigger rules and skipped nodes", () => {
  it("a loop before the chosen node is copied with its iterations; forked at, it starts from its first", () => {
    const graph = graphOf([workerNode("L", hook, { loop: {} }), workerNode("B", hook)], chain("L", "B"));
    const run = new PureRun(graph, { n: 0 });
    run.start();
    run.send({ type: "iterate", key: "L", attempt: 1, output: "first" });
    run.complete("L", "last");
    run.complete("B", "b");
    const atB = planOf(run, "B");
    expect(atB.copied).toEqual(["L"]);
    expect(forked(graph, atB, "B").row("L")).toMatchObject({ status: "completed", attempt: 2, output: "last" });
    const atL = forked(graph, planOf(run, "L"), "L", { n: 1 }, { n: 1 });
    expect(atL.dispatches.map((d) => [d.key, d.attempt, d.payload.input])).toEqual([["L", 1, { n: 1 }]]);
  });

  it("a node skipped by its trigger rule after the chosen node is decided again; one elsewhere stays skipped", () => {
    const graph = graphOf(
      [workerNode("A", hook), workerNode("B", hook, { triggerRule: "all_success" }), workerNode("X", hook), workerNode("Y", hook, { triggerRule: "all_success" })],
      chain("A", "B"), chain("X", "Y"),
    );
    const run = new PureRun(graph, {});
    run.start();
    run.fail("A", "bad");
    run.fail("X", "bad too");
    expect(run.status("B")).toBe("skipped");
    expect(refusalOf(run, "B")).toMatchObject({ code: "conflict" });
    const plan = planOf(run, "A");
    expect(sorted(plan.copied)).toEqual(["X", "Y"]);
    expect(plan.restarted).toEqual(["A", "B"]);
    const fork = forked(graph, plan, "A", { fixed: true });
    expect(fork.status("Y")).toBe("skipped");
    expect(fork.status("X")).toBe("failed");
    fork.complete("A", "ok");
    expect(fork.dispatchesOf("B").map((d) => d.payload.input)).toEqual(["ok"]);
  });

  it("a one_success join runs again from the copied branch's outcome and the restarted one's", () => {
    const graph = graphOf([workerNode("A", hook), workerNode("B", hook), workerNode("J", hook, { triggerRule: "one_success" })], [["A", "J"], ["B", "J"]]);
    const run = new PureRun(graph, {});
    run.start();
    run.fail("A");
    run.complete("B", { b: 1 });
    run.complete("J", "j");
    const plan = planOf(run, "B");
    expect(plan.copied).toEqual(["A"]);
    const fork = forked(graph, plan, "B");
    fork.complete("B", { b: 2 });
    expect(fork.dispatchesOf("J").map((d) => d.payload.input)).toEqual([{ b: 2 }]);
  });
});

describe("a fork on a later version of the graph", () => {
  const v1 = graphOf([workerNode("A", hook), workerNode("B", hook), workerNode("C", hook)], chain("A", "B", "C"));
  const original = () => {
    const run = new PureRun(v1, {});
    run.start();
    run.complete("A", 1);
    run.complete("B", 2);
    return run;
  };

  it("matches nodes by id: a node added after the chosen one runs, one removed after it is left out", () => {
    const v2 = graphOf([workerNode("A", hook), workerNode("B", hook), workerNode("D", hook)], chain("A", "B", "D"));
    const plan = planOf(original(), "B", v2);
    expect(plan.copied).toEqual(["A"]);
    expect(plan.dropped).toEqual(["C"]);
    expect(plan.missing).toEqual([]);
    expect(plan.rows.map((row) => row.key)).toContain("D");
  });

  it("names the copied nodes the later version lacks", () => {
    const v2 = graphOf([workerNode("A2", hook), workerNode("B", hook), workerNode("C", hook)], chain("A2", "B", "C"));
    expect(planOf(original(), "B", v2).missing).toEqual(["A"]);
  });
});
