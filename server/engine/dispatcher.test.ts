/**
 * Delivery of the outbox (dispatcher.ts) through real HTTP: bounded attempts with backoff, the node failing with
 * an error that names the HTTP status or network error (Requirement 4.5), retry once the worker is healthy
 * (Requirement 10), signatures, timeouts, dispatch adapters. The server runs with 3 attempts and 100 ms backoff.
 */
import { createHmac } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rows } from "../../db/client";
import { testDatabases } from "../testing/databases";
import { chain, graphOf, workerNode } from "../testing/flows";
import { freePort } from "../testing/harness";
import { type StitchClient, dispatchesOf, holdWorker, routeByPath } from "../testing/stitchClient";
import { type ServerOnTestDatabase, serverOn } from "../testing/suite";
import { type ReceivedDispatch, type WorkerServer, echoWorker, eventually, startWorkerServer } from "../testing/workerServer";
import { backoff, sign } from "./dispatcher";

const MAX_ATTEMPTS = 3;
const BACKOFF_MS = 100;
const TIMEOUT_MS = 1000;
const SECRET = `whsec_${Buffer.from("test signing key").toString("base64")}`;

describe("backoff", () => {
  it("doubles from the base per attempt, within ±20% jitter, capped at 5 minutes", () => {
    for (let i = 0; i < 50; i++) {
      expect(backoff(100, 1)).toBeGreaterThanOrEqual(80);
      expect(backoff(100, 1)).toBeLessThanOrEqual(120);
      expect(backoff(100, 3)).toBeGreaterThanOrEqual(320);
      expect(backoff(100, 3)).toBeLessThanOrEqual(480);
      expect(backoff(1000, 30)).toBeLessThanOrEqual(360_000);
      expect(backoff(1000, 30)).toBeGreaterThanOrEqual(240_000);
    }
  });
});

describe("sign", () => {
  it("is the Standard Webhooks v1 signature: base64 HMAC-SHA256 of id.timestamp.body with the decoded whsec_ key", () => {
    const expected = createHmac("sha256", Buffer.from("test signing key")).update("msg_1.1700000000.{}").digest("base64");
    expect(sign(SECRET, "msg_1", "1700000000", "{}")).toBe(`v1,${expected}`);
  });
});

