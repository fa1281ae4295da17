/**
 * The engine alone on a test database, for the tests of one `describe`: no HTTP and no dispatcher, its callback URLs
 * at a made-up address. The database is opened before the tests and dropped after them.
 */
import { afterAll, beforeAll } from "vitest";
import type { Database } from "../../db/client";
import { Engine } from "../engine/engine";
import { stitchPaths } from "../http/paths";
import type { TestDatabase } from "./databases";

/** Where the engines of these tests say a worker calls back (nothing listens there). */
export const exampleBaseUrl = "https://stitch.example.test";

/** An engine on `database` whose callback URLs point at `baseUrl`. */
export const engineOn = (database: Database, baseUrl = exampleBaseUrl) =>
  new Engine(database, { callbackUrl: (runId, key) => stitchPaths.callbackUrl(baseUrl, runId, key) });

/**
 * Opens `testDatabase` before the tests of the calling `describe` and hands its database and an engine on it to
 * `opened` (which keeps them in the describe's variables); drops the database after the tests.
 */
export function engineOnTestDatabase(testDatabase: TestDatabase, opened: (storage: { database: Database; engine: Engine }) => void): void {
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const { database, drop: dropIt } = await testDatabase.open();
    drop = dropIt;
    opened({ database, engine: engineOn(database) });
  });
  afterAll(async () => {
    await drop?.();
  });
}
