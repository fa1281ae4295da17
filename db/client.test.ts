/**
 * DATABASE_URL forms the postgres driver is given: host:port as usual, and libpq's `?host=/socket/dir` for a
 * PostgreSQL on this machine's Unix socket.
 */
import { sql } from "drizzle-orm";
import { existsSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";
import { createScratchDatabase, postgresServerUrl } from "../server/testing/databases";
import { connectPostgres, openDatabase, postgresTarget, rows } from "./client";

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
  it("reads dates, times and intervals as the text PostgreSQL sends, in and out of transactions, without sending drizzle's parsers with each query", async () => {
    const { PGlite } = await import("@electric-sql/pglite");
    const sent: unknown[] = [];
    const query = PGlite.prototype.query;
    const spy = vi.spyOn(PGlite.prototype, "query").mockImplementation(function (this: InstanceType<typeof PGlite>, ...args: Parameters<typeof query>) {
      sent.push(args[2]);
      return query.apply(this, args);
    });
    const database = await openDatabase({ dataDir: "memory://" });
    try {
      const read = sql`SELECT timestamptz '2026-11-26 10:00:00+00' AS at, interval '1 day 2 hours' AS span, date '2026-11-26' AS day,
        ARRAY[timestamptz '2026-11-26 10:00:00+00'] AS ats, 7::int AS n, '{"a":1}'::jsonb AS doc`;
      const expected = { at: "2026-11-26 10:00:00+00", span: "1 day 02:00:00", day: "2026-11-26", ats: '{"2026-11-26 10:00:00+00"}', n: 7, doc: { a: 1 } };
      sent.length = 0;
      expect(await database.run((db) => rows(db, read))).toEqual([expected]);
      expect(await database.transaction((tx) => rows(tx, read))).toEqual([expected]);
      // Queries outside transactions go through PGlite's query (a transaction's go through its own object's).
      expect(sent.length).toBeGreaterThan(0);
      for (const options of sent) expect(options).not.toHaveProperty("parsers");
    } finally {
      spy.mockRestore();
      await database.close();
    }
  });
});
