/**
 * DATABASE_URL forms the postgres driver is given: host:port as usual, and libpq's `?host=/socket/dir` for a
 * PostgreSQL on this machine's Unix socket.
 */
import { sql } from "drizzle-orm";
import { existsSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";
import { createScratchDatabase, postgresServerUrl } from "../server/testing/databases";
import { type Executor, connectPostgres, openDatabase, postgresTarget, rows } from "./client";

describe("postgresTarget", () => {
  it("leaves host:port URLs alone", () => {
    expect(postgresTarget("postgres://u:p@db.example.test:6543/stitch?sslmode=require")).toEqual({ url: "postgres://u:p@db.example.test:6543/stitch?sslmode=require" });
    expect(postgresTarget("postgres://u@localhost/stitch?host=db.internal")).toEqual({ url: "postgres://u@localhost/stitch?host=db.internal" });
  });

  it("turns libpq's ?host=/socket/dir into the socket path, on the URL's port or 5432", () => {
    expect(postgresTarget("postgres://postgres@localhost/stitch?host=/var/run/postgresql")).toEqual({
      url: "postgres://postgres@localhost/stitch",
      path: "/var/run/postgresql/.s.PGSQL.5432",
    });
    expect(postgresTarget("postgres://postgres@localhost:5433/stitch?host=%2Ftmp%2F&application_name=x")).toEqual({
      url: "postgres://postgres@localhost:5433/stitch?application_name=x",
      path: "/tmp/.s.PGSQL.5433",
    });
  });
});

// The CI machine's PostgreSQL listens on TCP and on its socket; where both are there, the socket form must work end to end.
const socketDir = "/var/run/postgresql";
const tcpUrl = postgresServerUrl;
const canTrySocket = tcpUrl !== undefined && existsSync(`${socketDir}/.s.PGSQL.${new URL(tcpUrl).port || 5432}`);

describe.skipIf(!canTrySocket)("a PostgreSQL on its Unix socket", () => {
  it("opens, migrates and answers through ?host=", async () => {
    const url = new URL(tcpUrl!);
    url.searchParams.set("host", socketDir);
    const probe = connectPostgres(url.toString(), { max: 1 });
    const [{ socket }] = (await probe`SELECT inet_client_addr() IS NULL AS socket`) as unknown as [{ socket: boolean }];
    await probe.end();
    expect(socket).toBe(true);
    const scratch = await createScratchDatabase(url.toString());
    const database = await openDatabase({ databaseUrl: scratch.url });
    try {
      expect(new URL(scratch.url).searchParams.get("host")).toBe(socketDir);
      const [row] = await database.run((db) => rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM stitch_flows`));
      expect(row!.n).toBe(0);
    } finally {
      await database.close();
      await scratch.drop();
    }
  });
});

describe.skipIf(!tcpUrl)("a pool of one connection (DATABASE_POOL_SIZE=1)", () => {
  it("migrates a new database and then runs transactions and statements on that one connection", async () => {
    const scratch = await createScratchDatabase(tcpUrl!);
    try {
      // The migration lock is held on a connection of its own: the pool's only one is free for the migration.
      const database = await openDatabase({ databaseUrl: scratch.url, poolSize: 1 });
      try {
        const inTransaction = await database.transaction((tx) => rows<{ one: number }>(tx, sql`SELECT 1 AS one`));
        const [applied] = await database.run((db) => rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`));
        expect(inTransaction).toEqual([{ one: 1 }]);
        expect(applied!.n).toBeGreaterThan(0);
      } finally {
        await database.close();
      }
    } finally {
      await scratch.drop();
    }
  }, 30_000);
});

describe("PGlite as drizzle is given it", () => {
  it("prepares each statement once, runs it by name, and reads dates, times and intervals as the text PostgreSQL sends, in and out of transactions", async () => {
    const { PGlite } = await import("@electric-sql/pglite");
    const sent: string[] = [];
    const exchange = PGlite.prototype.execProtocolStream;
    const spy = vi.spyOn(PGlite.prototype, "execProtocolStream").mockImplementation(function (this: InstanceType<typeof PGlite>, ...args: Parameters<typeof exchange>) {
      // Each exchange's first message, by its type byte (P: parse, B: bind) and what follows it.
      sent.push(Buffer.from(args[0]).toString("latin1"));
      return exchange.apply(this, args);
    });
    const database = await openDatabase({ dataDir: "memory://" });
    try {
      const read = (text: string, n: number) => sql`SELECT timestamptz '2026-11-26 10:00:00+00' AS at, interval '1 day 2 hours' AS span, date '2026-11-26' AS day,
        ARRAY[timestamptz '2026-11-26 10:00:00+00'] AS ats, ${n}::int AS n, ${JSON.stringify({ a: 1 })}::jsonb AS doc, ${text}::text AS text, ${null}::text AS nothing`;
      const expected = (text: string, n: number) => ({ at: "2026-11-26 10:00:00+00", span: "1 day 02:00:00", day: "2026-11-26", ats: '{"2026-11-26 10:00:00+00"}', n, doc: { a: 1 }, text, nothing: null });
      sent.length = 0;
      for (let i = 0; i < 3; i++) {
        expect(await database.run((db) => rows(db, read(`out ${i}`, i)))).toEqual([expected(`out ${i}`, i)]);
        expect(await database.transaction((tx) => rows(tx, read(`in ${i}`, i)))).toEqual([expected(`in ${i}`, i)]);
      }
      // Parsed once; each of the six executions a bind of that statement.
      const statement = sent.filter((m) => m.startsWith("P") && m.includes("interval '1 day 2 hours'"));
      expect(statement).toHaveLength(1);
      const name = /^P.{4}(stitch_\d+)\0/s.exec(statement[0]!)![1]!;
      expect(sent.filter((m) => m.startsWith("B") && m.includes(`\0${name}\0`))).toHaveLength(6);
    } finally {
      spy.mockRestore();
      await database.close();
    }
  });

  it("a statement PostgreSQL refuses throws its error, and the connection goes on: outside a transaction and, rolled back, inside one", async () => {
    const database = await openDatabase({ dataDir: "memory://" });
    try {
      await database.run((db) => db.execute(sql`CREATE TABLE once (id int PRIMARY KEY)`));
      const insert = (id: number) => (db: Executor) => db.execute(sql`INSERT INTO once (id) VALUES (${id})`);
      await database.run(insert(1));
      await expect(database.run(insert(1))).rejects.toMatchObject({ cause: { code: "23505" } });
      await expect(database.transaction(async (tx) => (await insert(2)(tx), await insert(1)(tx)))).rejects.toMatchObject({ cause: { code: "23505" } });
      await database.run(insert(3));
      expect(await database.run((db) => rows(db, sql`SELECT id FROM once ORDER BY id`))).toEqual([{ id: 1 }, { id: 3 }]);
    } finally {
      await database.close();
    }
  });
});
