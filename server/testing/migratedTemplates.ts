/**
 * The server tests' global setup (vite.config.ts): once per `vitest run`, one migrated database of each kind that
 * every test database is then a copy of, so no test file boots an empty database and migrates it itself.
 * - PGlite: a migrated in-memory database, dumped to a tarball file; test databases load it (testing/databases.ts).
 * - PostgreSQL: a migrated template database on the server DATABASE_URL names (CI) or, without DATABASE_URL, on a
 *   local PostgreSQL at 127.0.0.1:5432 when one answers; test databases are CREATE DATABASE ... TEMPLATE copies.
 * The migrations are whatever db/migrations holds when the run starts. After the run the template and every
 * database of the run still there (a test process that died leaves its scratch database) are dropped, the dump removed.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { connectPostgres, migratedPglite, openDatabase } from "../../db/client";
import { SCRATCH_PREFIX, adminStatement, databaseUrl, dropDatabase, postgresAnswers } from "./scratchDatabases";

export interface TestDatabaseTemplates {
  /** A migrated PGlite data directory, as dumpDataDir's tarball in this file. */
  pgliteDump: string;
  /** Present when the run has a PostgreSQL: its server, the migrated template, and the tag every scratch name of the run carries. */
  postgres?: { serverUrl: string; template: string; tag: string };
}

declare module "vitest" {
  export interface ProvidedContext {
    testDatabaseTemplates: TestDatabaseTemplates;
  }
}

/** Where a developer's PostgreSQL answers when DATABASE_URL is unset (as on the CI machine: trust auth, user postgres). */
const LOCAL_POSTGRES = "postgres://postgres@127.0.0.1:5432/postgres";

/** DATABASE_URL when set: it must work, so a failure fails the run. Otherwise the local PostgreSQL, if it answers. */
async function postgresServer(): Promise<string | undefined> {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  return (await postgresAnswers(LOCAL_POSTGRES)) ? LOCAL_POSTGRES : undefined;
}

async function dumpMigratedPglite(dir: string): Promise<string> {
  const { client } = await migratedPglite("memory://");
  try {
    // A checkpoint first, so each copy starts without replaying the write-ahead log.
    await client.exec("CHECKPOINT");
    const file = join(dir, "pglite-migrated.tar");
    await writeFile(file, Buffer.from(await (await client.dumpDataDir("none")).arrayBuffer()));
    return file;
  } finally {
    await client.close();
  }
}

/** Drops every database whose name starts with `prefix`: the template and any scratch database left behind. */
async function dropDatabasesOfRun(serverUrl: string, prefix: string): Promise<void> {
  const admin = connectPostgres(serverUrl, { max: 1 });
  let names: string[];
  try {
    names = (await admin<{ datname: string }[]>`SELECT datname FROM pg_database WHERE starts_with(datname, ${prefix})`).map((row) => row.datname);
  } finally {
    await admin.end();
  }
  for (const name of names) await dropDatabase(serverUrl, name);
}

async function migratedPostgresTemplate(serverUrl: string, tag: string): Promise<string> {
  const template = `${SCRATCH_PREFIX}${tag}_template`;
  await adminStatement(serverUrl, `CREATE DATABASE ${template}`);
  // Two connections at least: openDatabase holds one for its advisory lock while the migrator uses another.
  const database = await openDatabase({ databaseUrl: databaseUrl(serverUrl, template), poolSize: 2 });
  await database.close();
  // PostgreSQL copies a database only while nobody is connected to it: from now on nobody can be.
  await adminStatement(serverUrl, `ALTER DATABASE ${template} WITH ALLOW_CONNECTIONS false`);
  return template;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), "stitch-test-templates-"));
  const serverUrl = await postgresServer();
  const tag = randomBytes(4).toString("hex");
  const teardown = async () => {
    await rm(dir, { recursive: true, force: true });
    if (serverUrl) await dropDatabasesOfRun(serverUrl, `${SCRATCH_PREFIX}${tag}_`);
  };
  // Both at once; both settled before a failure is cleaned up, so nothing is created after the teardown ran.
  const [pglite, postgres] = await Promise.allSettled([dumpMigratedPglite(dir), serverUrl ? migratedPostgresTemplate(serverUrl, tag) : undefined]);
  if (pglite.status === "rejected" || postgres.status === "rejected") {
    await teardown();
    throw pglite.status === "rejected" ? pglite.reason : (postgres as PromiseRejectedResult).reason;
  }
  const template = postgres.value;
  project.provide("testDatabaseTemplates", { pgliteDump: pglite.value, ...(serverUrl && template ? { postgres: { serverUrl, template, tag } } : {}) });
  return teardown;
}