describe.each(testDatabases)("Dispatcher on $name", (testDatabase) => {
  let env: ServerOnTestDatabase;
  let worker: WorkerServer;
  let api: StitchClient;
  /** Runs whose `/flaky` worker has recovered. */
  const healthy = new Set<string>();

  beforeAll(async () => {
    worker = await startWorkerServer(
      routeByPath({
        echo: echoWorker(),
        hold: holdWorker,
        flaky: (dispatch, res) => (healthy.has(dispatch.payload.runId) ? echoWorker(() => "recovered")(dispatch, res) : void res.writeHead(500).end("worker is down")),
        gone: (_dispatch, res) => void res.writeHead(404).end("no such hook"),
        slow: (_dispatch, res) => void setTimeout(() => res.writeHead(200).end("{}"), TIMEOUT_MS * 2),
        "callback-then-500": (dispatch, res) => {
          void fetch(dispatch.payload.callbackUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ status: "completed", output: "early" }) })
            .then((r) => r.text())
            .finally(() => res.writeHead(500).end("answered late"));
        },
      }),
    );
    env = await serverOn(testDatabase, {
      DISPATCH_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
      DISPATCH_BACKOFF_MS: String(BACKOFF_MS),
      DISPATCH_TIMEOUT_MS: String(TIMEOUT_MS),
      STITCH_WEBHOOK_SECRET: SECRET,
    });
    api = env.api;
  });
  afterAll(async () => {
    await env?.close();
    await worker?.close();
  });

  const deliveriesOf = (runId: string): ReceivedDispatch[] => worker.received.filter((d) => d.payload.runId === runId);
  const failed = (runId: string, nodeId: string) => api.waitForStatus(runId, nodeId, "failed");

  it("data.timeoutMs: a worker that accepts but never calls back fails the node with the reason; a retry that is answered in time completes it", async () => {
    const run = await api.run(graphOf([workerNode("A", `${worker.url}/hold`, { timeoutMs: 300 })]));
    const after = await failed(run.id, "A");
    expect(after.node_states.A!.error).toBe("the worker did not call back within 300 ms (attempt 1)");
    expect((await api.get(`/api/stitch/runs/${run.id}/events`)).body).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: "timeout", node_id: "A" })]),
    );
    expect((await api.retry(run.id, "A")).status).toBe(200);
    expect((await api.callback(run.id, "A", { status: "completed", output: "in time" })).status).toBe(200);
    // The second attempt's timer was cancelled with its callback: the node stays completed after it would have fired.
    await new Promise((r) => setTimeout(r, 600));
    const done = await api.getRun(run.id);
    expect(done.node_states.A).toEqual({ status: "completed", output: "in time" });
    const [{ count }] = await env.database.run((db) => rows<{ count: number }>(db, sql`SELECT count(*)::int AS count FROM stitch_dispatches WHERE run_id = ${run.id}`)) as [{ count: number }];
    expect(count).toBe(0);
  });

  it("a delivered webhook's row goes: with the callback's transaction when it comes, else deleted by the dispatcher after a grace", async () => {
    const webhookRows = (runId: string) =>
      env.database.run((db) => rows<{ node_id: string }>(db, sql`SELECT node_id FROM stitch_dispatches WHERE run_id = ${runId} AND kind = 'webhook'`));
    const until = (what: string, check: () => Promise<boolean> | boolean) => eventually(async () => ((await check()) ? true : undefined), 10_000, what);
    // No callback comes: the node stays running and its delivered row is deleted all the same.
    const held = await api.run(graphOf([workerNode("A", `${worker.url}/hold`)]));
    await until("the delivery", () => deliveriesOf(held.id).length === 1);
    await until("the held row deleted", async () => (await webhookRows(held.id)).length === 0);
    expect((await api.getRun(held.id)).node_states.A!.status).toBe("running");
    // The callbacks come: every node completes once, and no row is left behind.
    const echoed = await api.run(graphOf([workerNode("A", `${worker.url}/echo`), workerNode("B", `${worker.url}/echo`)], chain("A", "B")));
    await api.waitForStatus(echoed.id, "B", "completed");
    await until("the echoed rows deleted", async () => (await webhookRows(echoed.id)).length === 0);
    expect(deliveriesOf(echoed.id).map((d) => d.payload.nodeId)).toEqual(["A", "B"]);
    await until("nothing left waiting", () => env.server.dispatcher.deliveredRows.waiting === 0);
  });

  it("4.5 a worker answering 500 gets exactly DISPATCH_MAX_ATTEMPTS deliveries, spaced by growing backoff; then the node fails naming the status", async () => {
    const run = await api.run(graphOf([workerNode("A", `${worker.url}/flaky`), workerNode("B", `${worker.url}/hold`)], chain("A", "B")));
    const after = await failed(run.id, "A");
    expect(after.node_states.A!.error).toMatch(/^could not deliver to http:\/\/127\.0\.0\.1:\d+\/flaky: HTTP 500 Internal Server Error: worker is down \(3 attempts\)$/);
    expect(after.status).toBe("failed");
    expect(after.node_states.B!.status).toBe("pending");
    const deliveries = deliveriesOf(run.id);
    expect(deliveries).toHaveLength(MAX_ATTEMPTS);
    // Lower bounds only: backoff is at least 80% of base * 2^(n-1) before attempt n+1. Arrival times carry the
    // transport's jitter too (a first request slowed by a loaded machine shortens the next gap), hence the slack.
    const gaps = deliveries.slice(1).map((d, i) => d.receivedAt! - deliveries[i]!.receivedAt!);
    expect(gaps[0]).toBeGreaterThanOrEqual(BACKOFF_MS * 0.8 - 40);
    expect(gaps[1]).toBeGreaterThanOrEqual(BACKOFF_MS * 2 * 0.8 - 40);
    // The same delivery each time: one webhook-id (the receiver's idempotency key), one node attempt.
    expect(new Set(deliveries.map((d) => d.headers["webhook-id"])).size).toBe(1);
    expect(deliveries.map((d) => d.payload.attempt)).toEqual([1, 1, 1]);

    healthy.add(run.id);
    expect((await api.retry(run.id, "A")).status).toBe(200);
    const done = await api.waitForStatus(run.id, "A", "completed");
    expect(done.node_states.A).toEqual({ status: "completed", output: "recovered" });
    const [toB] = await eventually(async () => {
      const found = dispatchesOf(worker.received, run.id, "B");
      return found.length > 0 ? found : undefined;
    });
    expect(toB!.input).toBe("recovered");
    expect(deliveriesOf(run.id).map((d) => [d.payload.nodeId, d.payload.attempt])).toEqual([["A", 1], ["A", 1], ["A", 1], ["A", 2], ["B", 1]]);
    await api.callback(run.id, "B", { status: "completed", output: "b" });
    expect((await api.getRun(run.id)).status).toBe("completed");
  });

  it("4.5 an unreachable worker URL fails the node after the bounded attempts, naming the network error", async () => {
    const closedPort = await freePort();
    const refused = await api.run(graphOf([workerNode("A", `http://127.0.0.1:${closedPort}/hook`)]));
    expect((await failed(refused.id, "A")).node_states.A!.error).toMatch(
      new RegExp(`^could not deliver to http://127\\.0\\.0\\.1:${closedPort}/hook: network error ECONNREFUSED .*\\(3 attempts\\)$`),
    );
    const events = (await api.get(`/api/stitch/runs/${refused.id}/events`)).body as { type: string; payload: { delivery?: number; cause?: string } }[];
    expect(events.map((e) => e.type)).toEqual(["start", "redelivery", "redelivery", "delivery_failed"]);
    // Issue 40: deliveries 2 and 3 each say why they came, in the run's event log: the one before met a network error.
    expect(events.filter((e) => e.type === "redelivery").map((e) => [e.payload.delivery, e.payload.cause])).toEqual([[2, "network_error"], [3, "network_error"]]);
    // Port 9 is one fetch refuses to call at all: the error says why, and since no retry can help, there is one attempt.
    const blocked = await api.run(graphOf([workerNode("A", "http://127.0.0.1:9/hook")]));
    expect((await failed(blocked.id, "A")).node_states.A!.error).toBe("could not deliver to http://127.0.0.1:9/hook: network error: bad port (1 attempt)");
    const unresolvable = await api.run(graphOf([workerNode("A", "http://worker.invalid/hook")]));
    expect((await failed(unresolvable.id, "A")).node_states.A!.error).toMatch(/^could not deliver to http:\/\/worker\.invalid\/hook: network error (ENOTFOUND|EAI_AGAIN)/);
  });

  it("10 a worker that was unreachable and is now up: POST /retry fires the node again and the run completes", async () => {
    const port = await freePort();
    const run = await api.run(graphOf([workerNode("A", `http://127.0.0.1:${port}/echo`)]), { value: 7 });
    expect((await failed(run.id, "A")).node_states.A!.error).toMatch(/ECONNREFUSED/);
    const revived = await startWorkerServer(echoWorker(), { port });
    try {
      expect((await api.retry(run.id, "A")).status).toBe(200);
      const done = await api.waitForRun(run.id, (r) => r.status === "completed", "run completed after retry");
      expect(done.node_states.A).toEqual({ status: "completed", output: { echoed: { value: 7 } } });
      expect(revived.received.map((d) => d.payload.attempt)).toEqual([2]);
    } finally {
      await revived.close();
    }
  });

  it("an answer of 4xx (other than 408/429) is final: one attempt, then the node fails naming the status", async () => {
    const run = await api.run(graphOf([workerNode("A", `${worker.url}/gone`)]));
    const after = await failed(run.id, "A");
    expect(after.node_states.A!.error).toMatch(/HTTP 404 Not Found: no such hook \(1 attempt\)$/);
    expect(deliveriesOf(run.id)).toHaveLength(1);
  });

  it("a worker that does not answer within DISPATCH_TIMEOUT_MS counts as a failed attempt, recorded on the delivery", async () => {
    const run = await api.run(graphOf([workerNode("A", `${worker.url}/slow`)]));
    // The first attempt's error is on the outbox row; the node fails later, like the 500 case, after the last attempt.
    const lastError = await eventually(async () => {
      const [row] = await env.database.run((db) => rows<{ last_error: string | null }>(db, sql`SELECT last_error FROM stitch_dispatches WHERE run_id = ${run.id}`));
      return row?.last_error ?? undefined;
    }, 30_000, "the first attempt's error");
    expect(lastError).toBe(`no answer within ${TIMEOUT_MS} ms`);
    expect((await api.getRun(run.id)).node_states.A!.status).toBe("running");
  });

  it("a callback that arrives while its delivery is failing ends the deliveries; the node keeps the callback's result", async () => {
    const run = await api.run(graphOf([workerNode("A", `${worker.url}/callback-then-500`)]));
    const done = await api.waitForStatus(run.id, "A", "completed");
    expect(done.node_states.A).toEqual({ status: "completed", output: "early" });
    // Wait out more than the whole backoff schedule: a surviving outbox row would have been delivered again by now.
    await new Promise((resolve) => setTimeout(resolve, BACKOFF_MS * 8));
    expect(deliveriesOf(run.id)).toHaveLength(1);
    expect((await api.getRun(run.id)).node_states.A!.status).toBe("completed");
  });

  it("deliveries are signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature)", async () => {
    const run = await api.run(graphOf([workerNode("A", `${worker.url}/hold`)]));
    const [delivery] = await eventually(async () => { const d = deliveriesOf(run.id); return d.length > 0 ? d : undefined; });
    const id = String(delivery!.headers["webhook-id"]);
    const timestamp = String(delivery!.headers["webhook-timestamp"]);
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(300);
    expect(delivery!.headers["webhook-signature"]).toBe(sign(SECRET, id, timestamp, delivery!.rawBody!));
  });

  it("Dispatcher.useAdapter sends a node with data.protocol the adapter's URL and body", async () => {
    env.server.dispatcher.useAdapter("test-wrapped", async ({ runId, nodeId, url, payload }) => ({
      url: `${url}/wrapped`,
      body: { job: `${runId}:${nodeId}`, reply: payload.callbackUrl, runId },
    }));
    const run = await api.run(graphOf([workerNode("A", `${worker.url}/hold`, { protocol: "test-wrapped" })]));
    const [delivery] = await eventually(async () => { const d = deliveriesOf(run.id); return d.length > 0 ? d : undefined; });
    expect(delivery!.path).toBe("/hold/wrapped");
    expect(delivery!.payload).toEqual({ job: `${run.id}:A`, reply: `${env.server.url}/api/stitch/callback/${run.id}/A`, runId: run.id });
  });

  it("an adapter that throws, or a protocol without adapter, fails the node at once with the reason", async () => {
    env.server.dispatcher.useAdapter("test-broken", async () => {
      throw new Error("agent definition has no webhook");
    });
    const broken = await api.run(graphOf([workerNode("A", `${worker.url}/hold`, { protocol: "test-broken" })]));
    expect((await failed(broken.id, "A")).node_states.A!.error).toMatch(/agent definition has no webhook \(1 attempt\)$/);
    const unknown = await api.run(graphOf([workerNode("A", `${worker.url}/hold`, { protocol: "test-nobody" })]));
    expect((await failed(unknown.id, "A")).node_states.A!.error).toMatch(/no dispatch adapter for protocol "test-nobody" \(1 attempt\)$/);
    expect(deliveriesOf(broken.id)).toEqual([]);
  });
});
