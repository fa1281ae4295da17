/**
 * The pure core (transition.ts) against every acceptance criterion it decides, with no database:
 * each test drives events through PureRun (which loads only the rows `requiredKeys` names, like the store)
 * and asserts on the returned changes and effects. Nothing is performed: effects are values.
 */
import { describe, expect, it } from "vitest";
import { PureRun } from "../testing/pureRun";
import { chain, collectorNode, graphOf, reviewGate, splitterNode, uxNode, workerNode } from "../testing/flows";
import { compileGraph } from "./graph";
import {
  type NodeRow, countDelta, mergeInputs, newRow, requiredKeys, runStatusAfter, runStatusOf, transition,
} from "./transition";

const hook = "https://worker.example.test/hook";
const otherHook = "https://other-worker.example.test/run";

/** Entry Worker A, then B, then terminal UX node U. */
const linear = () => graphOf([workerNode("A", hook, { model: "m1" }), workerNode("B", otherHook), uxNode("U")], chain("A", "B", "U"));
/** In -> Splitter S over input.items -> Worker W per path -> Collector C -> Worker After. */
const splitFlow = (arrayPath = "items") =>
  graphOf([workerNode("In", hook), splitterNode("S", arrayPath), workerNode("W", hook), collectorNode("C"), workerNode("After", otherHook)], chain("In", "S", "W", "C", "After"));

describe("the pure core performs nothing", () => {
  it("transition returns changes and effects without touching the rows it was given", () => {
    const g = compileGraph(linear());
    const rows = new Map<string, NodeRow>([["A", Object.freeze(newRow("A")) as NodeRow]]);
    const snapshot = structuredClone([...rows]);
    const step = transition(g, rows, { type: "fire", key: "A" }, { runId: "r", runInput: { q: 1 }, callbackUrl: (key) => `https://b.test/callback/${key}` });
    expect(step.outcome).toEqual({ kind: "applied" });
    expect(step.changes).toEqual([expect.objectContaining({ key: "A", status: "running", input: { q: 1 }, attempt: 1 })]);
    expect(step.effects).toEqual([expect.objectContaining({ type: "dispatch", key: "A", url: hook })]);
    expect([...rows]).toEqual(snapshot);
  });

  it("requiredKeys names every row an event reads (PureRun fails on a row it was not given)", () => {
    const g = compileGraph(splitFlow());
    expect(requiredKeys(g, { type: "start" })).toEqual(["In"]);
    expect(requiredKeys(g, { type: "fire", key: "W_3" })).toEqual(["W_3", "S"]);
    expect(requiredKeys(g, { type: "completed", key: "W_3" })).toEqual(["W_3", "C"]);
    expect(requiredKeys(g, { type: "collect", key: "C", paths: 2 })).toEqual(["C", "W_0", "W_1"]);
    expect(requiredKeys(g, { type: "callback", key: "nope", status: "completed" })).toEqual([]);
  });
});

describe("Requirement 2: node states of a new run", () => {
  it("2.6 every node starts pending; only entry nodes are fired by the start", () => {
    const run = new PureRun(linear(), { topic: "x" });
    expect(Object.values(run.nodeStates()).map((s) => s.status)).toEqual(["pending", "pending", "pending"]);
    const started = run.start();
    expect([...started.changes.keys()]).toEqual(["A"]);
    expect(run.nodeStates()).toEqual({
      A: { status: "running", output: null },
      B: { status: "pending", output: null },
      U: { status: "pending", output: null },
    });
  });
});

describe("Requirement 4: worker protocol, outbound payload", () => {
  it("4.1 firing a Worker yields one dispatch to its webhookUrl", () => {
    const run = new PureRun(linear(), { topic: "x" });
    const { effects } = run.start();
    expect(effects).toHaveLength(1);
    expect(effects[0]).toMatchObject({ type: "dispatch", key: "A", url: hook, attempt: 1 });
  });

  it("4.2 the payload carries runId, nodeId, config (node.data), input (upstream output) and callbackUrl", () => {
    const run = new PureRun(linear(), { topic: "x" }, { runId: "11111111-2222-4333-8444-555555555555" });
    run.start();
    run.complete("A", { draft: "text" });
    const [, toB] = run.dispatches;
    expect(run.dispatches[0]!.payload).toEqual({
      runId: "11111111-2222-4333-8444-555555555555",
      nodeId: "A",
      config: { model: "m1" },
      input: { topic: "x" },
      callbackUrl: "https://stitch.example.test/api/stitch/callback/11111111-2222-4333-8444-555555555555/A",
      attempt: 1,
    });
    expect(toB!.payload).toMatchObject({ nodeId: "B", input: { draft: "text" }, config: {} });
  });

  it("4.3/4.4 the callbackUrl is <base URL>/api/stitch/callback/<runId>/<nodeId>, whatever the base URL", () => {
    for (const baseUrl of ["https://stitch.prod.example", "http://10.1.2.3:8080", "https://staging.example/stitch-app"]) {
      const run = new PureRun(linear(), null, { runId: "run-1", baseUrl });
      run.start();
      expect(run.dispatches[0]!.payload.callbackUrl).toBe(`${baseUrl}/api/stitch/callback/run-1/A`);
    }
  });

  it("4.3 path segments are URL-encoded, so any node id routes back to its node", () => {
    const run = new PureRun(graphOf([workerNode("a/b c?#", hook)]), null, { runId: "run-1" });
    run.start();
    expect(run.dispatches[0]!.payload.callbackUrl).toBe("https://stitch.example.test/api/stitch/callback/run-1/a%2Fb%20c%3F%23");
  });

  it("4.5 a delivery that finally failed marks the node failed with the delivery's error", () => {
    const run = new PureRun(linear());
    run.start();
    const result = run.send({ type: "delivery_failed", key: "A", attempt: 1, error: "could not deliver: HTTP 500" });
    expect(result.outcome.kind).toBe("applied");
    expect(run.nodeStates().A).toEqual({ status: "failed", output: null, error: "could not deliver: HTTP 500" });
    expect(result.effects).toEqual([{ type: "cancel_dispatches", key: "A" }]);
  });

  it("4.5 a delivery failure of an older attempt, or after the node moved on, changes nothing", () => {
    const run = new PureRun(linear());
    run.start();
    expect(run.send({ type: "delivery_failed", key: "A", attempt: 7, error: "late" }).outcome.kind).toBe("duplicate");
    run.complete("A", 1);
    expect(run.send({ type: "delivery_failed", key: "A", attempt: 1, error: "late" }).outcome.kind).toBe("duplicate");
    expect(run.status("A")).toBe("completed");
  });
});

