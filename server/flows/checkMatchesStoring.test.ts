/**
 * Issue 42, the check endpoint refuses exactly what storing refuses: over generated graphs (every node kind, data
 * right and wrong, webhooks the outbound-address policy refuses, edges to nowhere, cycles, Collectors without a
 * Splitter, review gates anywhere), `POST /api/stitch/flows/check` finds no problem if and only if
 * `POST /api/stitch/flows` stores the graph (text with NUL is refused by the request guard before either), and every problem it finds names a node or edge of the graph (or none).
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StitchEdge, StitchGraph, StitchNode } from "../engine/schemas";
import { testDatabases } from "../testing/databases";
import { type ServerOnTestDatabase, serverOn } from "../testing/suite";

const ids = ["a", "b", "c", "d", "e", "a_1"];
const workerData = fc.constantFrom<Record<string, unknown>>(
  { webhookUrl: "http://127.0.0.1:9/work" },
  { webhookUrl: "http://169.254.169.254/latest" },
  { webhookUrl: "ftp://example.com/x" },
  {},
  { webhookUrl: "http://127.0.0.1:9/work", retry: { maxAttempts: 3 } },
  { webhookUrl: "http://127.0.0.1:9/work", retry: { maxAttempts: 0 } },
  { webhookUrl: "http://127.0.0.1:9/work", gate: "review" },
);
const uxData = fc.constantFrom<Record<string, unknown>>({}, { gate: "review" }, { gate: "approval" }, { approvals: 2 }, { approvals: "two" }, { arrayPath: "items" }, { retry: { maxAttempts: 2 } });
const splitterData = fc.constantFrom<Record<string, unknown>>({ arrayPath: "items" }, {});
const nodeOf = (id: string) =>
  fc.oneof(
    workerData.map((data): StitchNode => ({ id, type: "Worker", position: { x: 0, y: 0 }, data })),
    uxData.map((data): StitchNode => ({ id, type: "UX", position: { x: 0, y: 0 }, data })),
    splitterData.map((data): StitchNode => ({ id, type: "Splitter", position: { x: 0, y: 0 }, data })),
    fc.constant<StitchNode>({ id, type: "Collector", position: { x: 0, y: 0 }, data: {} }),
  );
// Edges mostly join the graph's own nodes (a graph with an edge to nowhere is refused whatever else it holds), and now
// and then name a node that is not there.
const endOf = (nodeIds: string[]) => (nodeIds.length === 0 ? fc.constant("z") : fc.oneof({ arbitrary: fc.constantFrom(...nodeIds), weight: 9 }, { arbitrary: fc.constantFrom(...ids, "z"), weight: 1 }));
const graphs: fc.Arbitrary<StitchGraph> = fc
  .subarray(ids, { minLength: 0, maxLength: 5 })
  .chain((nodeIds) =>
    fc.record({
      nodes: fc.tuple(...nodeIds.map(nodeOf)),
      edges: fc.uniqueArray(fc.tuple(endOf(nodeIds), endOf(nodeIds)), { maxLength: 4, selector: ([s, t]) => `${s}->${t}` }),
    }),
  )
  .map(({ nodes, edges }) => ({ nodes, edges: edges.map(([source, target]): StitchEdge => ({ id: `${source}->${target}`, source, target })) }));

describe.each(testDatabases)("the check refuses exactly what storing refuses, on $name", (testDatabase) => {
  let env: ServerOnTestDatabase;

  beforeAll(async () => {
    env = await serverOn(testDatabase);
  });
  afterAll(async () => {
    await env?.close();
  });

  it("check finds no problem if and only if storing accepts the graph (property over generated graphs)", async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(graphs, async (graph) => {
        const check = await env.api.post<{ problems: { node_id?: string; edge_id?: string }[] }>("/api/stitch/flows/check", { graph });
        expect(check.status).toBe(200);
        const stored = await env.api.post("/api/stitch/flows", { name: "generated", graph });
        expect([201, 400]).toContain(stored.status);
        expect(check.body.problems.length === 0).toBe(stored.status === 201);
        if (stored.status === 201) accepted++;
        for (const problem of check.body.problems) {
          if (problem.node_id !== undefined) expect(graph.nodes.map((n) => n.id)).toContain(problem.node_id);
          if (problem.edge_id !== undefined) expect(graph.edges.map((e) => e.id)).toContain(problem.edge_id);
        }
      }),
      // A graph storing accepts is always among those tried, whatever the seed: both sides of the equivalence are reached.
      { numRuns: 60, examples: [[{ nodes: [{ id: "a", type: "Worker", position: { x: 0, y: 0 }, data: { webhookUrl: "http://127.0.0.1:9/work" } }], edges: [] }]] },
    );
    expect(accepted).toBeGreaterThan(0);
  });
});
