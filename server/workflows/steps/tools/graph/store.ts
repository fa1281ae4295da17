/**
 * The property graph the graph tools write and query, behind one interface: an embedded database by default
 * (embedded.ts: Ladybug, Kuzu's maintained fork, in a file under the data directory) or Neo4j when NEO4J_URL is set
 * (neo4j.ts). Both speak Cypher; the nodes the tools make are the same in both:
 *
 *   (:Entity { id: "<type>:<name>", name, type, properties: "<the properties as JSON text>" })
 *   (:Entity)-[:<EDGE_TYPE>]->(:Entity)
 *
 * so `MATCH (p:Entity {type: "Person"})-[:WORKS_FOR]->(c) RETURN p.name, c.name` reads the same on both. The id
 * makes creating a node again an update, not a duplicate (a retried step writes the same graph). Properties are JSON
 * text because the embedded engine has a fixed schema per table (and Neo4j allows no nested values).
 */

export interface GraphNodeInput {
  name: string;
  type?: string;
  properties?: Record<string, unknown>;
}

/** New nodes link to the node named `to` (found by name, or made): (new)-[:edgeType]->(to). */
export interface GraphLink {
  edgeType: string;
  to: string;
}

export type GraphRow = Record<string, unknown>;

export interface GraphStore {
  /** Which database, for messages: `embedded graph at .data/graph` or `Neo4j at bolt://...`. */
  readonly description: string;
  /** Creates or updates the nodes (and their edges to `link.to`) in one transaction; answers their ids, in order, once each. */
  createNodes(nodes: readonly GraphNodeInput[], link?: GraphLink): Promise<{ ids: string[] }>;
  /** Runs one Cypher query; each row as plain JSON (a node as its properties and `_label`). */
  query(cypher: string, params?: Record<string, unknown>): Promise<GraphRow[]>;
  close(): Promise<void>;
}

export const ENTITY_LABEL = "Entity";

/** An edge type is written into the query (Cypher has no parameter for it), so only plain names pass. */
export const EDGE_TYPE_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A stored node's id: the same name and type always give the same node. */
export const nodeId = (node: GraphNodeInput) => `${node.type?.trim() || ENTITY_LABEL}:${node.name.trim()}`;

/** Runs one Cypher statement inside the store's open transaction. */
export type RunCypher = (cypher: string, params: Record<string, unknown>) => Promise<GraphRow[]>;

const UPSERT_NODE = `MERGE (n:${ENTITY_LABEL} {id: $id}) SET n.name = $name, n.type = $type, n.properties = $properties`;
const CREATE_NODE_IF_ABSENT = `MERGE (n:${ENTITY_LABEL} {id: $id}) ON CREATE SET n.name = $name, n.type = $type, n.properties = $properties`;
const FIND_BY_NAME = `MATCH (n:${ENTITY_LABEL}) WHERE n.name = $name RETURN n.id AS id ORDER BY n.id LIMIT 1`;

/** The statements of `createNodes`, the same on every store: `run` is one statement in the store's transaction. */
export async function writeNodes(run: RunCypher, nodes: readonly GraphNodeInput[], link: GraphLink | undefined): Promise<string[]> {
  const ids: string[] = [];
  for (const node of nodes) {
    const id = nodeId(node);
    await run(UPSERT_NODE, { id, name: node.name.trim(), type: node.type?.trim() || ENTITY_LABEL, properties: JSON.stringify(node.properties ?? {}) });
    if (!ids.includes(id)) ids.push(id);
  }
  if (!link) return ids;
  if (!EDGE_TYPE_PATTERN.test(link.edgeType)) throw new Error(`edge type "${link.edgeType}" is not a plain name (letters, digits and _)`);
  const found = (await run(FIND_BY_NAME, { name: link.to.trim() }))[0]?.id;
  let target: string;
  if (typeof found === "string") target = found;
  else {
    target = nodeId({ name: link.to });
    await run(CREATE_NODE_IF_ABSENT, { id: target, name: link.to.trim(), type: ENTITY_LABEL, properties: "{}" });
  }
  for (const id of ids) {
    if (id !== target) await run(`MATCH (a:${ENTITY_LABEL} {id: $from}), (b:${ENTITY_LABEL} {id: $to}) MERGE (a)-[:${link.edgeType}]->(b)`, { from: id, to: target });
  }
  return ids;
}

/**
 * A value a driver answered, as plain JSON: big integers as numbers (as strings past 2^53), dates as ISO text, bytes
 * as base64. `special` converts what only one driver knows (its node and relationship objects) or answers undefined.
 */
export function toPlainJson(value: unknown, special: (value: object) => unknown = () => undefined): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === "bigint") return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(value) : value.toString();
  if (typeof value === "number") return Number.isFinite(value) ? value : String(value);
  if (typeof value !== "object") return typeof value === "string" || typeof value === "boolean" ? value : String(value);
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString("base64");
  if (Array.isArray(value)) return value.map((item) => toPlainJson(item, special));
  const converted = special(value);
  if (converted !== undefined) return converted;
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null && typeof (value as { toString?: unknown }).toString === "function") {
    const text = String(value);
    if (text !== "[object Object]") return text;
  }
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, toPlainJson(inner, special)]));
}