describe("Requirement 5: worker protocol, inbound callback", () => {
  it("5.3 a completed callback stores the output and marks the node completed", () => {
    const run = new PureRun(linear());
    run.start();
    const { changes, effects } = run.complete("A", { n: 1 });
    expect(changes.get("A")).toMatchObject({ status: "completed", output: { n: 1 }, error: null });
    expect(effects[0]).toEqual({ type: "cancel_dispatches", key: "A" });
  });

  it("5.4 a failed callback stores the error and marks the node failed; without an error it says so", () => {
    const run = new PureRun(linear());
    run.start();
    run.fail("A", "quota exceeded");
    expect(run.nodeStates().A).toEqual({ status: "failed", output: null, error: "quota exceeded" });
    const other = new PureRun(linear());
    other.start();
    other.send({ type: "callback", key: "A", status: "failed" });
    expect(other.row("A").error).toMatch(/without an error message/);
    const blank = new PureRun(linear());
    blank.start();
    blank.fail("A", "  ");
    expect(blank.row("A").error).toMatch(/without an error message/);
  });

  it("5.5 a completion fires the downstream nodes; a failure fires nothing", () => {
    const run = new PureRun(linear());
    run.start();
    expect(run.complete("A", "out").followUps).toEqual([{ type: "completed", key: "A" }, { type: "fire", key: "B" }]);
    expect(run.status("B")).toBe("running");
    const failing = new PureRun(linear());
    failing.start();
    const failed = failing.fail("A");
    expect(failed.followUps).toEqual([]);
    expect(failed.effects.filter((e) => e.type === "dispatch")).toEqual([]);
  });

  it("5.6/5.7 a callback for a node the run does not have is refused as not_found", () => {
    const run = new PureRun(linear());
    run.start();
    expect(run.send({ type: "callback", key: "Z", status: "completed" }).outcome).toMatchObject({ kind: "rejected", code: "not_found" });
  });

  it("a repeated callback is a duplicate that changes nothing and fires nothing", () => {
    const run = new PureRun(linear());
    run.start();
    run.complete("A", "first");
    const again = run.complete("A", "second");
    expect(again.outcome.kind).toBe("duplicate");
    expect(again.changes.size).toBe(0);
    expect(again.effects).toEqual([]);
    expect(run.row("A").output).toBe("first");
    expect(run.dispatchesOf("B")).toHaveLength(1);
    run.fail("B");
    expect(run.fail("B").outcome.kind).toBe("duplicate");
  });

  it("a callback that contradicts the stored status is a conflict (a failed node must be retried first)", () => {
    const run = new PureRun(linear());
    run.start();
    run.fail("A");
    const late = run.complete("A", "late");
    expect(late.outcome).toMatchObject({ kind: "rejected", code: "conflict", message: expect.stringMatching(/retry the node first/) });
    const pending = run.send({ type: "callback", key: "B", status: "completed" });
    expect(pending.outcome).toMatchObject({ kind: "rejected", code: "conflict" });
  });

  it("a callback echoing an older attempt is a duplicate; only Worker nodes take callbacks", () => {
    const run = new PureRun(linear());
    run.start();
    run.fail("A");
    run.send({ type: "retry", key: "A" });
    expect(run.row("A").attempt).toBe(2);
    expect(run.send({ type: "callback", key: "A", status: "completed", output: "stale", attempt: 1 }).outcome.kind).toBe("duplicate");
    expect(run.status("A")).toBe("running");
    expect(run.send({ type: "callback", key: "A", status: "completed", output: "fresh", attempt: 2 }).outcome.kind).toBe("applied");
    expect(run.send({ type: "callback", key: "U", status: "completed" }).outcome).toMatchObject({ kind: "rejected", code: "conflict" });
  });
});

