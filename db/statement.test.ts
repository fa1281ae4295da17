/**
 * A statement written once runs with each run's own values, inside and outside a transaction, on both drivers, and
 * answers what the same statement built by drizzle at each run answers.
 */
import { type SQL, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, rows } from "./client";
import { statement } from "./statement";
import { testDatabases } from "../server/testing/databases";

const echo = statement<"items" | "factor">(
  (p) => sql`SELECT x.n * ${p.factor}::int AS n, x.s FROM jsonb_to_recordset(${p.items}::jsonb) AS x(n int, s text) ORDER BY x.n`,
);

describe.each(testDatabases)("a statement written once, on $name", (kind) => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => ({ database, drop } = await kind.open()));
  afterAll(() => drop());

  it("fills each run's values into the same text", async () => {
    const first = await database.run((db) => echo.rows<{ n: number; s: string }>(db, { items: JSON.stringify([{ n: 2, s: "b" }, { n: 1, s: "a" }]), factor: 10 }));
    const second = await database.run((db) => echo.rows<{ n: number; s: string }>(db, { items: JSON.stringify([{ n: 3, s: "c" }]), factor: 2 }));
    expect(first).toEqual([{ n: 10, s: "a" }, { n: 20, s: "b" }]);
    expect(second).toEqual([{ n: 6, s: "c" }]);
    expect(echo.text).toBe("SELECT x.n * $1::int AS n, x.s FROM jsonb_to_recordset($2::jsonb) AS x(n int, s text) ORDER BY x.n");
  });

  it("answers as drizzle's statement built at each run does, in a transaction too", async () => {
    const items = JSON.stringify([{ n: 5, s: "e" }]);
    const [built, once] = await database.transaction(async (tx) => [
      await rows(tx, sql`SELECT x.n * ${3}::int AS n, x.s FROM jsonb_to_recordset(${items}::jsonb) AS x(n int, s text) ORDER BY x.n`),
      await echo.rows(tx, { items, factor: 3 }),
    ]);
    expect(once).toEqual(built);
  });

  it("can be put inside another statement, its values numbered there", async () => {
    const items = JSON.stringify([{ n: 4, s: "d" }]);
    const inside = await database.run(async (db) => {
      const found: unknown[] = [];
      const capturing = new Proxy(db, { get: (target, prop, receiver) => (prop === "execute" ? (query: SQL) => (found.push(query), target.execute(query)) : Reflect.get(target, prop, receiver)) });
      await echo.rows(capturing, { items, factor: 7 });
      return rows<{ n: number; s: string; extra: number }>(db, sql`SELECT e.*, ${1}::int AS extra FROM (${found[0] as SQL}) AS e`);
    });
    expect(inside).toEqual([{ n: 28, s: "d", extra: 1 }]);
  });

  it("refuses a run that leaves a value out, naming it, before anything is sent", async () => {
    await expect(database.run((db) => echo.rows(db, { items: "[]" } as never))).rejects.toThrow(/placeholder "factor"/);
  });
});
