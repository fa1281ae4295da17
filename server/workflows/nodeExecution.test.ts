/**
 * The executors' shared skeleton on the real server: a dispatch whose node config is not what the front door's own
 * lowering writes fails its node with a message naming what does not fit, never with a TypeError deep in the work.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabases } from "../testing/databases";
import { graphOf } from "../testing/flows";
import type { TestServer } from "../testing/harness";
import { type ServerOnTestDatabase, serverOn } from "../testing/suite";
import { WORKFLOW_EXECUTOR } from "./compile";
import { STEPS_EXECUTOR } from "./steps/lower";

describe.each(testDatabases)("the workflow executors' skeleton on $name", (testDatabase) => {
  let env: ServerOnTestDatabase;
  let server: TestServer;

  beforeAll(async () => {
    env = await serverOn(testDatabase, { DISPATCH_POLL_MS: "100" });
    server = env.server;
  });
  afterAll(async () => {
    await env?.close();
  });

  it.each([
    [WORKFLOW_EXECUTOR, 'node "A": its config does not fit this server\'s executor (config.kind: '],
    [STEPS_EXECUTOR, 'step "A": its config does not fit this server\'s executor (config.kind: '],
  ])("a %s node whose config does not fit fails, naming what", async (executor, message) => {
    const flow = await server.engine.createFlow(`misfit ${executor}`, graphOf([{ id: "A", type: "Worker", position: { x: 0, y: 0 }, data: { executor, kind: 7 } }]));
    const { id } = await server.engine.startRun(flow.id, null);
    const deadline = Date.now() + 30_000;
    let run = await server.engine.getRun(id);
    while (run.node_states.A!.status === "running" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      run = await server.engine.getRun(id);
    }
    expect(run.node_states.A).toMatchObject({ status: "failed", error: expect.stringContaining(message) });
  });
});