describe("Requirement 6: Splitter", () => {
  it("6.1/6.3 fires the downstream node once per element, each with its element as input", () => {
    const run = new PureRun(splitFlow());
    run.start();
    run.complete("In", { items: ["A", "B", "C"] });
    expect(run.dispatches.slice(1).map((d) => [d.key, d.payload.input])).toEqual([["W_0", "A"], ["W_1", "B"], ["W_2", "C"]]);
  });

  it("6.2 reads the array through the configured property path", () => {
    const run = new PureRun(splitFlow("result.rows"));
    run.start();
    run.complete("In", { result: { rows: [{ id: 1 }, { id: 2 }] } });
    expect(run.row("S")).toMatchObject({ status: "completed", output: [{ id: 1 }, { id: 2 }] });
    expect(run.dispatchesOf("W_1")[0]!.payload.input).toEqual({ id: 2 });
  });

  it("6.2 fails the Splitter, naming the path and what it found, when the input has no array there", () => {
    const run = new PureRun(splitFlow());
    run.start();
    run.complete("In", { items: "not a list" });
    expect(run.nodeStates().S).toEqual({ status: "failed", output: null, error: 'Splitter "S" expected an array at "items" of its input, found a string' });
    expect(run.status("C")).toBe("pending");
    expect(run.dispatches).toHaveLength(1);
  });

  it("6.4 tracks each path as nodeId_<index>; the graph-level row says the node was split", () => {
    const run = new PureRun(splitFlow());
    run.start();
    run.complete("In", { items: [10, 20, 30] });
    const states = run.nodeStates();
    expect(Object.keys(states).filter((k) => k.startsWith("W")).sort()).toEqual(["W", "W_0", "W_1", "W_2"]);
    expect(states.W!.status).toBe("split");
    expect(run.dispatches.map((d) => d.payload.callbackUrl.split("/").pop())).toEqual(["In", "W_0", "W_1", "W_2"]);
  });

  it("6.5 stores each path's state independently", () => {
    const run = new PureRun(splitFlow());
    run.start();
    run.complete("In", { items: [1, 2, 3] });
    run.complete("W_1", "one");
    run.fail("W_2", "bad item");
    expect(run.nodeStates()).toMatchObject({
      W_0: { status: "running", output: null },
      W_1: { status: "completed", output: "one" },
      W_2: { status: "failed", error: "bad item" },
    });
  });

  it("6.6 an empty array completes the Splitter, skips its paths and gives the Collector []", () => {
    const run = new PureRun(splitFlow());
    run.start();
    run.complete("In", { items: [] });
    expect(run.nodeStates()).toMatchObject({
      S: { status: "completed", output: [] },
      W: { status: "skipped" },
      C: { status: "completed", output: [] },
      After: { status: "running" },
    });
    expect(run.dispatchesOf("After")[0]!.payload.input).toEqual([]);
  });

  it("6.6 an empty array at the run's start (Splitter as entry node) also reaches the Collector", () => {
    const run = new PureRun(graphOf([splitterNode("S"), workerNode("W", hook), collectorNode("C")], chain("S", "W", "C")), { items: [] });
    run.start();
    expect(run.nodeStates()).toMatchObject({ S: { status: "completed" }, W: { status: "skipped" }, C: { status: "completed", output: [] } });
  });

  it("runs a path of several nodes between Splitter and Collector, each step per path", () => {
    const graph = graphOf([splitterNode("S"), workerNode("A", hook), workerNode("B", hook), uxNode("U"), collectorNode("C")], chain("S", "A", "B", "U", "C"));
    const run = new PureRun(graph, { items: ["x", "y"] });
    run.start();
    run.complete("A_1", "a1");
    expect(run.dispatchesOf("B_1")[0]!.payload.input).toBe("a1");
    expect(run.status("B_0")).toBe("pending");
    run.complete("B_1", "b1");
    expect(run.row("U_1")).toMatchObject({ status: "waiting_for_user", input: "b1" });
    run.complete("A_0", "a0");
    run.complete("B_0", "b0");
    run.send({ type: "complete", key: "U_1", output: "u1" });
    expect(run.status("C")).toBe("pending");
    run.send({ type: "complete", key: "U_0", output: "u0" });
    expect(run.row("C")).toMatchObject({ status: "completed", output: ["u0", "u1"] });
  });

  it("runs nested splitters, keyed nodeId_<outer>_<inner>, and collects inside out", () => {
    const graph = graphOf(
      [splitterNode("S1", "groups"), splitterNode("S2", "members"), workerNode("W", hook), collectorNode("C2"), collectorNode("C1"), workerNode("After", otherHook)],
      chain("S1", "S2", "W", "C2", "C1", "After"),
    );
    const run = new PureRun(graph, { groups: [{ members: ["a", "b"] }, { members: [] }, { members: ["c"] }] });
    run.start();
    expect(run.dispatches.map((d) => [d.key, d.payload.input])).toEqual([["W_0_0", "a"], ["W_0_1", "b"], ["W_2_0", "c"]]);
    expect(run.nodeStates()).toMatchObject({ S2: { status: "split" }, C2: { status: "split" }, W: { status: "split" }, C2_1: { status: "completed", output: [] } });
    run.complete("W_2_0", "C!");
    expect(run.row("C2_2")).toMatchObject({ status: "completed", output: ["C!"] });
    expect(run.status("C1")).toBe("pending");
    run.complete("W_0_1", "B!");
    run.complete("W_0_0", "A!");
    expect(run.row("C1")).toMatchObject({ status: "completed", output: [["A!", "B!"], [], ["C!"]] });
    expect(run.dispatchesOf("After")).toHaveLength(1);
    expect(run.dispatchesOf("After")[0]!.payload.input).toEqual([["A!", "B!"], [], ["C!"]]);
  });
});

describe("Requirement 7: Collector", () => {
  const started = (items: unknown[]) => {
    const run = new PureRun(splitFlow());
    run.start();
    run.complete("In", { items });
    return run;
  };

  it("7.1/7.2 waits for every path; it does not run while any path is unfinished", () => {
    const run = started(["a", "b", "c"]);
    run.complete("W_0", 0);
    run.complete("W_2", 2);
    expect(run.status("C")).toBe("pending");
    expect(run.dispatchesOf("After")).toHaveLength(0);
  });

  it("7.3/7.4/7.5 merges the outputs into an array in the Splitter's order, whatever the completion order", () => {
    const run = started(["a", "b", "c", "d"]);
    for (const k of [3, 1, 0, 2]) run.complete(`W_${k}`, `out-${k}`);
    expect(run.nodeStates().C).toEqual({ status: "completed", output: ["out-0", "out-1", "out-2", "out-3"] });
    expect(run.dispatchesOf("After")).toHaveLength(1);
    expect(run.dispatchesOf("After")[0]!.payload.input).toEqual(["out-0", "out-1", "out-2", "out-3"]);
  });

  it("7.6 a failed path fails the Collector and nothing downstream fires, even when the other paths finish", () => {
    const run = started(["a", "b", "c"]);
    run.fail("W_1", "bad b");
    expect(run.nodeStates().C).toMatchObject({ status: "failed", error: 'path "W_1" failed' });
    run.complete("W_0", 0);
    run.complete("W_2", 2);
    expect(run.status("C")).toBe("failed");
    expect(run.dispatchesOf("After")).toHaveLength(0);
  });

  it("7.6 retrying the failed path lets the Collector complete once that path completes", () => {
    const run = started(["a", "b", "c"]);
    run.complete("W_0", 0);
    run.fail("W_1");
    run.complete("W_2", 2);
    run.send({ type: "retry", key: "W_1" });
    expect(run.status("C")).toBe("pending");
    expect(run.dispatchesOf("W_1")).toHaveLength(2);
    run.complete("W_1", 1);
    expect(run.row("C")).toMatchObject({ status: "completed", output: [0, 1, 2] });
    expect(run.dispatchesOf("After")).toHaveLength(1);
  });

  it("7.6 with two failed paths the Collector stays failed until both are recovered", () => {
    const run = started(["a", "b"]);
    run.fail("W_0");
    run.fail("W_1");
    run.send({ type: "retry", key: "W_0" });
    expect(run.status("C")).toBe("failed");
    run.complete("W_0", 0);
    run.send({ type: "retry", key: "W_1" });
    expect(run.status("C")).toBe("pending");
    run.complete("W_1", 1);
    expect(run.row("C").output).toEqual([0, 1]);
  });

  it("a failure in a nested path fails both collectors; its retry completes both", () => {
    const graph = graphOf([splitterNode("S1", "groups"), splitterNode("S2", ""), workerNode("W", hook), collectorNode("C2"), collectorNode("C1")], chain("S1", "S2", "W", "C2", "C1"));
    const run = new PureRun(graph, { groups: [["a"], ["b", "c"]] });
    run.start();
    run.fail("W_1_1");
    expect(run.nodeStates()).toMatchObject({ C2_1: { status: "failed" }, C1: { status: "failed", error: 'path "C2_1" failed' } });
    run.complete("W_0_0", "A");
    run.complete("W_1_0", "B");
    run.send({ type: "retry", key: "W_1_1" });
    expect(run.nodeStates()).toMatchObject({ C2_1: { status: "pending" }, C1: { status: "pending" } });
    run.complete("W_1_1", "C");
    expect(run.row("C1").output).toEqual([["A"], ["B", "C"]]);
  });

  it("merges the Splitter's element with the path's output when both feed the Collector", () => {
    const graph = graphOf([splitterNode("S"), workerNode("W", hook), collectorNode("C")], chain("S", "W", "C"), chain("S", "C"));
    const run = new PureRun(graph, { items: [{ id: 1 }, { id: 2 }] });
    run.start();
    run.complete("W_1", { score: 20 });
    run.complete("W_0", { score: 10 });
    expect(run.row("C").output).toEqual([{ id: 1, score: 10 }, { id: 2, score: 20 }]);
  });

  it("a side branch of a path that fails after the Collector ran does not fire the Collector's downstream again", () => {
    // S -> W -> C -> After, and W -> Side inside the path: C gathers W only, so it may finish before Side does.
    const graph = graphOf(
      [splitterNode("S"), workerNode("W", hook), workerNode("Side", hook), collectorNode("C"), workerNode("After", otherHook)],
      chain("S", "W", "C", "After"), chain("W", "Side"),
    );
    const run = new PureRun(graph, { items: ["a", "b"] });
    run.start();
    run.complete("W_0", 0);
    run.complete("W_1", 1);
    expect(run.row("C")).toMatchObject({ status: "completed", output: [0, 1] });
    expect(run.dispatchesOf("After")).toHaveLength(1);
    run.fail("Side_0", "side effect failed");
    expect(run.row("C")).toMatchObject({ status: "completed", output: [0, 1] });
    run.send({ type: "retry", key: "Side_0" });
    run.complete("Side_0", "ok");
    run.complete("Side_1", "ok");
    expect(run.dispatchesOf("After")).toHaveLength(1);
    expect(run.status("C")).toBe("completed");
  });
});

