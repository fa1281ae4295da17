/**
 * The node spec (schemas.ts NodeSpec, compiled by graph.ts): every feature the engine acts on is read once from a
 * node's `data` when the graph is compiled, with its defaults; a bad value, or a feature on a node it does not apply
 * to, is refused naming the node; and `data` itself is left as it is for the worker's `config`. No database.
 */
import { describe, expect, it } from "vitest";
import { chain, collectorNode, graphOf, splitterNode, uxNode, workerNode } from "../testing/flows";
import { PureRun } from "../testing/pureRun";
import { GraphError, compileGraph, nodeSpecOf } from "./graph";
import type { NodeSpec, StitchNode } from "./schemas";

const hook = "https://worker.example.test/hook";
const at = { x: 0, y: 0 };
const node = (id: string, type: StitchNode["type"], data: Record<string, unknown>): StitchNode => ({ id, type, position: at, data });

/** What a node with none of the features compiles to. */
const plain: NodeSpec = { alwaysRun: false, captureResponse: false, precheck: false };

describe("the node spec: the features the engine acts on, compiled once with the graph", () => {
  it("compiles every feature from data, with its defaults, and leaves data as it is", () => {
    const nodes = [
      workerNode("W", hook, { protocol: "agent", timeoutMs: 5000, leaseMs: 60_000, retry: { maxAttempts: 3 }, alwaysRun: true, agent: "pm" }),
      node("L", "Worker", { executor: "workflow", loop: {}, triggerRule: "all_done", kind: "loop" }),
      node("I", "Worker", { executor: "workflow", loop: { interactive: true }, retry: { maxAttempts: 2, backoffMs: 0 } }),
      uxNode("R", { gate: "review" }),
      uxNode("A", { gate: "approval", executor: "workflow", precheck: true, captureResponse: true, triggerRule: "one_success" }),
      splitterNode("S", "result.rows"),
      collectorNode("C"),
    ];
    const g = compileGraph(graphOf(nodes, chain("W", "R", "L", "I", "A", "S", "C")));
    const specs = Object.fromEntries([...g.nodes].map(([id, n]) => [id, n.spec]));
    expect(specs).toEqual({
      W: { ...plain, webhookUrl: hook, protocol: "agent", timeoutMs: 5000, leaseMs: 60_000, retry: { maxAttempts: 3, backoffMs: 1000 }, alwaysRun: true },
      L: { ...plain, executor: "workflow", loop: { interactive: false }, triggerRule: "all_done" },
      I: { ...plain, executor: "workflow", loop: { interactive: true }, retry: { maxAttempts: 2, backoffMs: 0 } },
      R: { ...plain, gate: "review" },
      A: { ...plain, gate: "approval", executor: "workflow", precheck: true, captureResponse: true, triggerRule: "one_success" },
      S: { ...plain, arrayPath: "result.rows" },
      C: plain,
    } satisfies Record<string, NodeSpec>);
    // The front doors' tags and the features stay in data, untouched by compilation (no defaults written into it).
    expect(g.nodes.get("W")!.data).toEqual(nodes[0]!.data);
    expect(g.nodes.get("L")!.data).toEqual({ executor: "workflow", loop: {}, triggerRule: "all_done", kind: "loop" });
  });

  it("gives the worker its node's data as config, features and tags alike, all but the webhook URL", () => {
    const data = { timeoutMs: 5000, retry: { maxAttempts: 2 }, protocol: "agent", agent: "pm", label: "PM" };
    const run = new PureRun(graphOf([workerNode("W", hook, data)]));
    run.start();
    expect(run.dispatches).toMatchObject([{ url: hook, payload: { config: data } }]);
    expect(run.dispatches[0]!.payload.config).toEqual(data);
  });

  it("nodeSpecOf compiles one node as compileGraph does", () => {
    expect(nodeSpecOf(node("T", "Worker", { executor: "steps", triggerRule: "all_success" }))).toEqual({ ...plain, executor: "steps", triggerRule: "all_success" });
  });
});

