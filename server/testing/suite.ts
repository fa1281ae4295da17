/**
 * Setup shared by the storage and route tests: a test database with the real server on it, closed in one call.
 */
import type { Database } from "../../db/client";
import type { ServiceOverrides } from "../app";
import type { TestDatabase } from "./databases";
import { type TestServer, startTestServer } from "./harness";
import { StitchClient } from "./stitchClient";

export interface ServerOnTestDatabase {
  server: TestServer;
  database: Database;
  api: StitchClient;
  /** Stops the server (which closes the database) and drops the scratch database. */
  close(): Promise<void>;
}

export async function serverOn(testDatabase: TestDatabase, env: Record<string, string> = {}, overrides: ServiceOverrides = {}): Promise<ServerOnTestDatabase> {
  const opened = await testDatabase.open();
  const server = await startTestServer(opened.database, env, overrides);
  return {
    server,
    database: opened.database,
    api: new StitchClient(server.url),
    async close() {
      await server.close();
      // The server closed the database already; what is left is dropping a PostgreSQL scratch database.
      await opened.drop().catch((error: unknown) => {
        if (!(error instanceof Error && /closed/i.test(error.message))) throw error;
      });
    },
  };
}