describe("Requirement 8: UX node (human gate)", () => {
  const gated = () => graphOf([workerNode("A", hook), uxNode("U"), workerNode("B", otherHook)], chain("A", "U", "B"));

  it("8.1 a fired UX node waits for the user, with its upstream output as input", () => {
    const run = new PureRun(gated());
    run.start();
    run.complete("A", { draft: 1 });
    expect(run.row("U")).toMatchObject({ status: "waiting_for_user", input: { draft: 1 } });
  });

  it("8.2 nothing downstream fires while it waits", () => {
    const run = new PureRun(gated());
    run.start();
    run.complete("A", 1);
    expect(run.status("B")).toBe("pending");
    expect(run.dispatchesOf("B")).toEqual([]);
  });

  it("8.4/8.5 completing it stores the person's input as output and fires downstream", () => {
    const run = new PureRun(gated());
    run.start();
    run.complete("A", 1);
    const done = run.send({ type: "complete", key: "U", output: { approved: true, note: "ok" } });
    expect(done.changes.get("U")).toMatchObject({ status: "completed", output: { approved: true, note: "ok" } });
    expect(run.dispatchesOf("B")[0]!.payload.input).toEqual({ approved: true, note: "ok" });
  });

  it("the same completion again is a duplicate, a different one a conflict; completing a node that is not waiting is a conflict", () => {
    const run = new PureRun(gated());
    run.start();
    expect(run.send({ type: "complete", key: "U", output: 1 }).outcome).toMatchObject({ kind: "rejected", code: "conflict" });
    expect(run.send({ type: "complete", key: "A", output: 1 }).outcome).toMatchObject({ kind: "rejected", code: "conflict", message: expect.stringMatching(/only UX nodes/) });
    run.complete("A", 1);
    run.send({ type: "complete", key: "U", output: { choice: "first", n: 1 } });
    // The same input (key order does not count: JSONB keeps none) is a repeat; a different one is refused, not dropped.
    expect(run.send({ type: "complete", key: "U", output: { n: 1, choice: "first" } }).outcome.kind).toBe("duplicate");
    const different = run.send({ type: "complete", key: "U", output: "second" });
    expect(different.outcome).toMatchObject({ kind: "rejected", code: "conflict", message: expect.stringMatching(/already completed with another input/) });
    expect(run.row("U").output).toEqual({ choice: "first", n: 1 });
    expect(run.dispatchesOf("B")).toHaveLength(1);
  });
});