describe("the node spec: a bad value is refused, naming the node, the key, the value and what the key must be", () => {
  const refusals: [string, Record<string, unknown>, RegExp][] = [
    ["a webhookUrl that is not text", { webhookUrl: 42 }, /Worker node "X" has an invalid data\.webhookUrl: 42; data\.webhookUrl must be the worker's webhook URL/],
    ["an empty executor", { executor: "" }, /invalid data\.executor: ""; data\.executor must be the name of an executor of this server/],
    ["an executor that is not text", { executor: 5 }, /invalid data\.executor: 5; data\.executor must be the name/],
    ["a protocol that is not text", { protocol: true }, /invalid data\.protocol: true; data\.protocol must be the name of a dispatch adapter/],
    ["a fractional timeout", { timeoutMs: 1.5 }, /invalid data\.timeoutMs: 1\.5; data\.timeoutMs must be a positive whole number of milliseconds/],
    ["a timeout as text", { timeoutMs: "5s" }, /invalid data\.timeoutMs: "5s"/],
    ["a lease of zero", { leaseMs: 0 }, /invalid data\.leaseMs: 0; data\.leaseMs must be a positive whole number of milliseconds/],
    ["a retry that is not an object", { retry: 3 }, /invalid data\.retry: 3; data\.retry must be \{ maxAttempts: 1 to 100/],
    ["a retry of no attempts", { retry: { maxAttempts: 0 } }, /invalid data\.retry\.maxAttempts: 0; data\.retry must be/],
    ["a retry backoff over an hour", { retry: { maxAttempts: 2, backoffMs: 3_600_001 } }, /invalid data\.retry\.backoffMs: 3600001/],
    ["a retry without maxAttempts", { retry: {} }, /invalid data\.retry\.maxAttempts: it is missing/],
    ["a loop that is not an object", { loop: true }, /invalid data\.loop: true; data\.loop must be \{ interactive\?: true or false \}/],
    ["a loop with a non-boolean interactive", { loop: { interactive: "yes" } }, /invalid data\.loop\.interactive: "yes"/],
    ["a loop with an unknown key", { loop: { until: "DONE" } }, /invalid data\.loop: .*"until"/],
    ["an unknown trigger rule", { triggerRule: "always" }, /invalid data\.triggerRule: "always"; data\.triggerRule must be one of all_success, one_success, none_failed_min_one_success, all_done/],
    ["alwaysRun as text", { alwaysRun: "yes" }, /invalid data\.alwaysRun: "yes"; data\.alwaysRun must be true or false/],
    ["an unknown gate", { gate: "maybe" }, /invalid data\.gate: "maybe"; data\.gate must be "review" or "approval"/],
    ["captureResponse as a number", { captureResponse: 1 }, /invalid data\.captureResponse: 1; data\.captureResponse must be true or false/],
    ["precheck as text", { precheck: "true" }, /invalid data\.precheck: "true"/],
    ["an arrayPath that is not text", { arrayPath: 3 }, /invalid data\.arrayPath: 3; data\.arrayPath must be a dot path/],
  ];
  it.each(refusals)("refuses %s", (_what, data, message) => {
    const graph = graphOf([node("X", "Worker", { executor: "workflow", ...data })]);
    expect(() => compileGraph(graph)).toThrow(GraphError);
    expect(() => compileGraph(graph)).toThrow(message);
    expect(() => compileGraph(graph)).toThrow(/node "X"/);
  });
});

describe("the node spec: a feature on a node it does not apply to is refused, rather than ignored", () => {
  const misplaced: [string, StitchNode, RegExp][] = [
    ["a gate on a Worker", workerNode("X", hook, { gate: "review" }), /Worker node "X" has data\.gate, but only UX nodes are gates/],
    ["an executor on a Splitter", node("X", "Splitter", { arrayPath: "", executor: "workflow" }), /Splitter node "X" has data\.executor, but only Worker nodes and approval gates run work/],
    ["an executor on a review gate", uxNode("X", { gate: "review", executor: "workflow" }), /UX node "X" has data\.executor, but only Worker nodes and approval gates/],
    ["a protocol on a UX node", uxNode("X", { protocol: "agent" }), /UX node "X" has data\.protocol, but only Worker nodes without data\.executor/],
    ["a protocol beside an executor", node("X", "Worker", { executor: "workflow", protocol: "agent" }), /Worker node "X" has data\.protocol, but only Worker nodes without data\.executor/],
    ["a retry on a UX node", uxNode("X", { retry: { maxAttempts: 2 } }), /UX node "X" has data\.retry, but only Worker nodes are retried automatically/],
    ["a loop on a UX node", uxNode("X", { loop: { interactive: true } }), /UX node "X" has data\.loop, but only Worker nodes loop/],
    ["a trigger rule on a Collector", node("X", "Collector", { triggerRule: "all_done" }), /Collector node "X" has data\.triggerRule, but only Worker and UX nodes fire by trigger rule/],
    ["captureResponse on a review gate", uxNode("X", { gate: "review", captureResponse: true }), /UX node "X" has data\.captureResponse, but only approval gates/],
    ["a precheck on an approval gate without an executor", uxNode("X", { gate: "approval", precheck: true }), /UX node "X" has data\.precheck, but only approval gates with data\.executor run a precheck/],
  ];
  it.each(misplaced)("refuses %s", (_what, refused, message) => {
    expect(() => nodeSpecOf(refused)).toThrow(GraphError);
    expect(() => nodeSpecOf(refused)).toThrow(message);
  });

  it("takes a flag set to false anywhere, and timeouts, leases and alwaysRun on any node", () => {
    expect(nodeSpecOf(uxNode("X", { captureResponse: false, precheck: false, leaseMs: 1000, timeoutMs: 1000, alwaysRun: true }))).toEqual({
      ...plain, leaseMs: 1000, timeoutMs: 1000, alwaysRun: true,
    });
  });

  it("still requires a webhookUrl of a Worker without an executor, and an arrayPath of a Splitter", () => {
    expect(() => nodeSpecOf(node("X", "Worker", { protocol: "agent" }))).toThrow(/Worker node "X" needs data\.webhookUrl/);
    expect(() => nodeSpecOf(node("X", "Splitter", {}))).toThrow(/Splitter node "X" needs data\.arrayPath/);
    expect(nodeSpecOf(node("X", "Worker", { executor: "steps" })).webhookUrl).toBeUndefined();
  });
});
