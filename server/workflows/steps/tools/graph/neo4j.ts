/**
 * The graph in Neo4j, through its official driver, when NEO4J_URL is set (bolt://, neo4j://, neo4j+s://...), with
 * NEO4J_USER (default neo4j), NEO4J_PASSWORD and NEO4J_DATABASE (default: the server's). Neo4j needs no schema; a
 * uniqueness constraint on Entity.id is created on first use, as the embedded graph's primary key is.
 * Not tested here: no Neo4j server runs in this project's tests.
 */
import type { Driver, Node, Path, Relationship } from "neo4j-driver";
import type { ToolEnv } from "../tool";
import { ENTITY_LABEL, type GraphLink, type GraphNodeInput, type GraphRow, type GraphStore, toPlainJson, writeNodes } from "./store";

type Neo4jModule = typeof import("neo4j-driver").default;

const CONSTRAINT = `CREATE CONSTRAINT entity_id_unique IF NOT EXISTS FOR (n:${ENTITY_LABEL}) REQUIRE n.id IS UNIQUE`;

/** A node or relationship as the embedded graph answers it: its properties with `_label`. */
function neo4jValue(neo4j: Neo4jModule, value: object): unknown {
  const convert = (inner: unknown) => toPlainJson(inner, (item) => neo4jValue(neo4j, item));
  if (neo4j.isNode(value)) {
    const node = value as Node;
    return { ...(convert(node.properties) as object), _label: node.labels[0] ?? null, _labels: node.labels };
  }
  if (neo4j.isRelationship(value)) {
    const relationship = value as Relationship;
    return { ...(convert(relationship.properties) as object), _label: relationship.type };
  }
  if (neo4j.isPath(value)) {
    const path = value as Path;
    return { _nodes: [path.start, ...path.segments.map((segment) => segment.end)].map(convert), _rels: path.segments.map((segment) => convert(segment.relationship)) };
  }
  return undefined;
}

class Neo4jGraphStore implements GraphStore {
  readonly description: string;
  private connecting: Promise<{ driver: Driver; neo4j: Neo4jModule }> | undefined;

  constructor(
    private readonly url: string,
    private readonly user: string,
    private readonly password: string,
    private readonly database: string | undefined,
  ) {
    this.description = `Neo4j at ${url}`;
  }

  private connect() {
    this.connecting ??= (async () => {
      const { default: neo4j } = await import("neo4j-driver");
      const driver = neo4j.driver(this.url, neo4j.auth.basic(this.user, this.password), { disableLosslessIntegers: true });
      await driver.executeQuery(CONSTRAINT, {}, this.database ? { database: this.database } : {});
      return { driver, neo4j };
    })().catch((error: unknown) => {
      this.connecting = undefined;
      throw error;
    });
    return this.connecting;
  }

  async createNodes(nodes: readonly GraphNodeInput[], link?: GraphLink): Promise<{ ids: string[] }> {
    const { driver } = await this.connect();
    const session = driver.session(this.database ? { database: this.database } : {});
    try {
      const ids = await session.executeWrite((transaction) =>
        writeNodes(async (cypher, params) => (await transaction.run(cypher, params)).records.map((record) => record.toObject() as GraphRow), nodes, link),
      );
      return { ids };
    } finally {
      await session.close();
    }
  }

  async query(cypher: string, params: Record<string, unknown> = {}): Promise<GraphRow[]> {
    const { driver, neo4j } = await this.connect();
    const { records } = await driver.executeQuery(cypher, params, this.database ? { database: this.database } : {});
    return records.map((record) => toPlainJson(record.toObject(), (value) => neo4jValue(neo4j, value)) as GraphRow);
  }

  async close(): Promise<void> {
    const connecting = this.connecting;
    this.connecting = undefined;
    if (connecting) await (await connecting).driver.close();
  }
}

/** The Neo4j store NEO4J_URL names, or undefined when it is not set. */
export function neo4jGraphStoreFromEnv(env: ToolEnv): GraphStore | undefined {
  const url = env.NEO4J_URL?.trim();
  if (!url) return undefined;
  return new Neo4jGraphStore(url, env.NEO4J_USER?.trim() || "neo4j", env.NEO4J_PASSWORD ?? "", env.NEO4J_DATABASE?.trim() || undefined);
}
