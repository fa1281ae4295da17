/**
 * One lock order (the engine's run row first, then a front door's rows), proven where it can fail: on PostgreSQL,
 * with a connection per transaction. Each round races two events on one run that used to take the two locks in
 * opposite orders, or that compete for the same decision: an agent's callback with its timeout, an approval with a
 * cancellation, a retry with a resumption, on every front door. No round may deadlock or fail with anything but a
 * refusal (a 4xx), and each run ends in a state one of the two orders explains. PGlite has one connection and cannot
 * show such a fault, so this file runs on PostgreSQL only.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Refusal } from "../lib/refusal";
import { gateKey, workerKey } from "../pipeline/definition";
import { type TestDatabase, testDatabases } from "../testing/databases";
import { reviewerNamed } from "../testing/deciders";
import { chain, graphOf, reviewGate, workerNode } from "../testing/flows";
import { type ServerOnTestDatabase, serverOn } from "../testing/suite";
import { holdWorker } from "../testing/stitchClient";
import { type WorkerServer, eventually, startWorkerServer } from "../testing/workerServer";

/** Rounds per pair of racing events (a few hundred in all); RACE_ROUNDS raises it for a longer soak. */
const ROUNDS = Number(process.env.RACE_ROUNDS ?? 30);
const onPostgres = testDatabases.filter((d) => d.name === "postgres");

const rita = reviewerNamed("rita");
const OLGA = { accountId: null, name: "olga", role: "operator" } as const;

const BRIEF = { domain: "tools", brief: "A tool library where neighbours lend drills, ladders and saws to each other." };

const GATE = `name: race-gate
description: an approval to race a cancellation against
nodes:
  - id: gate
    approval:
      message: "Go on?"
`;

const BROKEN = `name: race-broken
description: a node that fails, to race its retry against the run's resumption
nodes:
  - id: broken
    command: no-such-command
`;

const BROKEN_STEPS = {
  id: "race-broken-steps",
  steps: [
    { id: "a", tool: "utils.echo", params: { x: 1 } },
    { id: "b", tool: "utils.echo", params: { text: "{{a.output.missing}}" } },
  ],
};

/** Both outcomes of a race: each MUST be applied or refused as a 4xx; a deadlock or any other error fails the round. */
async function race(label: string, first: () => Promise<unknown>, second: () => Promise<unknown>): Promise<[boolean, boolean]> {
  const settled = await Promise.allSettled([first(), second()]);
  return settled.map((outcome, i) => {
    if (outcome.status === "fulfilled") return true;
    const error = outcome.reason as unknown;
    if (error instanceof Refusal && error.httpStatus < 500) return false;
    throw new Error(`${label}: ${i === 0 ? "the first" : "the second"} event failed with a non-refusal: ${error instanceof Error ? error.stack : String(error)}`);
  }) as [boolean, boolean];
}

// Without a PostgreSQL to run on, the suite is listed as skipped (a stand-in entry that is never opened).
const targets: TestDatabase[] = onPostgres.length > 0 ? onPostgres : [{ name: "postgres", open: () => Promise.reject(new Error("no PostgreSQL")) }];

