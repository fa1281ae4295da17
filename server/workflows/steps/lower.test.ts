/**
 * Step workflows lowered onto the shared compiler (lower.ts): one `all_success` task per step, retries, the lease
 * from the step's timeout or the tool's default, the config the executor reads, and a graph the engine accepts.
 */
import { describe, expect, it } from "vitest";
import { compileGraph } from "../../engine/graph";
import type { StepWorkflowDefinition } from "./definition";
import { LEASE_MARGIN_MS, RETRY_BACKOFF_MS, STEPS_EXECUTOR, lowerSteps, stepTasks } from "./lower";

const DEFAULTS: Record<string, number> = { "search.google": 30_000, "llm.extract_entities": 120_000, "graph.create_nodes": 10_000 };
const defaultTimeoutMs = (tool: string): number => DEFAULTS[tool] ?? 5000;

/** The Summit-Flow spec's example, with a timeout on its last step, as validateDefinition leaves it, and its order. */
const definition: StepWorkflowDefinition = {
  id: "investigation-v1",
  steps: [
    { id: "google_search", tool: "search.google", params: { query: "site:linkedin.com/company {{inputs.company_name}}" } },
    { id: "extract_executives", tool: "llm.extract_entities", params: { text: "{{google_search.output}}", schema: "Person" }, retries: 2 },
    { id: "enrich_graph", tool: "graph.create_nodes", params: { nodes: "{{extract_executives.output}}", edge_type: "WORKS_FOR" }, retries: 0, timeout_ms: 2500 },
  ],
};
const order = { google_search: [], extract_executives: ["google_search"], enrich_graph: ["extract_executives"] };

describe("stepTasks", () => {
  it("makes each step an all_success task with its dependencies, retries, lease and config", () => {
    const [search, extract, enrich] = stepTasks(definition, order, defaultTimeoutMs);
    expect(search).toEqual({
      id: "google_search",
      dependsOn: [],
      triggerRule: "all_success",
      kind: "task",
      label: "search.google · google_search",
      leaseMs: 30_000 + LEASE_MARGIN_MS,
      executor: STEPS_EXECUTOR,
      config: { kind: "step", step: definition.steps[0], tool: "search.google", stepTimeoutMs: 30_000 },
    });
    expect(extract).toMatchObject({
      dependsOn: ["google_search"],
      retry: { maxAttempts: 3, backoffMs: RETRY_BACKOFF_MS },
      leaseMs: 120_000 + LEASE_MARGIN_MS,
      config: { stepTimeoutMs: 120_000 },
    });
    expect(enrich).toMatchObject({ dependsOn: ["extract_executives"], leaseMs: 2500 + LEASE_MARGIN_MS, config: { stepTimeoutMs: 2500 } });
    expect(enrich).not.toHaveProperty("retry");
    expect(RETRY_BACKOFF_MS).toBe(1000);
  });

  it("asks for the tool's default timeout only for steps without timeout_ms", () => {
    const asked: string[] = [];
    stepTasks(definition, order, (tool) => {
      asked.push(tool);
      return 1000;
    });
    expect(asked).toEqual(["search.google", "llm.extract_entities"]);
  });

  it("gives ten retries eleven attempts", () => {
    const [task] = stepTasks({ id: "w", steps: [{ id: "a", tool: "echo", retries: 10 }] }, { a: [] }, defaultTimeoutMs);
    expect(task!.retry).toEqual({ maxAttempts: 11, backoffMs: 1000 });
  });

  it("refuses an order without the step (not the order validateDefinition gave)", () => {
    expect(() => stepTasks(definition, { google_search: [] }, defaultTimeoutMs)).toThrow('the order has no entry for step "extract_executives"');
  });
});

describe("lowerSteps", () => {
  it("gives a graph the engine accepts: Workers run by this server's step executor (not the YAML one), one edge per dependency", () => {
    const graph = lowerSteps(definition, order, defaultTimeoutMs);
    expect(graph.nodes.map((n) => [n.id, n.type, n.data.executor, n.data.triggerRule, n.data.kind, n.data.tool])).toEqual([
      ["google_search", "Worker", STEPS_EXECUTOR, "all_success", "step", "search.google"],
      ["extract_executives", "Worker", STEPS_EXECUTOR, "all_success", "step", "llm.extract_entities"],
      ["enrich_graph", "Worker", STEPS_EXECUTOR, "all_success", "step", "graph.create_nodes"],
    ]);
    expect(graph.edges.map((e) => [e.source, e.target])).toEqual([
      ["google_search", "extract_executives"],
      ["extract_executives", "enrich_graph"],
    ]);
    expect(graph.nodes[1]!.data).toMatchObject({ retry: { maxAttempts: 3, backoffMs: 1000 }, leaseMs: 120_000 + LEASE_MARGIN_MS, step: definition.steps[1] });
    expect(() => compileGraph(graph)).not.toThrow();
  });

  it("leaves the engine's own call-back timer (data.timeoutMs) unset: the executor enforces the step's timeout", () => {
    for (const node of lowerSteps(definition, order, defaultTimeoutMs).nodes) expect(node.data).not.toHaveProperty("timeoutMs");
  });

  it("lowers a DAG: parallel roots, a fan-out and a join", () => {
    const dag: StepWorkflowDefinition = {
      id: "dag",
      steps: ["a", "b", "c", "join"].map((id) => ({ id, tool: "echo" })),
    };
    const graph = lowerSteps(dag, { a: [], b: [], c: ["a"], join: ["b", "c"] }, defaultTimeoutMs);
    expect(graph.edges.map((e) => e.id)).toEqual(["a->c", "b->join", "c->join"]);
    const compiled = compileGraph(graph);
    expect([...compiled.entries].sort()).toEqual(["a", "b"]);
  });
});