describe("Requirement 9: edge-walking", () => {
  const diamond = () =>
    graphOf([workerNode("A", hook), workerNode("B", hook), workerNode("C", hook), workerNode("J", otherHook)], chain("A", "B", "J"), chain("A", "C", "J"));

  it("9.1/9.2 a completion fires every target of the node's outbound edges", () => {
    const run = new PureRun(diamond());
    run.start();
    const { effects } = run.complete("A", { a: 1 });
    expect(effects.filter((e) => e.type === "dispatch").map((e) => e.key)).toEqual(["B", "C"]);
  });

  it("9.3/9.4 a target fires only once all of its upstream nodes are completed, and only once", () => {
    const run = new PureRun(diamond());
    run.start();
    run.complete("A", {});
    run.complete("B", { b: 1 });
    expect(run.status("J")).toBe("pending");
    run.complete("C", { c: 2 });
    expect(run.status("J")).toBe("running");
    expect(run.dispatchesOf("J")).toHaveLength(1);
  });

  it("9.5 the input merges the outputs of all upstream nodes", () => {
    const run = new PureRun(diamond());
    run.start();
    run.complete("A", {});
    run.complete("C", { c: 2, shared: "from C" });
    run.complete("B", { b: 1, shared: "from B" });
    // Objects merge shallowly in edge order (B's edge comes first, so C wins a shared key).
    expect(run.dispatchesOf("J")[0]!.payload.input).toEqual({ b: 1, c: 2, shared: "from C" });
  });

  it("9.5 one upstream passes its output as is; non-object outputs are keyed by node id", () => {
    expect(mergeInputs([{ from: "A", value: [1, 2] }])).toEqual([1, 2]);
    expect(mergeInputs([{ from: "A", value: { x: 1 } }, { from: "B", value: { y: 2 } }])).toEqual({ x: 1, y: 2 });
    expect(mergeInputs([{ from: "A", value: "text" }, { from: "B", value: { y: 2 } }])).toEqual({ A: "text", B: { y: 2 } });
  });

  it("9.6 a node is marked running in the same step that dispatches it", () => {
    const run = new PureRun(diamond());
    run.start();
    const { changes, effects } = run.complete("A", {});
    for (const effect of effects.filter((e) => e.type === "dispatch")) {
      expect(changes.get(effect.key)).toMatchObject({ status: "running", attempt: effect.attempt });
    }
  });

  it("9.7 a terminal node's completion fires nothing", () => {
    const run = new PureRun(graphOf([workerNode("Only", hook)]));
    run.start();
    const done = run.complete("Only", "x");
    expect(done.followUps).toEqual([{ type: "completed", key: "Only" }]);
    expect(done.effects).toEqual([{ type: "cancel_dispatches", key: "Only" }]);
  });

  it("several entry nodes each receive the run's input", () => {
    const run = new PureRun(graphOf([workerNode("A", hook), workerNode("B", hook)]), { q: 1 });
    run.start();
    expect(run.dispatches.map((d) => [d.key, d.payload.input])).toEqual([["A", { q: 1 }], ["B", { q: 1 }]]);
  });
});

describe("Requirement 10: manual retry", () => {
  it("10.2/10.3/10.4 a failed node is reset to pending, re-evaluated and fired again with its upstream input", () => {
    const run = new PureRun(linear(), { topic: "t" });
    run.start();
    run.complete("A", { draft: 1 });
    run.fail("B", "timeout");
    const retried = run.send({ type: "retry", key: "B" });
    expect(retried.followUps[0]).toEqual({ type: "fire", key: "B" });
    expect(retried.changes.get("B")).toMatchObject({ status: "running", error: null, attempt: 2 });
    expect(run.dispatchesOf("B").map((d) => [d.attempt, d.payload.input])).toEqual([[1, { draft: 1 }], [2, { draft: 1 }]]);
  });

  it("10.3 a retried Collector waits (pending) while its failed path has not been retried", () => {
    const run = new PureRun(splitFlow());
    run.start();
    run.complete("In", { items: [1, 2] });
    run.fail("W_0");
    run.complete("W_1", 1);
    run.send({ type: "retry", key: "C" });
    expect(run.status("C")).toBe("pending");
    expect(run.dispatchesOf("After")).toHaveLength(0);
    run.send({ type: "retry", key: "W_0" });
    run.complete("W_0", 0);
    expect(run.row("C").output).toEqual([0, 1]);
    expect(run.dispatchesOf("After")).toHaveLength(1);
  });

  it("10.5 retrying a node that is not failed is refused as bad_request", () => {
    const run = new PureRun(linear());
    run.start();
    for (const key of ["A", "B"]) {
      expect(run.send({ type: "retry", key }).outcome).toMatchObject({ kind: "rejected", code: "bad_request", message: expect.stringMatching(/only failed nodes can be retried/) });
    }
  });

  it("a path is retried by its key; the graph-level row of a split node is refused with the key to use", () => {
    const run = new PureRun(splitFlow());
    run.start();
    run.complete("In", { items: [1] });
    expect(run.send({ type: "retry", key: "W" }).outcome).toMatchObject({ kind: "rejected", code: "conflict", message: expect.stringContaining('"W_0"') });
  });
});

