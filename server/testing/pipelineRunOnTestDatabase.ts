/**
 * The real server on a test database with one pipeline run started on it (a tool library's brief), for the tests of
 * one `describe`: started before its tests; after them the run is cancelled first (so that no agent calls back into
 * a closed database), then the server stopped and the database dropped.
 */
import { afterAll, beforeAll } from "vitest";
import type { TestDatabase } from "./databases";
import { type ServerOnTestDatabase, serverOn } from "./suite";

/** Hands the server and the run's id to `started` (which keeps them in the describe's variables). */
export function pipelineRunOnTestDatabase(testDatabase: TestDatabase, started: (run: { env: ServerOnTestDatabase; runId: string }) => void): void {
  let env: ServerOnTestDatabase | undefined;
  let runId: string | undefined;
  beforeAll(async () => {
    env = await serverOn(testDatabase);
    runId = (await env.api.post("/runs", { domain: "tools", brief: "A tool library where neighbours lend drills, ladders and saws to each other." })).body.run_id;
    started({ env, runId: runId! });
  });
  afterAll(async () => {
    await env?.api.post(`/runs/${runId}/cancel`, {});
    await env?.close();
  });
}
