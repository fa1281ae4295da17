/**
 * The fault suite: a process killed (`kill -9`) while it holds deliveries. One server process delivers a fan-out whose
 * worker holds every request open (a slow worker: longer than the deliveries' own timeout, DISPATCH_TIMEOUT_MS, lasts
 * in this test); a second process starts meanwhile and takes none of them, their leases renewed by the first one's
 * heartbeat. Then the first is killed: its leases are no longer renewed (DISPATCH_LEASE_MS, 5 s by default), so the
 * second claims and delivers them again. Asserted: every path is delivered again within 10 s of the kill, none twice,
 * no lease has lapsed once they are, and each repeat told the worker its number and cause (a lapsed lease) and is
 * recorded in the run's event log naming the killed process; then the worker answers and calls back, and every path
 * completes exactly once.
 * Prints how long the takeover took. Needs PostgreSQL's server binaries; without them it is skipped.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerResponse } from "node:http";
import { connectPostgres } from "../../db/client";
import { chain, collectorNode, graphOf, splitterNode, workerNode } from "../testing/flows";
import { type Fleet, completionsPerNode, freshDatabase, holderPid, pathOf, postUntilAnswered, redeliveryRecords, sleep, startFleet } from "../testing/faults";
import { type PostgresCluster, postgresBinaries, startPostgresCluster } from "../testing/postgresCluster";
import { StitchClient } from "../testing/stitchClient";
import { type WorkerServer, eventually, startWorkerServer } from "../testing/workerServer";

const PATHS = Number(process.env.FAULT_TAKEOVER_PATHS ?? 40);
const TAKEOVER_LIMIT_MS = 10_000;

const binaries = postgresBinaries();
const title = binaries
  ? `a process killed while it holds deliveries to a slow worker (2 processes, ${PATHS} paths)`
  : "skipped: the delivery takeover fault needs PostgreSQL's server binaries (/usr/lib/postgresql/*/bin/initdb), and this machine has none";

describe.skipIf(!binaries)(title, () => {
  let cluster: PostgresCluster | undefined;
  let fleet: Fleet | undefined;
  let worker: WorkerServer | undefined;
  let url = "";
  /** The requests the worker holds open: answered once the takeover was measured. */
  const held: ServerResponse[] = [];
  let holding = true;

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    url = await freshDatabase(cluster, "takeover");
    worker = await startWorkerServer((_dispatch, res) => void (holding ? held.push(res) : res.writeHead(200).end("{}")));
    fleet = await startFleet(url, 1, { DISPATCH_POLL_MS: "200", DISPATCH_TIMEOUT_MS: "60000" });
  }, 180_000);

  afterAll(async () => {
    for (const res of held) res.destroy();
    await fleet?.stop();
    await worker?.close();
    await cluster?.destroy();
  }, 60_000);

  it("the killed process's deliveries are delivered again within 10 s, and every path completes once", async () => {
    // The first process holds every delivery (the worker answers none); the second starts meanwhile, and must not take
    // any while the first renews their leases.
    const doomed = fleet!.processes[0]!;
    const graph = graphOf([splitterNode("S"), workerNode("W", `${worker!.url}/paths`), collectorNode("C")], chain("S", "W", "C"));
    const flow = await new StitchClient(doomed.url).createFlow(graph, "delivery takeover");
    const run = await new StitchClient(doomed.url).startRun(flow.id, { items: Array.from({ length: PATHS }, (_, i) => ({ i })) });
    await worker!.waitFor(PATHS, 60_000);
    const survivor = await fleet!.add();
    const client = new StitchClient(survivor.url);
    await sleep(3000);
    expect(new Set(worker!.received.map((d) => d.payload.nodeId)).size, "each path delivered once while the first lives").toBe(PATHS);
    expect(worker!.received).toHaveLength(PATHS);

    await doomed.kill();
    const killedAt = performance.now();
    const admin = connectPostgres(url, { max: 1 });
    let takeoverMs: number;
    try {
      // Every webhook row is held by a live lease again: the killed process's rows were claimed by the survivor.
      await eventually(async () => {
        const [{ lapsed }] = (await admin`SELECT count(*)::int AS lapsed FROM stitch_dispatches WHERE kind = 'webhook' AND (locked_until IS NULL OR locked_until < now())`) as unknown as [{ lapsed: number }];
        return lapsed === 0 && worker!.received.length > PATHS ? true : undefined;
      }, 30_000, "the killed process's deliveries claimed again");
      await sleep(2000);
      const again = worker!.received.slice(PATHS);
      takeoverMs = Math.max(...again.map((d) => d.receivedAt! - killedAt));
      expect(again.length, "the killed process held some deliveries").toBeGreaterThan(0);
      expect(takeoverMs, "every delivery of the killed process was delivered again within 10 s").toBeLessThan(TAKEOVER_LIMIT_MS);
      expect(new Set(again.map((d) => d.payload.nodeId)).size, "none delivered again twice").toBe(again.length);
      // Issue 40: every repeat says why, to the worker (the second delivery of its webhook-id, a lapsed lease) and in the
      // run's event log, naming the killed process as the holder that stopped renewing.
      const told = again.map((d) => `${String(d.headers["stitch-delivery-attempt"])} ${String(d.headers["stitch-redelivery-cause"])}`);
      expect(told.filter((t) => t !== "2 lease_lapsed"), "each repeat told the worker its number and cause").toEqual([]);
      const records = await redeliveryRecords(client, run.id);
      expect(records.map((r) => r.node_id).sort(), "each repeat recorded in the run's event log").toEqual(again.map((d) => d.payload.nodeId).sort());
      expect(records.filter((r) => r.payload.cause !== "lease_lapsed" || holderPid(r.payload.holder) !== doomed.pid), "records of another cause or holder").toEqual([]);
    } finally {
      await admin.end();
    }
    const redelivered = worker!.received.length - PATHS;

    // The worker answers now, and calls back each path once, to the process that lives.
    holding = false;
    for (const res of held.splice(0)) if (!res.destroyed) res.writeHead(200).end("{}");
    const nodes = [...new Set(worker!.received.map((d) => d.payload))].filter((p, i, all) => all.findIndex((q) => q.nodeId === p.nodeId) === i);
    await Promise.all(nodes.map((p) => postUntilAnswered(() => survivor.url, pathOf(p.callbackUrl), { status: "completed", output: { square: (p.input as { i: number }).i ** 2 } })));
    const done = await client.waitForRun(run.id, (r) => r.node_states.C?.status === "completed", "the collector completed", 60_000);
    expect(done.node_states.C!.output).toEqual(Array.from({ length: PATHS }, (_, i) => ({ square: i * i })));
    const completions = await completionsPerNode(client, run.id, "W_");
    expect(completions.size).toBe(PATHS);
    expect([...completions.values()].filter((n) => n !== 1)).toEqual([]);
    expect(fleet!.exitedOnTheirOwn()).toEqual([]);
    console.log(`kill -9 of 1 of 2 processes holding deliveries to a slow worker (${PATHS} paths): its ${redelivered} deliveries delivered again by the other within ${Math.round(takeoverMs)} ms of the kill; 0 lost, each path completed once`);
  }, 300_000);
});