describe("review gates (UX node with data.gate \"review\" after a Worker)", () => {
  const reviewed = () => graphOf([workerNode("Writer", hook), reviewGate("Review"), workerNode("Publish", otherHook)], chain("Writer", "Review", "Publish"));
  const waiting = () => {
    const run = new PureRun(reviewed(), { brief: "b" });
    run.start();
    run.complete("Writer", "draft 1");
    return run;
  };

  it("waits for review with the worker's output", () => {
    expect(waiting().row("Review")).toMatchObject({ status: "waiting_for_user", input: "draft 1" });
  });

  it("approve completes the gate with the reviewed output and fires downstream", () => {
    const run = waiting();
    run.send({ type: "review", key: "Review", decision: "approve" });
    expect(run.row("Review")).toMatchObject({ status: "completed", output: "draft 1" });
    expect(run.dispatchesOf("Publish")[0]!.payload.input).toBe("draft 1");
    expect(run.send({ type: "review", key: "Review", decision: "approve" }).outcome.kind).toBe("duplicate");
    expect(run.send({ type: "review", key: "Review", decision: "reject", feedback: "late" }).outcome).toMatchObject({ kind: "rejected", code: "conflict" });
  });

  it("approve with the reviewer's edited output completes the gate with it: the nodes after it read the edit", () => {
    const run = waiting();
    run.send({ type: "review", key: "Review", decision: "approve", output: "draft 1, edited" });
    expect(run.row("Review")).toMatchObject({ status: "completed", output: "draft 1, edited" });
    expect(run.dispatchesOf("Publish")[0]!.payload.input).toBe("draft 1, edited");
  });

  it("a request for changes with the reviewer's edited output has the Worker revise her version (previousOutput)", () => {
    const run = waiting();
    run.send({ type: "review", key: "Review", decision: "reject", feedback: "shorter", output: "draft 1, edited" });
    expect(run.dispatchesOf("Writer")[1]!.payload.feedback).toEqual({ text: "shorter", previousOutput: "draft 1, edited", round: 1 });
  });

  it("an approval gate approved with an edited output replaces the output of the one step before it, which later nodes read", () => {
    const approval = new PureRun(graphOf([workerNode("A", hook), uxNode("G", { gate: "approval" }), workerNode("B", otherHook)], chain("A", "G", "B")));
    approval.start();
    approval.complete("A", "draft");
    expect(approval.send({ type: "review", key: "G", decision: "reject", feedback: "no", output: "mine" }).outcome).toMatchObject({ kind: "rejected", code: "bad_request" });
    const approved = approval.send({ type: "review", key: "G", decision: "approve", output: "draft, edited" });
    expect(approved.changes.get("A")).toMatchObject({ status: "completed", output: "draft, edited" });
    expect(approval.row("G")).toMatchObject({ status: "completed", output: "" });
    expect(approval.status("B")).toBe("running");
  });

  it("no edited output where there is no one output to replace: an approval gate after two steps, a plain UX node (bad_request)", () => {
    const two = new PureRun(graphOf([workerNode("A", hook), workerNode("B", otherHook), uxNode("G", { gate: "approval" })], chain("A", "G"), chain("B", "G")));
    two.start();
    two.complete("A", 1);
    two.complete("B", 2);
    expect(two.send({ type: "review", key: "G", decision: "approve", output: 3 }).outcome).toMatchObject({ kind: "rejected", code: "bad_request" });
    expect(two.status("G")).toBe("waiting_for_user");
    const plain = new PureRun(graphOf([workerNode("A", hook), uxNode("U")], chain("A", "U")));
    plain.start();
    plain.complete("A", 1);
    expect(plain.send({ type: "review", key: "U", decision: "approve", output: 2 }).outcome).toMatchObject({ kind: "rejected", code: "bad_request" });
  });

  it("reject fires the worker again with feedback {text, previousOutput, round}; the new output waits for review again", () => {
    const run = waiting();
    const rejected = run.send({ type: "review", key: "Review", decision: "reject", feedback: "shorter please" });
    expect(rejected.changes.get("Review")!.status).toBe("pending");
    expect(run.dispatchesOf("Writer")[1]!.payload).toMatchObject({ input: { brief: "b" }, attempt: 2, feedback: { text: "shorter please", previousOutput: "draft 1", round: 1 } });
    expect(run.status("Writer")).toBe("running");
    run.complete("Writer", "draft 2");
    expect(run.row("Review")).toMatchObject({ status: "waiting_for_user", input: "draft 2" });
    run.send({ type: "review", key: "Review", decision: "reject", feedback: "again" });
    expect(run.dispatchesOf("Writer")[2]!.payload.feedback).toEqual({ text: "again", previousOutput: "draft 2", round: 2 });
    run.complete("Writer", "draft 3");
    run.send({ type: "review", key: "Review", decision: "approve" });
    expect(run.dispatchesOf("Publish").map((d) => d.payload.input)).toEqual(["draft 3"]);
  });

  it("feedback survives a failure of the re-run: a retry sends it again, and it is gone once answered", () => {
    const run = waiting();
    run.send({ type: "review", key: "Review", decision: "reject", feedback: "cite sources" });
    run.send({ type: "callback", key: "Writer", status: "failed", error: "agent crashed" });
    run.send({ type: "retry", key: "Writer" });
    expect(run.dispatchesOf("Writer")[2]!.payload.feedback).toEqual({ text: "cite sources", previousOutput: "draft 1", round: 1 });
    run.complete("Writer", "draft 2");
    expect(run.row("Writer").feedback).toBeNull();
    run.send({ type: "review", key: "Review", decision: "approve" });
    expect(run.row("Review")).toMatchObject({ status: "completed", output: "draft 2" });
  });

  it("a review gate is decided by review only: /complete on it is a conflict", () => {
    const run = waiting();
    expect(run.send({ type: "complete", key: "Review", output: { anything: true } }).outcome).toMatchObject({ kind: "rejected", code: "conflict" });
    expect(run.status("Review")).toBe("waiting_for_user");
  });

  it("reject without feedback is refused; review of a node that is no review gate is a conflict", () => {
    const run = waiting();
    expect(run.send({ type: "review", key: "Review", decision: "reject", feedback: "  " }).outcome).toMatchObject({ kind: "rejected", code: "bad_request" });
    expect(run.status("Review")).toBe("waiting_for_user");
    const plain = new PureRun(graphOf([workerNode("A", hook), uxNode("U")], chain("A", "U")));
    plain.start();
    plain.complete("A", 1);
    expect(plain.send({ type: "review", key: "U", decision: "approve" }).outcome).toMatchObject({ kind: "rejected", code: "conflict" });
  });

  it("a review gate inside a splitter path reviews each path on its own", () => {
    const graph = graphOf([splitterNode("S"), workerNode("Writer", hook), reviewGate("Review"), collectorNode("C")], chain("S", "Writer", "Review", "C"));
    const run = new PureRun(graph, { items: ["x", "y"] });
    run.start();
    run.complete("Writer_0", "x1");
    run.complete("Writer_1", "y1");
    run.send({ type: "review", key: "Review_1", decision: "reject", feedback: "more y" });
    expect(run.dispatchesOf("Writer_1")[1]!.payload.feedback).toEqual({ text: "more y", previousOutput: "y1", round: 1 });
    run.send({ type: "review", key: "Review_0", decision: "approve" });
    expect(run.status("C")).toBe("pending");
    run.complete("Writer_1", "y2");
    run.send({ type: "review", key: "Review_1", decision: "approve" });
    expect(run.row("C").output).toEqual(["x1", "y2"]);
  });
});

describe("per-node timeouts (Worker data.timeoutMs)", () => {
  const timed = () => graphOf([workerNode("W", hook, { timeoutMs: 5000 }), workerNode("N", otherHook)], chain("W", "N"));

  it("firing schedules a timeout for the attempt; a callback in time cancels it", () => {
    const run = new PureRun(timed());
    const started = run.start();
    expect(started.effects).toContainEqual({ type: "schedule_timeout", key: "W", attempt: 1, afterMs: 5000 });
    expect(run.complete("W", "ok").effects).toContainEqual({ type: "cancel_dispatches", key: "W" });
    expect(run.send({ type: "timeout", key: "W", attempt: 1, afterMs: 5000 }).outcome.kind).toBe("duplicate");
    expect(run.status("N")).toBe("running");
  });

  it("a timeout of the current attempt fails the node with the reason; one of an earlier attempt changes nothing", () => {
    const run = new PureRun(timed());
    run.start();
    const timedOut = run.send({ type: "timeout", key: "W", attempt: 1, afterMs: 5000 });
    expect(timedOut.outcome.kind).toBe("applied");
    expect(run.row("W")).toMatchObject({ status: "failed", error: "the worker did not call back within 5000 ms (attempt 1)" });
    expect(timedOut.effects).toContainEqual({ type: "cancel_dispatches", key: "W" });
    run.send({ type: "retry", key: "W" });
    expect(run.send({ type: "timeout", key: "W", attempt: 1, afterMs: 5000 }).outcome.kind).toBe("duplicate");
    expect(run.row("W")).toMatchObject({ status: "running", attempt: 2 });
  });
});

