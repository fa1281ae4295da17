/**
 * The databases every storage test runs on: embedded PGlite always, and PostgreSQL whenever the run has one
 * (DATABASE_URL, as in CI, or a local PostgreSQL that answers; see migratedTemplates.ts, the global setup).
 * Each test database is a fresh copy of the run's migrated database, so opening one does not migrate anew:
 * openDatabase still runs the migrator, which finds every migration applied.
 */
import { readFile } from "node:fs/promises";
import { inject } from "vitest";
import { type Database, openDatabase } from "../../db/client";
import { type ScratchDatabase, createScratchDatabase as createScratch } from "./scratchDatabases";

export interface TestDatabase {
  name: "pglite" | "postgres";
  open(): Promise<{ database: Database; url?: string; drop(): Promise<void> }>;
}

const templates = inject("testDatabaseTemplates");
if (!templates) throw new Error("server tests need the global setup of vite.config.ts's server project (server/testing/migratedTemplates.ts)");

let pgliteDump: Promise<Blob> | undefined;

/** The run's migrated PGlite data directory (a tarball), read once per test process; PGlite only reads it. */
export function migratedPgliteDump(): Promise<Blob> {
  return (pgliteDump ??= readFile(templates.pgliteDump).then((bytes) => new Blob([bytes])));
}

export const pglite: TestDatabase = {
  name: "pglite",
  async open() {
    const database = await openDatabase({ dataDir: "memory://", loadDataDir: await migratedPgliteDump() });
    return { database, drop: () => database.close() };
  },
};

/** The PostgreSQL server of this run, for tests that make databases of their own; undefined when the run has none. */
export const postgresServerUrl: string | undefined = templates.postgres?.serverUrl;

/**
 * Creates an empty database beside the one in `serverUrl`; returns its URL and how to drop it. Its name carries the
 * run's tag, so the run drops it at the end even when the test process that made it died first.
 */
export function createScratchDatabase(serverUrl: string): Promise<ScratchDatabase> {
  return createScratch(serverUrl, { tag: templates.postgres?.tag });
}

/** A scratch PostgreSQL database that is a copy of the run's migrated template. */
export function copyOfPostgresTemplate(): Promise<ScratchDatabase> {
  const postgres = templates.postgres;
  if (!postgres) throw new Error("this run has no PostgreSQL: DATABASE_URL is unset and none answered at 127.0.0.1:5432");
  return createScratch(postgres.serverUrl, { template: postgres.template, tag: postgres.tag });
}

export const realPostgres: TestDatabase = {
  name: "postgres",
  async open() {
    const scratch = await copyOfPostgresTemplate();
    const database = await openDatabase({ databaseUrl: scratch.url }).catch(async (error: unknown) => {
      await scratch.drop();
      throw error;
    });
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

export const testDatabases: TestDatabase[] = templates.postgres ? [pglite, realPostgres] : [pglite];