describe.skipIf(onPostgres.length === 0).each(targets)("one lock order under racing events on $name", (testDatabase) => {
  let env: ServerOnTestDatabase;
  let agents: WorkerServer;
  let workflowsDir: string;

  beforeAll(async () => {
    agents = await startWorkerServer(holdWorker);
    workflowsDir = mkdtempSync(join(tmpdir(), "stitch-races-"));
    env = await serverOn(testDatabase, {
      // The first agent accepts its call and never answers: the test plays its callback and its timeout.
      AGENT_WEBHOOK_REQUIREMENTS: `${agents.url}/requirements`,
      DATABASE_POOL_SIZE: "8",
      WORKFLOWS_DIR: workflowsDir,
      DISPATCH_POLL_MS: "50",
    });
    const { workflows, steps } = env.server;
    await workflows.commands.register(GATE);
    await workflows.commands.register(BROKEN);
    await steps.commands.register(BROKEN_STEPS);
  });
  afterAll(async () => {
    await env?.close();
    await agents?.close();
    rmSync(workflowsDir, { recursive: true, force: true });
  });

  it("pipeline: an agent's callback races its timeout; an approval races a cancellation; a retry races a cancellation", async () => {
    const { pipeline, engine } = env.server;
    for (let round = 0; round < ROUNDS; round++) {
      const run = await pipeline.commands.createRun(BRIEF);
      const engineRunId = (await pipeline.queries.conversation(run.run_id)).stitch_run_id;
      const [called, timedOut] = await race(
        "callback vs timeout",
        () => pipeline.commands.receiveCallback("requirements", { runId: run.run_id, output: { content: { round } } }),
        () => engine.handle(engineRunId, { type: "timeout", key: workerKey("requirements"), attempt: 1, afterMs: 1 }),
      );
      // The timeout of an attempt that called back is a no-op (a duplicate), so both are "applied"; the state says which came first.
      expect(called || timedOut).toBe(true);
      const after = await pipeline.queries.getRun(run.run_id);
      expect(["WAITING_APPROVAL_REQUIREMENTS", "FAILED_REQUIREMENTS"]).toContain(after.status);
      const node = (await engine.getRun(engineRunId)).node_states[workerKey("requirements")]!;
      expect(node.status).toBe(after.status === "FAILED_REQUIREMENTS" ? "failed" : "completed");

      if (after.status === "FAILED_REQUIREMENTS") {
        const [retried, cancelled] = await race(
          "retry vs cancel",
          () => pipeline.commands.retry(run.run_id, "olga"),
          () => pipeline.commands.cancel(run.run_id, "racing", OLGA),
        );
        expect(cancelled).toBe(true);
        void retried;
      } else {
        const [approved, cancelled] = await race(
          "approve vs cancel",
          () => pipeline.commands.approve(run.run_id, rita),
          () => pipeline.commands.cancel(run.run_id, "racing", OLGA),
        );
        expect(approved || cancelled).toBe(true);
        const gate = (await engine.getRun(engineRunId)).node_states[gateKey("requirements")]!;
        expect(["completed", "cancelled"]).toContain(gate.status);
      }
      expect((await pipeline.queries.getRun(run.run_id)).status).toBe("CANCELLED");
    }
  });

  it("YAML workflows: an approval races a cancellation; a failed node's retry races the run's resumption", async () => {
    const { workflows, engine } = env.server;
    for (let round = 0; round < ROUNDS; round++) {
      const gated = await workflows.commands.startRun("race-gate", { message: `round ${round}` });
      await eventually(async () => ((await engine.getRun(gated.id)).node_states.gate?.status === "waiting_for_user" ? true : undefined));
      const [approved, cancelled] = await race(
        "approve vs cancel",
        () => workflows.commands.approve(gated.id, "gate", "yes", rita),
        () => workflows.commands.cancel(gated.id, "racing", OLGA),
      );
      expect(approved || cancelled).toBe(true);
      const settled = await workflows.queries.getRun(gated.id);
      expect(settled.status === "cancelled" || settled.nodes.gate!.status === "completed").toBe(true);

      const broken = await workflows.commands.startRun("race-broken", { message: `round ${round}` });
      await eventually(async () => ((await engine.getRun(broken.id)).status === "failed" ? true : undefined));
      const [retried, resumed] = await race(
        "retry vs resume",
        () => workflows.commands.retry(broken.id, "broken", "olga"),
        () => workflows.commands.resume(broken.id, "olga"),
      );
      expect(retried || resumed).toBe(true);
      await eventually(async () => ((await engine.getRun(broken.id)).status === "failed" ? true : undefined));
    }
  });

  it("step workflows: a failed step's retry races the run's resumption, and then a cancellation", async () => {
    const { steps, engine } = env.server;
    for (let round = 0; round < ROUNDS; round++) {
      const run = await steps.commands.startRun("race-broken-steps", {});
      await eventually(async () => ((await engine.getRun(run.id)).status === "failed" ? true : undefined));
      const [retried, resumed] = await race(
        "retry vs resume",
        () => steps.commands.retryStep(run.id, "b", "olga"),
        () => steps.commands.resume(run.id, "olga"),
      );
      expect(retried || resumed).toBe(true);
      const [cancelled] = await race(
        "cancel vs the executor's report",
        () => steps.commands.cancel(run.id, "racing", OLGA),
        () => eventually(async () => ((await engine.getRun(run.id)).status !== "running" ? true : undefined)),
      );
      expect(cancelled || (await engine.getRun(run.id)).status === "failed").toBe(true);
    }
  });

  it("plain flows: a worker's callback races its timeout; a review races a cancellation", async () => {
    const { flows, engine } = env.server;
    const flow = await engine.createFlow(
      "race",
      graphOf([workerNode("W", `${agents.url}/worker`, { timeoutMs: 60_000 }), reviewGate("R")], chain("W", "R")),
    );
    for (let round = 0; round < ROUNDS; round++) {
      const run = await flows.startRun(flow.id, { round });
      const [called, timedOut] = await race(
        "callback vs timeout",
        () => flows.callback(run.id, "W", undefined, { status: "completed", output: { round } }),
        () => engine.handle(run.id, { type: "timeout", key: "W", attempt: 1, afterMs: 1 }),
      );
      expect(called || timedOut).toBe(true);
      const state = (await engine.getRun(run.id)).node_states;
      if (state.W!.status === "completed") {
        const [reviewed, cancelled] = await race(
          "review vs cancel",
          () => flows.review(run.id, "R", { decision: "approve" }, rita),
          () => flows.cancel(run.id, "racing", "olga"),
        );
        expect(reviewed || cancelled).toBe(true);
      } else expect(state.W!.status).toBe("failed");
    }
  });
});
