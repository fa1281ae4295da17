/**
 * The embedded graph: Ladybug (`@ladybugdb/core`, the maintained fork of the Kuzu database, whose upstream was
 * archived in 2025), running in this process on one file (`graph.lbug`) under a directory, so the quick start needs
 * no graph server. Its native binding ships in the npm package itself: it loads without the package's install script
 * (which npm here does not run unless approved) on Node 20 with glibc 2.36.
 *
 * Its Cypher needs a schema: a node table per label and a relationship table per edge type. The `Entity` table is
 * created when the store opens, and a relationship table the first time `createNodes` links with a new edge type.
 * A query naming any other label fails with the engine's "Table X does not exist" until a `CREATE NODE TABLE`
 * (which `graph.cypher` may run) makes it.
 *
 * One store per database file in this process (the engine must not open the same file twice), and its calls run one
 * at a time: the engine takes one write transaction at a time, and an explicit transaction owns its connection.
 * The native query cannot be interrupted by an AbortSignal; it is bounded by the engine's own query timeout instead.
 */
import { mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { Connection, Database, LbugValue, QueryResult } from "@ladybugdb/core";
import { ENTITY_LABEL, type GraphLink, type GraphNodeInput, type GraphRow, type GraphStore, toPlainJson, writeNodes } from "./store";

export const EMBEDDED_GRAPH_FILE = "graph.lbug";
/** The longest one query may run before the engine stops it. */
export const EMBEDDED_QUERY_TIMEOUT_MS = 60_000;

const CREATE_ENTITY_TABLE = `CREATE NODE TABLE IF NOT EXISTS ${ENTITY_LABEL}(id STRING, name STRING, type STRING, properties STRING, PRIMARY KEY(id))`;

interface Open {
  database: Database;
  connection: Connection;
}

/** A node or relationship as Ladybug answers it: its properties with `_label`, without the engine's internal ids. */
function ladybugValue(value: object): unknown {
  if (!("_label" in value) || !("_id" in value)) return undefined;
  const { _id: _internalId, _src: _source, _dst: _destination, ...rest } = value as Record<string, unknown>;
  return Object.fromEntries(Object.entries(rest).map(([key, inner]) => [key, toPlainJson(inner, ladybugValue)]));
}

async function rowsOf(answer: QueryResult | QueryResult[]): Promise<GraphRow[]> {
  const results = Array.isArray(answer) ? answer : [answer];
  try {
    // A query of several statements answers the rows of its last.
    const last = results.at(-1);
    return last ? await last.getAll() : [];
  } finally {
    for (const result of results) result.close();
  }
}

class EmbeddedGraphStore implements GraphStore {
  readonly description: string;
  private opening: Promise<Open> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly edgeTables = new Set<string>();

  constructor(private readonly dir: string) {
    this.description = `the embedded graph (Ladybug) at ${join(dir, EMBEDDED_GRAPH_FILE)}`;
  }

  /** Runs `work` after every call before it has finished, so that calls never overlap. */
  private serially<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private open(): Promise<Open> {
    this.opening ??= (async () => {
      await mkdir(this.dir, { recursive: true });
      const { default: ladybug } = await import("@ladybugdb/core");
      const database = new ladybug.Database(join(this.dir, EMBEDDED_GRAPH_FILE));
      const connection = new ladybug.Connection(database);
      connection.setQueryTimeout(EMBEDDED_QUERY_TIMEOUT_MS);
      await rowsOf(await connection.query(CREATE_ENTITY_TABLE));
      return { database, connection };
    })().catch((error: unknown) => {
      this.opening = undefined;
      throw error;
    });
    return this.opening;
  }

  private async run(connection: Connection, cypher: string, params: Record<string, unknown> = {}): Promise<GraphRow[]> {
    if (Object.keys(params).length === 0) return rowsOf(await connection.query(cypher));
    const statement = await connection.prepare(cypher);
    if (!statement.isSuccess()) throw new Error(statement.getErrorMessage());
    return rowsOf(await connection.execute(statement, params as Record<string, LbugValue>));
  }

  createNodes(nodes: readonly GraphNodeInput[], link?: GraphLink): Promise<{ ids: string[] }> {
    return this.serially(async () => {
      const { connection } = await this.open();
      if (link && !this.edgeTables.has(link.edgeType)) {
        await this.run(connection, `CREATE REL TABLE IF NOT EXISTS ${link.edgeType}(FROM ${ENTITY_LABEL} TO ${ENTITY_LABEL})`);
        this.edgeTables.add(link.edgeType);
      }
      await this.run(connection, "BEGIN TRANSACTION");
      try {
        const ids = await writeNodes((cypher, params) => this.run(connection, cypher, params), nodes, link);
        await this.run(connection, "COMMIT");
        return { ids };
      } catch (error) {
        await this.run(connection, "ROLLBACK").catch(() => undefined);
        throw error;
      }
    });
  }

  query(cypher: string, params: Record<string, unknown> = {}): Promise<GraphRow[]> {
    return this.serially(async () => {
      const { connection } = await this.open();
      const rows = await this.run(connection, cypher, params);
      return rows.map((row) => toPlainJson(row, ladybugValue) as GraphRow);
    });
  }

  close(): Promise<void> {
    return this.serially(async () => {
      const opening = this.opening;
      this.opening = undefined;
      if (!opening) return;
      const { database, connection } = await opening;
      await connection.close();
      await database.close();
    });
  }
}

const stores = new Map<string, EmbeddedGraphStore>();

/** The embedded graph stored under `dir` (made on first use), one store per directory in this process; after `close` it reopens on its next use. */
export function embeddedGraphStore(dir: string): GraphStore {
  const key = resolve(dir);
  let store = stores.get(key);
  if (!store) {
    store = new EmbeddedGraphStore(key);
    stores.set(key, store);
  }
  return store;
}
