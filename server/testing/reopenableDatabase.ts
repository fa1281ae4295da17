/**
 * A database that outlives the process using it: closed and opened again, as a server restart does.
 * PGlite keeps its files in a temporary folder; PostgreSQL uses a scratch database on the run's server. Both start as
 * copies of the run's migrated database (see databases.ts).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Database, openDatabase } from "../../db/client";
import { type TestDatabase, copyOfPostgresTemplate, migratedPgliteDump } from "./databases";

export interface ReopenableDatabase {
  /** Opens (and migrates, which finds nothing left to do) a new connection to the same data; close the previous one first when it is PGlite. */
  open(): Promise<Database>;
  /** PostgreSQL: the scratch database's URL, for child processes. */
  url?: string;
  /** Removes the data for good. */
  destroy(): Promise<void>;
}

export async function createReopenableDatabase(kind: TestDatabase["name"]): Promise<ReopenableDatabase> {
  if (kind === "pglite") {
    const dataDir = await mkdtemp(join(tmpdir(), "stitch-restart-"));
    // The first open fills the empty folder with a copy of the run's migrated database; later ones find it there.
    let copy: Blob | undefined = await migratedPgliteDump();
    return {
      async open() {
        const database = await openDatabase({ dataDir, loadDataDir: copy });
        copy = undefined;
        return database;
      },
      destroy: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  const scratch = await copyOfPostgresTemplate();
  return { open: () => openDatabase({ databaseUrl: scratch.url }), url: scratch.url, destroy: () => scratch.drop() };
}
