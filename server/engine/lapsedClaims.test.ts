/**
 * Issue 40: a webhook is delivered again only when a fault explains it. Two dispatchers (two processes) share one
 * database. Process A writes a webhook claimed by itself (OutboxHandOff.written, its LocalDelivery), but its send starts
 * later than its lease allows (here a slow dispatch adapter; in production slots, a batch's commit, a stalled event
 * loop) while its renewals do not land (they wait 5 s, as a stalled process's would). Its lease lapses, process B
 * claims the row and sends it. Before the fix A sent it too, with nothing in any log: the worker got the same
 * `webhook-id` twice. Now A checks its claim before sending (a fenced renewal, since less than half a lease is left),
 * finds it lost and does not send; B's delivery says it is the second and why, and the run's event log says so too.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { stitchPaths } from "../http/paths";
import { parseOutboundAllow } from "../lib/outboundPolicy";
import { testDatabases } from "../testing/databases";
import { graphOf, workerNode } from "../testing/flows";
import { LOOPBACK_ALLOWED } from "../testing/harness";
import { type WorkerServer, eventually, startWorkerServer } from "../testing/workerServer";
import { Dispatcher, type DispatcherOptions } from "./dispatcher";
import { Engine } from "./engine";

// A lease long enough that the process holding the row can still send it on a busy machine (a send starts only with
// half a lease left), and a send and renewals held up well past it.
const LEASE_MS = 1500;
const ADAPTER_DELAY_MS = 4000;
const RENEWALS_LAND_AFTER_MS = 5000;

const options: DispatcherOptions = {
  maxAttempts: 3, backoffMs: 50, timeoutMs: 5000, leaseMs: LEASE_MS, concurrency: 8, pollMs: 50, outbound: { policy: parseOutboundAllow(LOOPBACK_ALLOWED) },
};

describe.each(testDatabases)("a claim that lapsed before its send, on $name", (testDatabase) => {
  let opened: Awaited<ReturnType<typeof testDatabase.open>>;
  let worker: WorkerServer;
  const dispatchers: Dispatcher[] = [];

  beforeAll(async () => {
    opened = await testDatabase.open();
    worker = await startWorkerServer();
  });
  afterEach(async () => {
    await Promise.all(dispatchers.splice(0).map((d) => d.stop()));
  });
  afterAll(async () => {
    await worker?.close();
    await opened?.drop();
  });

  /** A process: its engine and dispatcher on `database`, with a dispatch adapter "late" that answers after `delayMs`. */
  async function processOn(database: Database, delayMs: number, holder: string) {
    const engine = new Engine(database, { callbackUrl: (runId, key) => stitchPaths.callbackUrl("http://127.0.0.1:9", runId, key) });
    const dispatcher = new Dispatcher(database, engine, { ...options, holder });
    dispatcher.useAdapter("late", async ({ url, payload }) => {
      await sleep(delayMs);
      return { url, body: payload };
    });
    dispatchers.push(dispatcher);
    await dispatcher.start();
    return engine;
  }

  it("is not sent by the process that lost it: the worker gets the webhook once, from the process that holds it, told why it came again", async () => {
    const { database } = opened;
    // Process A's renewals wait 5 s before they reach the database: its lease lapses while its send is held up.
    const stalledRenewals: Database = { ...database, runApart: async (fn) => (await sleep(RENEWALS_LAND_AFTER_MS), database.runApart(fn)) };
    const a = await processOn(stalledRenewals, ADAPTER_DELAY_MS, "process-A");
    const flow = await a.createFlow("late send", graphOf([workerNode("W", `${worker.url}/hook`, { protocol: "late" })]));
    const run = await a.startRun(flow.id, {});
    // Process B starts after A's claim is written, and takes the row once A's lease has lapsed.
    const b = await processOn(database, 0, "process-B");

    const [delivery] = await worker.waitFor(1, 20_000);
    // Long enough for A's adapter to have answered and its renewal to have landed: a send of A's would be here by now.
    await sleep(ADAPTER_DELAY_MS + RENEWALS_LAND_AFTER_MS);
    const deliveries = worker.received.filter((d) => d.payload.runId === run.id);
    expect(deliveries.map((d) => d.headers["webhook-id"]), "the webhook delivered once").toHaveLength(1);
    expect(delivery!.headers["stitch-delivery-attempt"]).toBe("2");
    expect(delivery!.headers["stitch-redelivery-cause"]).toBe("lease_lapsed");

    const events = await eventually(async () => {
      const found = (await b.runEvents(run.id)).filter((e) => e.type === "redelivery");
      return found.length > 0 ? found : undefined;
    }, 5000, "the redelivery in the run's event log");
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ node_id: "W", payload: { cause: "lease_lapsed", holder: "process-A", by: "process-B", delivery: 2, webhookId: delivery!.headers["webhook-id"] } });
    // The run's history (a replay of the events applied to it) is not confused by the record.
    expect((await b.history(run.id)).steps.map((s) => s.event.type)).toEqual(["start"]);
  }, 60_000);
});
