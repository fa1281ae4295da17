// The graph tools on the embedded graph (Ladybug), in a temporary directory: nodes written by graph.create_nodes are
// read back with graph.cypher, with their edges to `to`. (Neo4j, graph/neo4j.ts, needs a server and is not tested.)
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { embeddedGraphStore } from "./graph/embedded";
import { toolRegistry } from "./registry";
import { type TestContext, testContext } from "../../../testing/stepTools";

let context: TestContext;
beforeEach(async () => {
  context = await testContext();
});
afterEach(async () => {
  await context.cleanup();
});

const cypher = async (query: string, params?: Record<string, unknown>) => ((await toolRegistry.run("graph.cypher", { query, ...(params ? { params } : {}) }, context)) as { rows: unknown[] }).rows;

describe("graph.create_nodes and graph.cypher", () => {
  it("creates nodes that a Cypher query reads back", async () => {
    const answer = await toolRegistry.run(
      "graph.create_nodes",
      { nodes: [{ name: "Tim Cook", type: "Person", properties: { title: "CEO" } }, { name: "Jane Doe" }], edge_type: "WORKS_FOR" },
      context,
    );
    expect(answer).toEqual({ count: 2, ids: ["Person:Tim Cook", "Entity:Jane Doe"] });
    expect(await cypher("MATCH (n:Entity) RETURN n.name ORDER BY n.name")).toEqual([{ "n.name": "Jane Doe" }, { "n.name": "Tim Cook" }]);
    expect(await cypher("MATCH (n:Entity) WHERE n.type = $type RETURN n", { type: "Person" })).toEqual([
      { n: { _label: "Entity", id: "Person:Tim Cook", name: "Tim Cook", type: "Person", properties: '{"title":"CEO"}' } },
    ]);
  });

  it("links the new nodes to `to` (made when absent) with an edge of `edge_type`, from llm.extract_entities' answer", async () => {
    const extracted = await toolRegistry.run("llm.extract_entities", { text: "Tim Cook and Jane Doe met in Paris.", schema: "Person" }, context);
    expect(await toolRegistry.run("graph.create_nodes", { nodes: extracted, edge_type: "WORKS_FOR", to: "Acme Corp" }, context)).toEqual({
      count: 2,
      ids: ["Person:Tim Cook", "Person:Jane Doe"],
    });
    expect(await cypher("MATCH (p:Entity)-[:WORKS_FOR]->(c:Entity) RETURN p.name AS person, c.name AS company, c.type AS type ORDER BY person")).toEqual([
      { person: "Jane Doe", company: "Acme Corp", type: "Entity" },
      { person: "Tim Cook", company: "Acme Corp", type: "Entity" },
    ]);
  });

  it("writes the same graph when a step is run again, and links to an existing node found by name", async () => {
    await toolRegistry.run("graph.create_nodes", { nodes: [{ name: "Acme Corp", type: "Organization" }], edge_type: "WORKS_FOR" }, context);
    const params = { nodes: [{ name: "Jane Doe", type: "Person" }], edge_type: "WORKS_FOR", to: "Acme Corp" };
    await toolRegistry.run("graph.create_nodes", params, context);
    await toolRegistry.run("graph.create_nodes", params, context);
    expect(await cypher("MATCH (n:Entity) RETURN count(n) AS nodes")).toEqual([{ nodes: 2 }]);
    expect(await cypher("MATCH (a)-[r:WORKS_FOR]->(b) RETURN a.id AS from, b.id AS to, r")).toEqual([{ from: "Person:Jane Doe", to: "Organization:Acme Corp", r: { _label: "WORKS_FOR" } }]);
  });

  it("keeps the graph in its directory across a close and a reopen", async () => {
    await toolRegistry.run("graph.create_nodes", { nodes: [{ name: "Kept" }], edge_type: "RELATED_TO" }, context);
    await context.graph.close();
    const reopened = embeddedGraphStore(`${context.dir}/graph`);
    expect(await reopened.query("MATCH (n:Entity {name: $name}) RETURN n.id AS id", { name: "Kept" })).toEqual([{ id: "Entity:Kept" }]);
  });

  it("fails a query the graph refuses with the engine's message and a hint, and refuses an edge type that is no plain name", async () => {
    await expect(cypher("MATCH (p:Person) RETURN p.name")).rejects.toMatchObject({
      transient: false,
      message: expect.stringMatching(/^step test \(graph.cypher\): the embedded graph \(Ladybug\) at .* failed: .*Person does not exist.*the graph tools' nodes are :Entity/),
    });
    await expect(toolRegistry.run("graph.create_nodes", { nodes: [], edge_type: "WORKS FOR; DROP" }, context)).rejects.toThrow("params.edge_type: edge_type must be a letter or _");
    await expect(toolRegistry.run("graph.create_nodes", { nodes: "Tim Cook", edge_type: "X" }, context)).rejects.toThrow("params.nodes: nodes must be a list");
  });
});
