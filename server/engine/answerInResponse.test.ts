/**
 * A Worker with `data.answer: "response"` may put its result in its answer to the dispatch (n8n's "Respond to
 * Webhook"): the node completes or fails in the delivery's own transaction, with no callback. 202 or an empty answer
 * still means "I will call back"; an answer that is not a callback's body fails the node, naming what was wrong. The
 * answers that come back together are applied together (Engine.handleAll), each as its own callback would be.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rows } from "../../db/client";
import { testDatabases } from "../testing/databases";
import { chain, graphOf, workerNode } from "../testing/flows";
import type { StitchClient } from "../testing/stitchClient";
import { type ServerOnTestDatabase, serverOn } from "../testing/suite";
import { type WorkerServer, eventually, startWorkerServer } from "../testing/workerServer";
import { routeByPath } from "../testing/stitchClient";

const answering = { answer: "response" };

describe.each(testDatabases)("A worker's answer carries its result, on $name", (testDatabase) => {
  let env: ServerOnTestDatabase;
  let worker: WorkerServer;
  let api: StitchClient;

  beforeAll(async () => {
    worker = await startWorkerServer(
      routeByPath({
        double: (dispatch, res) => {
          const value = (dispatch.payload.input as { value: number }).value;
          res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ status: "completed", output: { value: value * 2 } }));
        },
        refuse: (_dispatch, res) => void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ status: "failed", error: "no credit left" })),
        later: (_dispatch, res) => void res.writeHead(202).end(),
        garbled: (_dispatch, res) => void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ok: true })),
      }),
    );
    env = await serverOn(testDatabase, { DISPATCH_MAX_ATTEMPTS: "3", DISPATCH_BACKOFF_MS: "100" });
    api = env.api;
  });
  afterAll(async () => {
    await env?.close();
    await worker?.close();
  });

  const outboxOf = async (runId: string) =>
    (await env.database.run((db) => rows<{ count: number }>(db, sql`SELECT count(*)::int AS count FROM stitch_dispatches WHERE run_id = ${runId}`)))[0]!.count;

  it("a chain of answering Workers completes without a callback; each answer is logged as its node's callback, and the outbox is empty", async () => {
    const nodes = ["A", "B", "C"].map((id) => workerNode(id, `${worker.url}/double`, answering));
    const run = await api.run(graphOf(nodes, chain("A", "B", "C")), { value: 1 });
    const done = await api.waitForRun(run.id, (r) => r.status === "completed", "run completed");
    expect(done.node_states.C).toEqual({ status: "completed", output: { value: 8 } });
    const events = (await api.get(`/api/stitch/runs/${run.id}/events`)).body as { type: string; node_id: string | null; payload: { attempt?: number } }[];
    expect(events.map((e) => [e.type, e.node_id])).toEqual([["start", null], ["callback", "A"], ["callback", "B"], ["callback", "C"]]);
    // The attempt the dispatch was for is recorded, so a late answer of an earlier attempt is recognised.
    expect(events.slice(1).map((e) => e.payload.attempt)).toEqual([1, 1, 1]);
    expect(await outboxOf(run.id)).toBe(0);
  });

  it("many runs' answers arriving together are each applied once (a batch), every run with its own result", async () => {
    const flow = graphOf(["A", "B"].map((id) => workerNode(id, `${worker.url}/double`, answering)), chain("A", "B"));
    const runs = await Promise.all(Array.from({ length: 20 }, (_, i) => api.run(flow, { value: i })));
    for (const [i, run] of runs.entries()) {
      const done = await api.waitForRun(run.id, (r) => r.status === "completed", `run ${i} completed`);
      expect(done.node_states.B!.output).toEqual({ value: i * 4 });
    }
    const perRun = await env.database.run((db) =>
      rows<{ callbacks: number }>(db, sql`
        SELECT count(*)::int AS callbacks FROM stitch_run_events
        WHERE type = 'callback' AND run_id = ANY(ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(runs.map((r) => r.id))}::jsonb)::uuid))
        GROUP BY run_id`),
    );
    expect(perRun.map((r) => r.callbacks)).toEqual(Array(20).fill(2));
  });

  it("an answer that reports a failure fails the node with the worker's error, as a callback would", async () => {
    const run = await api.run(graphOf([workerNode("A", `${worker.url}/refuse`, answering)]));
    const failed = await api.waitForStatus(run.id, "A", "failed");
    expect(failed.node_states.A!.error).toBe("no credit left");
    expect(await outboxOf(run.id)).toBe(0);
  });

  it("202 means the worker will call back: the node waits, and its callback completes it", async () => {
    const run = await api.run(graphOf([workerNode("A", `${worker.url}/later`, answering)]));
    await eventually(async () => (worker.received.some((d) => d.payload.runId === run.id) ? true : undefined));
    await eventually(async () => ((await outboxOf(run.id)) === 0 ? true : undefined), 10_000, "the delivered row deleted");
    expect((await api.getRun(run.id)).node_states.A!.status).toBe("running");
    expect((await api.callback(run.id, "A", { status: "completed", output: "called back" })).status).toBe(200);
    expect((await api.getRun(run.id)).node_states.A).toEqual({ status: "completed", output: "called back" });
  });

  it("an answer that is not a callback's body fails the node at once, saying what it should have been", async () => {
    const run = await api.run(graphOf([workerNode("A", `${worker.url}/garbled`, answering)]));
    const failed = await api.waitForStatus(run.id, "A", "failed");
    expect(failed.node_states.A!.error).toMatch(/HTTP 200: the node has data\.answer "response", but the answer is not a callback body .*: \{"ok":true\} \(1 attempt\)$/);
    expect(worker.received.filter((d) => d.payload.runId === run.id)).toHaveLength(1);
  });

  it("without data.answer, a result in the answer is ignored: the seed's protocol waits for the callback", async () => {
    const run = await api.run(graphOf([workerNode("A", `${worker.url}/double`)]), { value: 3 });
    await eventually(async () => ((await outboxOf(run.id)) === 0 ? true : undefined), 10_000, "the delivered row deleted");
    expect((await api.getRun(run.id)).node_states.A!.status).toBe("running");
  });

  it("data.answer is refused where it cannot apply, and a value other than callback or response is refused", async () => {
    const onExecutor = await api.post("/api/stitch/flows", { name: "x", graph: graphOf([{ id: "A", type: "Worker", position: { x: 0, y: 0 }, data: { executor: "x", answer: "response" } }]) });
    expect(onExecutor.status).toBe(400);
    expect(JSON.stringify(onExecutor.body)).toContain("only Worker nodes POSTed to data.webhookUrl answer their dispatch with a result");
    const bad = await api.post("/api/stitch/flows", { name: "x", graph: graphOf([workerNode("A", `${worker.url}/double`, { answer: "sometimes" })]) });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('data.answer must be \\"callback\\" or \\"response\\"');
  });
});
