/**
 * The dispatcher's leases (dispatcher.ts): a claimed row's lease is short (DISPATCH_LEASE_MS) and renewed by a heartbeat
 * while the process works on it, so a delivery slower than the lease is still delivered once, and a row whose process
 * stopped renewing (it died) is claimed again soon after. The fault suite measures the takeover after a real
 * `kill -9` (server/faults/deliveryTakeover.test.ts).
 */
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { rows } from "../../db/client";
import { testDatabases } from "../testing/databases";
import { graphOf, workerNode } from "../testing/flows";
import { dispatchesOf } from "../testing/stitchClient";
import { type ServerOnTestDatabase, serverOn } from "../testing/suite";
import { type WorkerServer, eventually, startWorkerServer } from "../testing/workerServer";
import { claimDispatches, renewDispatches } from "./outboxStore";

// A second: a send starts only with half a lease left, and on a loaded machine a claim's round trip can take 300 ms.
const LEASE_MS = 1000;
const ANSWER_AFTER_MS = 5000;

describe.each(testDatabases)("dispatch leases on $name", (testDatabase) => {
  let env: ServerOnTestDatabase | undefined;
  let worker: WorkerServer;

  beforeAll(async () => {
    worker = await startWorkerServer((_dispatch, res) => void setTimeout(() => res.writeHead(200).end("{}"), ANSWER_AFTER_MS));
  });
  afterAll(async () => {
    await worker?.close();
  });
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  it("a delivery five times slower than the lease is delivered once: the heartbeat keeps its lease", async () => {
    env = await serverOn(testDatabase, { DISPATCH_LEASE_MS: String(LEASE_MS), DISPATCH_POLL_MS: "50", DISPATCH_TIMEOUT_MS: "15000" });
    const flow = await env.api.createFlow(graphOf([workerNode("W", `${worker.url}/slow`)], []), "slow worker");
    const run = await env.api.startRun(flow.id, {});
    const pending = async () => (await env!.database.run((db) => rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM stitch_dispatches WHERE run_id = ${run.id} AND kind = 'webhook'`)))[0]!.n;
    await eventually(async () => ((await pending()) === 0 ? true : undefined), 20_000, "the delivery done");
    expect(dispatchesOf(worker.received, run.id, "W")).toHaveLength(1);
  });

  it("renews only the rows it still holds: not one claimed again since, nor one released", async () => {
    env = await serverOn(testDatabase, {});
    await env.server.dispatcher.stop();
    const flow = await env.api.createFlow(graphOf([workerNode("A", `${worker.url}/a`), workerNode("B", `${worker.url}/b`)], []), "two workers");
    await env.api.startRun(flow.id, {});
    const { database } = env;
    const lockedFor = async () =>
      Object.fromEntries(
        (await database.run((db) => rows<{ node_id: string; ms: number | null }>(db, sql`
          SELECT node_id, (extract(epoch FROM locked_until - now()) * 1000)::int AS ms FROM stitch_dispatches WHERE kind = 'webhook'`))).map((r) => [r.node_id, r.ms]),
      );
    const claimed = await database.run((db) => claimDispatches(db, 10, 200, "test"));
    expect(claimed.map((c) => c.node_id).sort()).toEqual(["A", "B"]);
    const [a, b] = ["A", "B"].map((key) => claimed.find((c) => c.node_id === key)!);
    // Both leases lapse and a later claim takes both rows (their delivery counts go up); then A is released.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const again = await database.run((db) => claimDispatches(db, 10, 200, "test"));
    expect(again.map((c) => c.node_id).sort()).toEqual(["A", "B"]);
    await database.run((db) => db.execute(sql`UPDATE stitch_dispatches SET locked_until = NULL WHERE id = ${a!.id}`));
    const bAgain = again.find((c) => c.node_id === "B");

    // The first claims' heartbeat: A's row has no lease now, B's belongs to the later claim; neither is touched.
    await database.run((db) => renewDispatches(db, [{ id: a!.id, deliveries: a!.deliveries }, { id: b!.id, deliveries: b!.deliveries }], 60_000));
    const after = await lockedFor();
    expect(after.A).toBeNull();
    expect(after.B).toBeLessThan(1000);
    // The later claim's heartbeat renews it.
    await database.run((db) => renewDispatches(db, [{ id: bAgain!.id, deliveries: bAgain!.deliveries }], 60_000));
    expect((await lockedFor()).B).toBeGreaterThan(50_000);
  });
});