describe("automatic retry (Worker data.retry)", () => {
  const retried = (retry: unknown, extra: Record<string, unknown> = {}) =>
    graphOf([workerNode("W", hook, { retry, ...extra }), workerNode("Next", otherHook)], chain("W", "Next"));

  it("a failed attempt with attempts left keeps the node running, says when the next comes, and schedules it with doubling backoff", () => {
    const run = new PureRun(retried({ maxAttempts: 3, backoffMs: 500 }));
    run.start();
    const first = run.fail("W", "HTTP 503 from the model");
    expect(first.outcome.kind).toBe("applied");
    expect(run.row("W")).toMatchObject({ status: "running", attempt: 1, error: "attempt 1 failed: HTTP 503 from the model; attempt 2 of 3 in 500 ms" });
    expect(first.effects).toEqual([{ type: "cancel_dispatches", key: "W" }, { type: "schedule_retry", key: "W", attempt: 1, afterMs: 500 }]);
    expect(first.followUps).toEqual([]);

    const due = run.send({ type: "retry_due", key: "W", attempt: 1 });
    expect(due.outcome.kind).toBe("applied");
    expect(run.row("W")).toMatchObject({ status: "running", attempt: 2, error: null });
    expect(run.dispatchesOf("W").map((d) => d.payload.attempt)).toEqual([1, 2]);

    run.send({ type: "delivery_failed", key: "W", attempt: 2, error: "could not deliver: HTTP 502" });
    expect(run.row("W").error).toBe("attempt 2 failed: could not deliver: HTTP 502; attempt 3 of 3 in 1000 ms");
    run.send({ type: "retry_due", key: "W", attempt: 2 });
    run.send({ type: "timeout", key: "W", attempt: 3, afterMs: 100 });
    expect(run.row("W")).toMatchObject({ status: "failed", attempt: 3, error: "the worker did not call back within 100 ms (attempt 3) (after 3 attempts)" });
    expect(run.dispatchesOf("Next")).toEqual([]);
  });

  it("a success on a later attempt completes the node and fires what follows", () => {
    const run = new PureRun(retried({ maxAttempts: 2 }));
    run.start();
    run.fail("W", "flaky");
    expect(run.row("W").error).toBe("attempt 1 failed: flaky; attempt 2 of 2 in 1000 ms");
    run.send({ type: "retry_due", key: "W", attempt: 1 });
    run.complete("W", "ok");
    expect(run.row("W")).toMatchObject({ status: "completed", output: "ok", error: null });
    expect(run.dispatchesOf("Next")).toHaveLength(1);
  });

  it("between attempts: a repeated failure, a late timer or delivery failure, and a stale retry timer change nothing; a completion is still taken", () => {
    const run = new PureRun(retried({ maxAttempts: 3, backoffMs: 10 }));
    run.start();
    run.fail("W", "first");
    expect(run.fail("W", "first").outcome.kind).toBe("duplicate");
    expect(run.send({ type: "timeout", key: "W", attempt: 1, afterMs: 5 }).outcome.kind).toBe("duplicate");
    expect(run.send({ type: "delivery_failed", key: "W", attempt: 1, error: "x" }).outcome.kind).toBe("duplicate");
    expect(run.send({ type: "retry_due", key: "W", attempt: 0 }).outcome.kind).toBe("duplicate");
    const late = run.complete("W", "the first attempt finished after all");
    expect(late.outcome.kind).toBe("applied");
    expect(late.effects).toContainEqual({ type: "cancel_dispatches", key: "W" });
    expect(run.row("W")).toMatchObject({ status: "completed", error: null });
    expect(run.send({ type: "retry_due", key: "W", attempt: 1 }).outcome.kind).toBe("duplicate");
  });

  it("a manual retry after the budget is spent starts a fresh budget", () => {
    const run = new PureRun(retried({ maxAttempts: 2, backoffMs: 0 }));
    run.start();
    run.fail("W", "a");
    run.send({ type: "retry_due", key: "W", attempt: 1 });
    run.fail("W", "b");
    expect(run.row("W")).toMatchObject({ status: "failed", attempt: 2, error: "b (after 2 attempts)" });
    run.send({ type: "retry", key: "W" });
    expect(run.row("W")).toMatchObject({ status: "running", attempt: 3, retryFrom: 3 });
    run.fail("W", "c");
    expect(run.row("W")).toMatchObject({ status: "running", error: "attempt 3 failed: c; attempt 4 of 4 in 0 ms" });
  });

  it("a path between attempts does not fail its collector", () => {
    const graph = graphOf(
      [workerNode("In", hook), splitterNode("S"), workerNode("W", hook, { retry: { maxAttempts: 2 } }), collectorNode("C")],
      chain("In", "S", "W", "C"),
    );
    const run = new PureRun(graph);
    run.start();
    run.complete("In", { items: [1, 2] });
    run.fail("W_0", "flaky");
    expect(run.row("C")).toMatchObject({ status: "pending", pathFailed: 0 });
    run.send({ type: "retry_due", key: "W_0", attempt: 1 });
    run.complete("W_0", "a");
    run.complete("W_1", "b");
    expect(run.row("C")).toMatchObject({ status: "completed", output: ["a", "b"] });
  });

  it("without data.retry a failure fails the node at once, as before", () => {
    const run = new PureRun(retried(undefined));
    run.start();
    run.fail("W", "boom");
    expect(run.row("W")).toMatchObject({ status: "failed", error: "boom" });
  });
});

