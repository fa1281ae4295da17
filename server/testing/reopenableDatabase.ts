/**
 * A database that outlives the process using it: closed and opened again, as a server restart does.
 * PGlite keeps its files in a temporary folder; PostgreSQL uses a scratch database on DATABASE_URL's server.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Database, openDatabase } from "../../db/client";
import { type TestDatabase, createScratchDatabase } from "./databases";

export interface ReopenableDatabase {
  /** Opens (and migrates) a new connection to the same data; close the previous one first when it is PGlite. */
  open(): Promise<Database>;
  /** PostgreSQL: the scratch database's URL, for child processes. */
  url?: string;
  /** Removes the data for good. */
  destroy(): Promise<void>;
}

export async function createReopenableDatabase(kind: TestDatabase["name"]): Promise<ReopenableDatabase> {
  if (kind === "pglite") {
    const dataDir = await mkdtemp(join(tmpdir(), "stitch-restart-"));
    return {
      open: () => openDatabase({ dataDir }),
      destroy: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error("a reopenable PostgreSQL database needs DATABASE_URL");
  const scratch = await createScratchDatabase(serverUrl);
  return { open: () => openDatabase({ databaseUrl: scratch.url }), url: scratch.url, destroy: () => scratch.drop() };
}
