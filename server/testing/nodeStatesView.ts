/**
 * A run's `node_states` as the seed's SQL view `stitch_runs_with_node_states` assembles it ({} for no such run), read
 * as SQL answers it (not parsed), for tests that check the view against what the engine answers. Nothing in the
 * product reads the view: it is there for SQL's readers.
 */
import { sql } from "drizzle-orm";
import { type Database, rows } from "../../db/client";

export async function nodeStatesFromView(database: Database, runId: string): Promise<unknown> {
  const [row] = await database.run((db) => rows<{ node_states: unknown }>(db, sql`SELECT node_states FROM stitch_runs_with_node_states WHERE id = ${runId}`));
  return row?.node_states ?? {};
}