describe("run cancellation", () => {
  it("stops every unfinished node, splitter paths included, and drops the outbox rows of running ones; finished nodes keep their results", () => {
    const run = new PureRun(splitFlow(), { items: ["a", "b", "c"] });
    run.start();
    run.complete("In", { items: ["a", "b", "c"] });
    run.complete("W_0", "A");
    run.fail("W_1", "worker down");
    const cancelled = run.send({ type: "cancel", reason: "brief withdrawn" });
    expect(cancelled.outcome.kind).toBe("applied");
    expect(run.row("In")).toMatchObject({ status: "completed", output: { items: ["a", "b", "c"] } });
    expect(run.row("W_0")).toMatchObject({ status: "completed", output: "A" });
    expect(run.row("W_1")).toMatchObject({ status: "cancelled", error: "cancelled: brief withdrawn (it had failed: worker down)" });
    expect(run.row("W_2")).toMatchObject({ status: "cancelled", error: "cancelled: brief withdrawn" });
    for (const key of ["W", "C", "After"]) expect(run.status(key)).toBe("cancelled");
    expect(cancelled.effects).toEqual([{ type: "cancel_dispatches", key: "W_2" }]);
    expect(cancelled.followUps).toEqual([]);
  });

  it("after it, nothing moves: a late callback is a conflict, a retry finds nothing failed, a repeated cancel is a duplicate", () => {
    const run = new PureRun(linear());
    run.start();
    run.send({ type: "cancel" });
    expect(run.row("A")).toMatchObject({ status: "cancelled", error: "cancelled" });
    const late = run.complete("A", "too late");
    expect(late.outcome).toMatchObject({ kind: "rejected", code: "conflict" });
    expect(run.send({ type: "retry", key: "A" }).outcome).toMatchObject({ kind: "rejected", code: "bad_request" });
    expect(run.send({ type: "delivery_failed", key: "A", attempt: 1, error: "HTTP 500" }).outcome.kind).toBe("duplicate");
    expect(run.send({ type: "cancel" }).outcome).toEqual({ kind: "duplicate", message: "the run is already cancelled" });
    expect(run.dispatchesOf("B")).toEqual([]);
  });

  it("a run that has finished has nothing to cancel", () => {
    const run = new PureRun(graphOf([workerNode("A", hook)]));
    run.start();
    run.complete("A", 1);
    expect(run.send({ type: "cancel" }).outcome).toMatchObject({ kind: "rejected", code: "conflict", message: "the run has finished; there is nothing to cancel" });
  });

  it("a review gate waiting for a person is cancelled like any other node", () => {
    const run = new PureRun(graphOf([workerNode("W", hook), reviewGate("R")], chain("W", "R")));
    run.start();
    run.complete("W", "draft");
    expect(run.status("R")).toBe("waiting_for_user");
    run.send({ type: "cancel", reason: "  " });
    expect(run.row("R")).toMatchObject({ status: "cancelled", error: "cancelled" });
    expect(run.send({ type: "review", key: "R", decision: "approve" }).outcome).toMatchObject({ kind: "rejected", code: "conflict" });
  });

  it("the run's status is cancelled from the cancellation on, whatever its counters say", () => {
    const zero = { running: 0, waiting: 0, failed: 0 };
    expect(runStatusAfter("running", { type: "cancel" }, zero)).toBe("cancelled");
    expect(runStatusAfter("cancelled", { type: "retry", key: "A" }, { ...zero, running: 1 })).toBe("cancelled");
    expect(runStatusAfter("running", { type: "retry", key: "A" }, { ...zero, failed: 1 })).toBe("failed");
  });
});

describe("run status bookkeeping", () => {
  it("moves the counters by a node's status change", () => {
    expect(countDelta(undefined, "running")).toEqual({ running: 1, waiting: 0, failed: 0 });
    expect(countDelta("running", "failed")).toEqual({ running: -1, waiting: 0, failed: 1 });
    expect(countDelta("waiting_for_user", "completed")).toEqual({ running: 0, waiting: -1, failed: 0 });
    expect(countDelta("pending", "split")).toEqual({ running: 0, waiting: 0, failed: 0 });
  });
  it("derives the run's status: running before waiting before failed before completed", () => {
    expect(runStatusOf({ running: 1, waiting: 1, failed: 1 })).toBe("running");
    expect(runStatusOf({ running: 0, waiting: 1, failed: 1 })).toBe("waiting_for_user");
    expect(runStatusOf({ running: 0, waiting: 0, failed: 2 })).toBe("failed");
    expect(runStatusOf({ running: 0, waiting: 0, failed: 0 })).toBe("completed");
  });
});

describe("restart: a Worker starts over from its input (an edited brief)", () => {
  const gated = () => graphOf([workerNode("A", hook), reviewGate("R"), workerNode("B", otherHook)], chain("A", "R", "B"));

  it("a running Worker is called anew as its next attempt, its old call's dispatches withdrawn", () => {
    const run = new PureRun(gated(), { brief: "v1" });
    run.start();
    const restarted = run.send({ type: "restart", key: "A" });
    expect(restarted.outcome).toEqual({ kind: "applied" });
    expect(restarted.effects).toEqual(expect.arrayContaining([{ type: "cancel_dispatches", key: "A" }, expect.objectContaining({ type: "dispatch", key: "A", attempt: 2 })]));
    expect(run.row("A")).toMatchObject({ status: "running", attempt: 2 });
    // The answer to the first call is refused by its attempt; the second call's is taken.
    expect(run.send({ type: "callback", key: "A", status: "completed", output: "old", attempt: 1 }).outcome.kind).not.toBe("applied");
    expect(run.send({ type: "callback", key: "A", status: "completed", output: "new", attempt: 2 }).outcome).toEqual({ kind: "applied" });
    expect(run.status("R")).toBe("waiting_for_user");
  });

  it("an output waiting at the gate after it is set aside (the gate pending again); once the gate is decided, it is refused", () => {
    const run = new PureRun(gated(), { brief: "v1" });
    run.start();
    run.complete("A", "draft");
    expect(run.status("R")).toBe("waiting_for_user");
    expect(run.send({ type: "restart", key: "A" }).outcome).toEqual({ kind: "applied" });
    expect(run.status("R")).toBe("pending");
    expect(run.row("A")).toMatchObject({ status: "running", attempt: 2, feedback: null });
    run.complete("A", "second draft");
    run.send({ type: "review", key: "R", decision: "approve" });
    const refused = run.send({ type: "restart", key: "A" });
    expect(refused.outcome).toMatchObject({ kind: "rejected", code: "conflict" });
    expect(run.send({ type: "restart", key: "R" }).outcome).toMatchObject({ kind: "rejected", code: "bad_request" });
  });
});
