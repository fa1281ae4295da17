/**
 * The webhooks a transaction writes are written claimed by the process that commits them, as many as its dispatcher
 * has free slots for, and handed to it after the commit (no claim statement, no wake-up of other processes). The rest
 * are written unclaimed for any process; a transaction that rolls back gives its slots back.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type Database, rows } from "../../db/client";
import { testDatabases } from "../testing/databases";
import { engineOn, engineOnTestDatabase } from "../testing/engineOnTestDatabase";
import { chain, graphOf, workerNode } from "../testing/flows";
import type { LocalDelivery } from "./engine";
import type { ClaimedDispatch } from "./outboxStore";

const hook = "https://worker.example.test/hook";

/** A dispatcher's side of the hand-off with `slots` free slots, recording what it is asked. */
function localDelivery(slots: number) {
  const seen = { reserved: 0, released: 0, delivered: [] as ClaimedDispatch[], told: [] as string[] };
  let free = slots;
  const local: LocalDelivery = {
    leaseMs: 5000,
    holder: "test",
    reserve(wanted) {
      const granted = Math.min(wanted, free);
      free -= granted;
      seen.reserved += granted;
      return granted;
    },
    release(count) {
      free += count;
      seen.released += count;
    },
    deliver(rows) {
      seen.delivered.push(...rows);
      seen.told.push(...rows.map((r) => `deliver ${r.node_id}`));
    },
    cleared(nodes) {
      seen.told.push(...nodes.map((n) => `cleared ${n.key}`));
    },
  };
  return { local, seen };
}

describe.each(testDatabases)("webhooks handed to the committing process, on $name", (testDatabase) => {
  let database: Database;
  engineOnTestDatabase(testDatabase, (storage) => ({ database } = storage));

  const engineWith = (slots: number) => {
    const engine = engineOn(database);
    const { local, seen } = localDelivery(slots);
    engine.deliverHere(local);
    return { engine, seen };
  };
  const outbox = (runId: string) =>
    database.run((db) =>
      rows<{ id: string; node_id: string; deliveries: number; leased: boolean }>(db, sql`
        SELECT id, node_id, deliveries, locked_until IS NOT NULL AND locked_until > now() AS leased FROM stitch_dispatches WHERE run_id = ${runId} ORDER BY node_id`),
    );
  const threeWorkers = graphOf([workerNode("A", hook), workerNode("B", hook), workerNode("C", hook)]);

  it("a webhook is written leased and counted as its first delivery, and handed over once committed", async () => {
    const { engine, seen } = engineWith(10);
    const flow = await engine.createFlow("local", threeWorkers);
    const run = await engine.startRun(flow.id, null);
    const written = await outbox(run.id);
    expect(written.map((r) => [r.node_id, r.deliveries, r.leased])).toEqual([["A", 1, true], ["B", 1, true], ["C", 1, true]]);
    expect(seen.delivered.map((r) => [r.id, r.node_id, r.deliveries, r.node_attempt])).toEqual(written.map((r) => [r.id, r.node_id, 1, 1]));
    expect(seen.delivered[0]!.payload).toMatchObject({ runId: run.id, nodeId: "A", attempt: 1 });
    expect(seen).toMatchObject({ reserved: 3, released: 0 });
  });

  it("beyond the free slots, webhooks are written for any process to claim", async () => {
    const { engine, seen } = engineWith(1);
    const flow = await engine.createFlow("local", threeWorkers);
    const run = await engine.startRun(flow.id, null);
    const written = await outbox(run.id);
    expect(written.filter((r) => r.leased && r.deliveries === 1)).toHaveLength(1);
    expect(written.filter((r) => !r.leased && r.deliveries === 0)).toHaveLength(2);
    expect(seen.delivered).toHaveLength(1);
  });

  it("a transaction that rolls back writes nothing, hands nothing over and gives its slots back", async () => {
    const { engine, seen } = engineWith(10);
    const flow = await engine.createFlow("local", threeWorkers);
    const runId = "7d1c1a52-2c8e-4c55-9d5a-7c1f0b0b2a01";
    await expect(
      engine.transaction(async (ops) => {
        await ops.startRun(flow.id, null, { runId });
        throw new Error("the caller's own write failed");
      }),
    ).rejects.toThrow("the caller's own write failed");
    expect(await outbox(runId)).toEqual([]);
    expect(seen).toMatchObject({ reserved: 3, released: 3, delivered: [] });
  });

  it("a commit tells which nodes' rows it deleted, before it hands over the rows it wrote", async () => {
    const { engine, seen } = engineWith(10);
    const flow = await engine.createFlow("local", graphOf([workerNode("A", hook), workerNode("B", hook)], chain("A", "B")));
    const run = await engine.startRun(flow.id, null);
    expect(seen.told).toEqual(["deliver A"]);
    await engine.handle(run.id, { type: "callback", key: "A", status: "completed", output: 1 });
    expect(seen.told).toEqual(["deliver A", "cleared A", "deliver B"]);
    expect((await outbox(run.id)).map((r) => r.node_id)).toEqual(["B"]);
    // A repeated callback changes nothing, and clears nothing.
    await engine.handle(run.id, { type: "callback", key: "A", status: "completed", output: 1 });
    expect(seen.told).toHaveLength(3);
  });
});
