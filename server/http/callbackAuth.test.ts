/**
 * STITCH_CALLBACK_SECRET: a Worker's callback URL carries a token for its run and node, and the callback endpoint
 * refuses (401, nothing changed) a callback without it, with another node's token, or with a forged one. The
 * original Stitch accepted a callback for any run from anyone who could guess the ids.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rows } from "../../db/client";
import { callbackToken, isValidCallbackToken } from "../engine/callbackToken";
import { testDatabases } from "../testing/databases";
import { chain, graphOf, workerNode } from "../testing/flows";
import { holdWorker } from "../testing/stitchClient";
import { type ServerOnTestDatabase, serverOn } from "../testing/suite";
import { type WorkerServer, eventually, postJson, startWorkerServer } from "../testing/workerServer";

const SECRET = "a-callback-secret-of-some-length";

describe("callback tokens", () => {
  it("bind the secret, the run and the node; anything else is not valid", () => {
    const token = callbackToken(SECRET, "run-1", "A");
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(isValidCallbackToken(SECRET, "run-1", "A", token)).toBe(true);
    expect(isValidCallbackToken(SECRET, "run-1", "B", token)).toBe(false);
    expect(isValidCallbackToken(SECRET, "run-2", "A", token)).toBe(false);
    expect(isValidCallbackToken(`${SECRET}x`, "run-1", "A", token)).toBe(false);
    expect(isValidCallbackToken(SECRET, "run-1", "A", undefined)).toBe(false);
    expect(isValidCallbackToken(SECRET, "run-1", "A", token.slice(1))).toBe(false);
  });
});

describe.each(testDatabases)("authenticated callbacks on $name", (testDatabase) => {
  let env: ServerOnTestDatabase;
  let worker: WorkerServer;

  beforeAll(async () => {
    worker = await startWorkerServer(holdWorker);
    env = await serverOn(testDatabase, { STITCH_CALLBACK_SECRET: SECRET });
  });
  afterAll(async () => {
    await env?.close();
    await worker?.close();
  });

  const auditedCallbacks = (runId: string) =>
    env.database.run((db) =>
      rows<{ actor_kind: string; outcome: string; status: number }>(db, sql`
        SELECT actor_kind, outcome, status FROM audit_log WHERE action = 'engine.runs.callback' AND target_id = ${runId} ORDER BY id`),
    );

  it("the callback URL a worker receives carries the token, and a callback to it completes the node; a repeat is still a duplicate", async () => {
    const run = await env.api.run(graphOf([workerNode("A", worker.url), workerNode("B", worker.url)], chain("A", "B")));
    const delivery = await eventually(async () => worker.received.find((d) => d.payload.runId === run.id), 30_000, "the dispatch of A");
    const url = new URL(delivery.payload.callbackUrl);
    expect(url.pathname).toBe(`/api/stitch/callback/${run.id}/A`);
    expect(url.searchParams.get("token")).toBe(callbackToken(SECRET, run.id, "A"));

    const callbackUrl = `${env.server.url}${url.pathname}${url.search}`;
    expect((await postJson(callbackUrl, { status: "completed", output: { ok: 1 } })).status).toBe(200);
    const again = await postJson(callbackUrl, { status: "completed", output: { ok: 1 } });
    expect(again).toMatchObject({ status: 200, body: { duplicate: true } });
    expect((await env.api.getRun(run.id)).node_states.A).toMatchObject({ status: "completed", output: { ok: 1 } });
    // Recorded once, in the run's event log; the audit trail keeps the refusals of callbacks, not a second record of each one taken.
    expect((await env.api.get(`/api/stitch/runs/${run.id}/events`)).body.filter((e: { type: string }) => e.type === "callback")).toHaveLength(1);
    expect(await auditedCallbacks(run.id)).toEqual([]);
  });

  it("a callback without the token, with another node's token or with a forged one is refused with 401 and changes nothing", async () => {
    const run = await env.api.run(graphOf([workerNode("A", worker.url), workerNode("B", worker.url)], chain("A", "B")));
    await env.api.waitForStatus(run.id, "A", "running");
    const path = `/api/stitch/callback/${run.id}/A`;
    const body = { status: "completed", output: "forged" };

    const missing = await env.api.post(path, body);
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ error: "unauthorized", message: expect.stringContaining("token") });
    const otherNode = await env.api.post(`${path}?token=${callbackToken(SECRET, run.id, "B")}`, body);
    expect(otherNode.status).toBe(401);
    const otherRun = await env.api.post(path, body, { authorization: `Bearer ${callbackToken(SECRET, "another-run", "A")}` });
    expect(otherRun.status).toBe(401);
    const forged = await env.api.post(`${path}?token=${callbackToken("not-the-secret-at-all", run.id, "A")}`, body);
    expect(forged.status).toBe(401);
    // Refused before the body is read: a malformed body without a token is a 401, not a 400.
    expect((await env.api.post(path, "{not json")).status).toBe(401);

    expect(await auditedCallbacks(run.id)).toEqual(Array(5).fill({ actor_kind: "worker", outcome: "refused", status: 401 }));
    const after = await env.api.getRun(run.id);
    expect(after.node_states.A).toMatchObject({ status: "running" });
    expect(after.node_states.B).toMatchObject({ status: "pending" });
    expect((await env.api.get(`/api/stitch/runs/${run.id}/events`)).body.filter((e: { type: string }) => e.type === "callback")).toEqual([]);

    // The token may also come as a bearer token (for workers that keep the URL without its query).
    const bearer = await env.api.post(path, { status: "completed", output: "real" }, { authorization: `Bearer ${callbackToken(SECRET, run.id, "A")}` });
    expect(bearer.status).toBe(200);
    await env.api.waitForStatus(run.id, "B", "running");
  });
});
