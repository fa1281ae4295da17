/**
 * The database's front door: one drizzle API over two drivers.
 * - DATABASE_URL set: the `postgres` driver against a real PostgreSQL; any number of processes may share it.
 * - otherwise: embedded PGlite under DATA_DIR (default ./.data). PGlite is a single connection, so every
 *   transaction and query is serialised in-process; it is never used by more than one process.
 */
import { PGlite, parse, protocol } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import * as schema from "./schema";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction, or the database outside one: both run the same queries. */
export type Executor = Pick<Db, "execute" | "select" | "insert" | "update" | "delete">;

export interface Database {
  readonly kind: "pglite" | "postgres";
  /** Runs `fn` in one transaction (READ COMMITTED): all of it is applied, or none. */
  transaction<T>(fn: (tx: Executor) => Promise<T>): Promise<T>;
  /** Runs `fn` outside a transaction (reads, single statements). */
  run<T>(fn: (db: Executor) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` on a connection of its own, outside the pool: a short statement that must not wait behind the pool's
   * queue when every pooled connection is busy (the dispatcher's lease heartbeat). PGlite: as `run`.
   */
  runApart<T>(fn: (db: Executor) => Promise<T>): Promise<T>;
  /** Wake-up hints between processes (PostgreSQL LISTEN/NOTIFY); a no-op on PGlite, which has one process. */
  listen(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));

/** Raw rows of an `execute`, whichever driver ran it. */
export async function rows<T = Record<string, unknown>>(executor: Executor, query: SQL): Promise<T[]> {
  const result = (await executor.execute(query)) as unknown;
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/** close() may be called by both a server and the test that lent it the database: the second call is a no-op. */
function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
}

class Mutex {
  private tail: Promise<unknown> = Promise.resolve();
  lock<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.tail.then(fn, fn);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

export interface OpenOptions {
  databaseUrl?: string;
  /** PGlite data directory; "memory://" keeps everything in memory (tests). */
  dataDir?: string;
  /**
   * PGlite only: a data directory dumped by PGlite's dumpDataDir() to start from, instead of an empty database
   * (tests copy one migrated database this way). `dataDir` MUST hold no database yet. Migrations run as always;
   * those the copy has applied already are skipped.
   */
  loadDataDir?: Blob;
  /** Connections in the pool (PostgreSQL only). */
  poolSize?: number;
}

/** Opens the database and applies every committed migration before anything else touches it. */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options.poolSize ?? 10) : openPglite(options.dataDir ?? "./.data", options.loadDataDir);
}

/** A PGlite on `dataDir` with every committed migration applied (the tests' global setup dumps one to copy). */
export async function migratedPglite(dataDir: string, loadDataDir?: Blob): Promise<{ client: PGlite; db: Db }> {
  if (!dataDir.startsWith("memory://")) mkdirSync(dataDir, { recursive: true });
  // The extensions the migrations create (pg_trgm: the inbox's search), loaded on every open, copies included.
  const client = new PGlite(dataDir, { extensions: { pg_trgm }, ...(loadDataDir ? { loadDataDir } : {}) });
  await client.waitReady;
  const db = drizzlePglite({ client: preparingPglite(client), schema }) as unknown as Db;
  await migratePglite(db as never, { migrationsFolder });
  return { client, db };
}

type QueryOptions = Parameters<PGlite["query"]>[2];

/** How many prepared statements a PGlite client keeps (the least recently used one goes first). */
const PGLITE_PREPARED = 500;
const { serialize } = protocol;

/**
 * The PGlite client as drizzle is given it, once ready (its own parsers are set up then: `waitReady`). Two things
 * change, and every row reads as before:
 * - **Statements are prepared once and run by name.** PGlite's `query` sends each statement unnamed: PostgreSQL parses
 *   and plans it at every execution (in WebAssembly, a millisecond or more for the engine's write), in six calls into
 *   PGlite. Here a statement is parsed and described once per text (kept for the `PGLITE_PREPARED` most recently used
 *   texts, the others closed), then each execution is one call: bind, describe, execute, sync. Its parameters are
 *   serialized by the types the description gave, and its rows parsed by PGlite's own functions, as `query` does.
 * - **drizzle's parsers go into the client's table.** drizzle sends its parsers with every query (dates, times,
 *   intervals and their arrays read as the text PostgreSQL sends), and PGlite merges a query's parsers into a copy of
 *   its whole table (some 400) at each query: here they are written into the client's own table (a handful of
 *   entries) once, and the query goes without them.
 * Transactions' queries alike. A query with options this does not handle (a blob, parameter types) goes to `query`.
 */
function preparingPglite(client: PGlite): PGlite {
  const lighter = (options: QueryOptions): QueryOptions => {
    if (!options?.parsers) return options;
    const { parsers, ...rest } = options;
    Object.assign(client.parsers, parsers);
    return rest;
  };
  const statements = new Map<string, { name: string; paramTypes: number[] }>();
  let named = 0;
  const exchange = (...messages: Uint8Array[]) => {
    const bytes = new Uint8Array(messages.reduce((n, m) => n + m.length, 0));
    messages.reduce((at, m) => (bytes.set(m, at), at + m.length), 0);
    return client.execProtocolStream(bytes, { syncToFs: false });
  };
  const statementOf = async (text: string) => {
    const known = statements.get(text);
    if (known) {
      // The most recently used last: the first is the one to close.
      statements.delete(text);
      statements.set(text, known);
      return known;
    }
    const name = `stitch_${++named}`;
    const described = await exchange(serialize.parse({ name, text }), serialize.describe({ type: "S", name }), serialize.sync());
    const statement = { name, paramTypes: parse.parseDescribeStatementResults(described) };
    statements.set(text, statement);
    if (statements.size > PGLITE_PREPARED) {
      const [oldest, { name: closing }] = statements.entries().next().value!;
      statements.delete(oldest);
      await exchange(serialize.close({ type: "S", name: closing }), serialize.sync());
    }
    return statement;
  };
  // As PGlite's own: the client's query waits for a transaction under way to end; a transaction's runs inside it.
  const query = (inTransaction: boolean) => async (text: string, params: unknown[] = [], options?: QueryOptions) => {
    const own = lighter(options);
    if (own?.blob || own?.paramTypes) return client.query(text, params, own);
    await client._checkReady();
    const exclusive = <T>(fn: () => Promise<T>) => (inTransaction ? fn() : client._runExclusiveTransaction(fn));
    const results = await exclusive(() => client._runExclusiveQuery(async () => {
      const { name, paramTypes } = await statementOf(text);
      const values = params.map((value, i) => {
        if (value === null || value === undefined) return null;
        const type = paramTypes[i]!;
        const serializer = own?.serializers?.[type] ?? client.serializers[type];
        return serializer ? serializer(value) : String(value);
      });
      const messages = await exchange(serialize.bind({ statement: name, values }), serialize.describe({ type: "P" }), serialize.execute({}), serialize.sync());
      return parse.parseResults(messages, client.parsers, own)[0]!;
    }));
    // As PGlite's `query`: a statement outside a transaction is synced to the file system (a no-op for a directory).
    if (!client.isInTransaction()) await client.syncToFs();
    return results;
  };
  // Methods run on the client itself (PGlite keeps private fields, which a proxy as `this` cannot reach).
  const lightened = <C extends object>(target: C, overrides: Partial<Record<keyof C, unknown>>): C =>
    new Proxy(target, {
      get(object, property) {
        if (property in overrides) return overrides[property as keyof C];
        const value: unknown = Reflect.get(object, property);
        return typeof value === "function" ? value.bind(object) : value;
      },
    });
  type Transaction = Parameters<Parameters<PGlite["transaction"]>[0]>[0];
  return lightened(client, {
    query: query(false),
    transaction: <T>(fn: (tx: Transaction) => Promise<T>) => client.transaction((tx) => fn(lightened(tx, { query: query(true) }))),
  });
}

async function openPglite(dataDir: string, loadDataDir: Blob | undefined): Promise<Database> {
  const { client, db } = await migratedPglite(dataDir, loadDataDir);
  const mutex = new Mutex();
  return {
    kind: "pglite",
    transaction: (fn) => mutex.lock(() => db.transaction((tx) => fn(tx as unknown as Executor))),
    run: (fn) => mutex.lock(() => fn(db)),
    runApart: (fn) => mutex.lock(() => fn(db)),
    listen: async () => async () => {},
    close: once(() => mutex.lock(() => client.close())),
  };
}

/**
 * Where postgres.js should connect for a DATABASE_URL. Besides host:port it accepts libpq's way of naming a Unix
 * socket, `postgres://user@localhost/db?host=/var/run/postgresql`, which postgres.js alone would send to the server
 * as an unknown setting. A local PostgreSQL over its socket skips the loopback TCP stack on every statement.
 */
export function postgresTarget(url: string): { url: string; path?: string } {
  const parsed = new URL(url);
  const socketDir = parsed.searchParams.get("host");
  if (!socketDir?.startsWith("/")) return { url };
  parsed.searchParams.delete("host");
  return { url: parsed.toString(), path: `${socketDir.replace(/\/+$/, "")}/.s.PGSQL.${parsed.port || 5432}` };
}

/** A postgres.js client for a DATABASE_URL (see postgresTarget). */
export function connectPostgres(url: string, options: postgres.Options<Record<string, postgres.PostgresType>> = {}) {
  const target = postgresTarget(url);
  return postgres(target.url, { onnotice: () => {}, ...(target.path ? { path: target.path } : {}), ...options });
}

/**
 * How long postgres.js waits before it connects again after a connection failed (seconds): 100 ms doubled per failure,
 * at most 2 s, with jitter. Its default grows to 20 s, and a query waits for that connection: while PostgreSQL
 * restarts, requests would wait that long for their 503, and the server as long to notice PostgreSQL is back.
 */
export const reconnectBackoff = (retries: number) => (0.5 + Math.random() / 2) * Math.min(0.1 * 2 ** retries, 2);

/**
 * The client as drizzle is given it, with every statement prepared: drizzle asks postgres.js not to prepare a statement
 * it was not given a name for, so PostgreSQL would parse and plan each one again at every execution (about a quarter of
 * a millisecond of the server's time for the engine's statements). postgres.js keeps a connection's prepared statements
 * by their text and reuses them; connections are replaced after 30 to 60 minutes (its `max_lifetime`), which bounds
 * what statements of varying text (lists of varying length) leave behind. Transactions and savepoints hand their own
 * client to drizzle: those prepare too.
 */
function preparing<T extends postgres.Sql<Record<string, postgres.PostgresType>>>(sql: T): T {
  return new Proxy(sql, {
    get(target, property, receiver) {
      if (property === "unsafe") {
        return (query: string, params?: unknown[], options?: postgres.UnsafeQueryOptions) => target.unsafe(query, params as never, { ...options, prepare: true });
      }
      if (property === "begin" || property === "savepoint") {
        const open = Reflect.get(target, property, receiver) as (...args: unknown[]) => unknown;
        return (...args: unknown[]) => {
          const fn = args.pop() as (inner: T) => unknown;
          return open.call(target, ...args, (inner: T) => fn(preparing(inner)));
        };
      }
      return Reflect.get(target, property, receiver);
    },
  });
}

async function openPostgres(url: string, poolSize: number): Promise<Database> {
  // The LISTEN connection postgres.js keeps for `listen` takes these options too, and subscribes again when it reconnects.
  const client = connectPostgres(url, { max: poolSize, backoff: reconnectBackoff, connection: { application_name: "stitch" } });
  const db = drizzlePostgres(preparing(client), { schema }) as unknown as Db;
  // Processes starting together must not race to create the schema: one migrates, the others wait for it. The lock is
  // held on a connection of its own, never one of the pool's: with DATABASE_POOL_SIZE=1 the migration needs that one.
  const lock = connectPostgres(url, { max: 1, connection: { application_name: "stitch-migrate" } });
  try {
    await lock`SELECT pg_advisory_lock(7355608)`;
    await migratePostgres(db as never, { migrationsFolder });
  } catch (error) {
    await client.end({ timeout: 0 });
    throw error;
  } finally {
    // Ending the connection ends its session, which releases the lock even if the unlock could not be sent.
    await lock`SELECT pg_advisory_unlock(7355608)`.catch(() => undefined);
    await lock.end({ timeout: 1 });
  }
  // One connection besides the pool, for statements that must not queue behind it; connected on first use.
  const apart = connectPostgres(url, { max: 1, backoff: reconnectBackoff, connection: { application_name: "stitch-apart" } });
  const apartDb = drizzlePostgres(apart, { schema }) as unknown as Db;
  return {
    kind: "postgres",
    transaction: (fn) => db.transaction((tx) => fn(tx as unknown as Executor)),
    run: (fn) => fn(db),
    runApart: (fn) => fn(apartDb),
    listen: async (channel, onNotify) => {
      const sub = await client.listen(channel, () => onNotify());
      return () => sub.unlisten();
    },
    close: once(async () => {
      await Promise.all([client.end({ timeout: 5 }), apart.end({ timeout: 5 })]);
    }),
  };
}
