/**
 * Throwaway PostgreSQL databases for tests, benchmarks and the end-to-end server: created beside the database a
 * server URL names, empty or as a copy of a template, and dropped afterwards. Every name starts with
 * `stitch_test_`, so a database left behind by a killed process is recognisable (and safe to drop by hand).
 * This module imports nothing of vitest: bench/ and e2e/ use it outside a test run.
 */
import { randomBytes } from "node:crypto";
import { connectPostgres } from "../../db/client";

export const SCRATCH_PREFIX = "stitch_test_";

export interface ScratchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

export interface ScratchOptions {
  /**
   * Copy this database (CREATE DATABASE ... TEMPLATE) instead of starting empty. Nobody may be connected to the
   * template while it is copied, or PostgreSQL refuses the copy.
   */
  template?: string;
  /** Starts the name (after SCRATCH_PREFIX), e.g. one test run's tag, so that run can drop what it left behind. */
  tag?: string;
}

/** `serverUrl` with its path naming the database `name` (its user, host and settings kept). */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `statement` on the database `serverUrl` names, over one connection closed at once. */
export async function adminStatement(serverUrl: string, statement: string): Promise<void> {
  const admin = connectPostgres(serverUrl, { max: 1 });
  try {
    await admin.unsafe(statement);
  } finally {
    await admin.end();
  }
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  await adminStatement(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

/** Creates a database beside the one in `serverUrl` (empty, or a copy of `options.template`); returns its URL and how to drop it. */
export async function createScratchDatabase(serverUrl: string, options: ScratchOptions = {}): Promise<ScratchDatabase> {
  const name = `${SCRATCH_PREFIX}${options.tag ? `${options.tag}_` : ""}${randomBytes(6).toString("hex")}`;
  await adminStatement(serverUrl, `CREATE DATABASE ${name}${options.template ? ` TEMPLATE ${options.template}` : ""}`);
  return { name, url: databaseUrl(serverUrl, name), drop: () => dropDatabase(serverUrl, name) };
}

/** True when a PostgreSQL answers at `serverUrl` within `timeoutSeconds`. */
export async function postgresAnswers(serverUrl: string, timeoutSeconds = 2): Promise<boolean> {
  const probe = connectPostgres(serverUrl, { max: 1, connect_timeout: timeoutSeconds });
  try {
    await probe`SELECT 1`;
    return true;
  } catch {
    return false;
  } finally {
    await probe.end({ timeout: 0 }).catch(() => undefined);
  }
}
