/**
 * Requirement 11.3: a server restart loses nothing. One run lives through four "processes" on one database
 * (PGlite: files in a temporary folder, closed before the next opens them; PostgreSQL: a scratch database):
 *   1. an engine commits the run, and so A's dispatch, then dies before any dispatcher sends it;
 *   2. a server starts, sends A; the worker holds A's callback; the server stops;
 *   3. the next server receives A's callback and dispatches B; B's worker answers 503; the server stops during backoff;
 *   4. the last server sends B again, the worker is healthy now, and the run completes.
 * Every server listens on the same port, so callback URLs handed out before a restart stay valid.
 * The tests are the steps of that story and run in order.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServices } from "../app";
import { loadConfig } from "../config";
import { testDatabases } from "../testing/databases";
import { chain, graphOf, workerNode } from "../testing/flows";
import { LOOPBACK_ALLOWED, type TestServer, freePort, startTestServer } from "../testing/harness";
import { type ReopenableDatabase, createReopenableDatabase } from "../testing/reopenableDatabase";
import { StitchClient, dispatchesOf, holdWorker, routeByPath } from "../testing/stitchClient";
import { type WorkerServer, echoWorker, postJson, startWorkerServer } from "../testing/workerServer";
import type { WorkerPayload } from "./schemas";

describe.each(testDatabases)("Requirement 11.3: restart on $name", (testDatabase) => {
  let store: ReopenableDatabase;
  let worker: WorkerServer;
  let baseUrl: string;
  let port: number;
  let api: StitchClient;
  let server: TestServer | undefined;
  let runId: string;
  let bIsHealthy = false;

  beforeAll(async () => {
    store = await createReopenableDatabase(testDatabase.name);
    worker = await startWorkerServer(
      routeByPath({
        hold: holdWorker,
        flaky: (dispatch, res) => (bIsHealthy ? echoWorker(() => "b, at last")(dispatch, res) : void res.writeHead(503).end("starting up")),
      }),
    );
    port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    api = new StitchClient(baseUrl);
  });
  afterAll(async () => {
    await server?.close();
    await worker?.close();
    await store?.destroy();
  });

  /** Stops the current server (if any), runs `whileDown`, and starts the next one on the same port and data. */
  const restart = async (env: Record<string, string> = {}, whileDown: () => void = () => {}) => {
    await server?.close();
    server = undefined;
    whileDown();
    server = await startTestServer(await store.open(), { PORT: String(port), NEXT_PUBLIC_BASE_URL: baseUrl, ...env });
  };
  const deliveries = (nodeId: string): WorkerPayload[] => dispatchesOf(worker.received, runId, nodeId);

  it("11.3 a dispatch committed but never sent before the process died is sent after the restart", async () => {
    const firstDatabase = await store.open();
    const first = await createServices(loadConfig({ NEXT_PUBLIC_BASE_URL: baseUrl, OUTBOUND_ALLOW: LOOPBACK_ALLOWED }), firstDatabase);
    const flow = await first.engine.createFlow("restart", graphOf([workerNode("A", `${worker.url}/hold`), workerNode("B", `${worker.url}/flaky`)], chain("A", "B")));
    const run = await first.engine.startRun(flow.id, { n: 1 });
    runId = run.id;
    expect(run.node_states.A!.status).toBe("running");
    await firstDatabase.close(); // the dispatcher never started: A's delivery is only in the outbox
    expect(worker.received).toHaveLength(0);

    await restart();
    const [delivered] = await worker.waitFor(1);
    expect(delivered!.payload).toMatchObject({ runId, nodeId: "A", input: { n: 1 }, callbackUrl: `${baseUrl}/api/stitch/callback/${runId}/A` });
  });

  it("11.3 a callback arriving after a restart is applied and edge-walking continues", async () => {
    const callbackUrl = deliveries("A")[0]!.callbackUrl;
    await server!.close();
    server = undefined;
    await expect(postJson(callbackUrl, { status: "completed", output: "a" })).rejects.toThrow(); // nobody listens now

    await restart({ DISPATCH_BACKOFF_MS: "500", DISPATCH_MAX_ATTEMPTS: "5" });
    expect(await postJson(callbackUrl, { status: "completed", output: "a" })).toMatchObject({ status: 200, body: { duplicate: false } });
    await worker.waitFor(2);
    expect(deliveries("B")[0]).toMatchObject({ nodeId: "B", input: "a" });
    expect((await api.getRun(runId)).node_states.A).toEqual({ status: "completed", output: "a" });
  });

  it("11.3 a delivery waiting out its backoff when the process stopped is sent by the next process, and the run completes", async () => {
    // B's worker answered 503 to the previous server, which is now waiting out its backoff: stop it there.
    await restart({}, () => {
      bIsHealthy = true;
    });
    const done = await api.waitForRun(runId, (run) => run.status === "completed", "run completed by the restarted server");
    expect(done.node_states).toEqual({ A: { status: "completed", output: "a" }, B: { status: "completed", output: "b, at last" } });
    const toB = worker.received.filter((d) => d.payload.runId === runId && d.payload.nodeId === "B");
    expect(toB.length).toBeGreaterThanOrEqual(2);
    // One outbox row throughout: the delivery after the restart is the same one (same webhook-id), for the same attempt.
    expect(new Set(toB.map((d) => d.headers["webhook-id"])).size).toBe(1);
    expect(new Set(toB.map((d) => d.payload.attempt))).toEqual(new Set([1]));
    expect(deliveries("A")).toHaveLength(1);
  });
});
