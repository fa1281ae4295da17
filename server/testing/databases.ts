/**
 * The databases every storage test runs on: embedded PGlite always, and a fresh PostgreSQL database
 * (created on the server DATABASE_URL points at, dropped afterwards) whenever DATABASE_URL is set, as in CI.
 */
import { randomBytes } from "node:crypto";
import { type Database, connectPostgres, openDatabase } from "../../db/client";

export interface TestDatabase {
  name: "pglite" | "postgres";
  open(): Promise<{ database: Database; url?: string; drop(): Promise<void> }>;
}

export const pglite: TestDatabase = {
  name: "pglite",
  async open() {
    const database = await openDatabase({ dataDir: "memory://" });
    return { database, drop: () => database.close() };
  },
};

/** Creates an empty database beside the one in `serverUrl`; returns its URL and how to drop it. */
export async function createScratchDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `stitch_test_${randomBytes(6).toString("hex")}`;
  const admin = connectPostgres(serverUrl, { max: 1 });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const again = connectPostgres(serverUrl, { max: 1 });
      await again.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await again.end();
    },
  };
}

export const realPostgres: TestDatabase = {
  name: "postgres",
  async open() {
    const scratch = await createScratchDatabase(process.env.DATABASE_URL!);
    const database = await openDatabase({ databaseUrl: scratch.url });
    return {
      database,
      url: scratch.url,
      async drop() {
        await database.close();
        await scratch.drop();
      },
    };
  },
};

export const testDatabases: TestDatabase[] = process.env.DATABASE_URL ? [pglite, realPostgres] : [pglite];
