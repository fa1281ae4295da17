/**
 * The fault suite, issue 40: a webhook is delivered again only when a fault explains it, and every repeat says why.
 * Three server processes share a fan-out of FAULT_REDELIVERY_PATHS (300) paths, a Collector and a Worker after it; the
 * worker answers each delivery 0 to 1 s after it came (so the processes hold deliveries in flight when the fault
 * comes) and calls back 0 to 2 s later to a live process picked at random, a fifth of the paths twice (to another).
 * Each round runs the fan-out three times:
 * - no fault: no webhook is delivered twice, and the run's event log records no repeat;
 * - one process's event loop stalled for 3 s (SIGUSR2 to server/testing/stallHook.ts, a busy loop) a third of the way
 *   in: no other process sends what the stalled one holds, so again nothing is delivered twice;
 * - one process killed with `kill -9` a third of the way in: a webhook is delivered again only if the killed process held
 *   it (the repeat's record in the run's event log names it as the holder whose lease lapsed), and every repeat told
 *   the worker its delivery number and cause. A process is started in its place for the next round.
 * Every path completes once and the node after the collector is delivered once, in every run. FAULT_REDELIVERY_ROUNDS
 * (1) rounds; docs/faults.md has the figures of 10. Needs PostgreSQL's server binaries; without them it is skipped.
 */
import { describe, expect, it } from "vitest";
import { duplicatingFanOut } from "../testing/duplicatingFanOut";
import { completionsPerNode, holderPid, redeliveryRecords, sleep } from "../testing/faults";
import { postgresBinaries } from "../testing/postgresCluster";
import type { ServerProcess } from "../testing/serverProcess";
import { StitchClient, dispatchesOf } from "../testing/stitchClient";
import { type ReceivedDispatch, eventually } from "../testing/workerServer";

const PATHS = Number(process.env.FAULT_REDELIVERY_PATHS ?? 300);
const ROUNDS = Number(process.env.FAULT_REDELIVERY_ROUNDS ?? 1);
const DUPLICATES = 0.2;
const STALL_MS = 3000;

type Fault = "none" | "stall" | "kill";

const binaries = postgresBinaries();
const title = binaries
  ? `3 processes, a ${PATHS}-path fan-out with ${DUPLICATES * 100}% duplicate callbacks: no fault, a 3 s stall, a kill -9 (${ROUNDS} round${ROUNDS === 1 ? "" : "s"})`
  : "skipped: the redelivery fault needs PostgreSQL's server binaries (/usr/lib/postgresql/*/bin/initdb), and this machine has none";

describe.skipIf(!binaries)(title, () => {
  const fanOutFleet = duplicatingFanOut({
    database: "redelivery", processes: 3, duplicates: DUPLICATES, answerDelayMs: 1000,
    env: { DISPATCH_POLL_MS: "200", DISPATCH_BACKOFF_MS: "100", STITCH_STALL_MS: String(STALL_MS) }, preload: ["server/testing/stallHook.ts"], startTimeoutMs: 400_000,
  });

  /** One fan-out under `fault`, applied to `target` once a third of the paths completed; what it measured. */
  async function fanOut(fault: Fault, target: ServerProcess, round: number) {
    const { fleet, worker } = fanOutFleet;
    fanOutFleet.resetAccepted();
    const client = () => new StitchClient(fanOutFleet.anyAlive());
    const flow = await client().createFlow(fanOutFleet.graph(), `redelivery ${fault} ${round}`);
    const startedAt = performance.now();
    const run = await client().startRun(flow.id, fanOutFleet.input(PATHS));

    await eventually(async () => (fanOutFleet.accepted() >= PATHS / 3 ? true : undefined), 180_000, "a third of the paths completed");
    if (fault === "kill") await target.kill();
    if (fault === "stall") process.kill(target.pid, "SIGUSR2");

    await client().waitForRun(run.id, (r) => r.node_states.Last?.status === "running" || r.node_states.Last?.status === "completed", "the node after the collector dispatched", 300_000);
    const tookMs = Math.round(performance.now() - startedAt);
    await eventually(async () => (dispatchesOf(worker.received, run.id, "Last").length > 0 ? true : undefined), 30_000, "Last delivered");
    // Longer than a lease: a row whose holder lost it would be delivered again by now.
    await sleep(6000);
    expect(dispatchesOf(worker.received, run.id, "Last"), "the node after the collector delivered once").toHaveLength(1);

    const completions = await completionsPerNode(client(), run.id, "W_");
    expect(completions.size).toBe(PATHS);
    expect([...completions.values()].filter((n) => n !== 1), "each path completed once").toEqual([]);

    const byWebhook = new Map<string, ReceivedDispatch[]>();
    for (const d of worker.received) {
      if (d.payload.runId !== run.id) continue;
      const id = String(d.headers["webhook-id"]);
      byWebhook.set(id, [...(byWebhook.get(id) ?? []), d]);
    }
    const repeated = [...byWebhook.values()].filter((ds) => ds.length > 1);
    const records = await redeliveryRecords(client(), run.id);
    const causes = new Map<string, number>();
    for (const r of records) causes.set(r.payload.cause, (causes.get(r.payload.cause) ?? 0) + 1);

    if (fault !== "kill") {
      expect(repeated.map((ds) => ds[0]!.payload.nodeId), `${fault}: webhooks delivered twice`).toEqual([]);
      expect(records, `${fault}: repeats recorded in the run's event log`).toEqual([]);
    } else {
      // Every repeat: a later delivery of a row the killed process held, telling the worker its number and cause.
      for (const ds of repeated) {
        for (const [i, d] of ds.entries()) expect(Number(d.headers["stitch-delivery-attempt"]), "delivery numbers go up").toBeGreaterThan(i === 0 ? 0 : Number(ds[i - 1]!.headers["stitch-delivery-attempt"]));
        for (const d of ds.slice(1)) expect(d.headers["stitch-redelivery-cause"], "a repeat tells the worker why").toBe("lease_lapsed");
        const recorded = records.filter((r) => r.payload.webhookId === ds[0]!.headers["webhook-id"]);
        expect(recorded.length, `the repeat of ${ds[0]!.payload.nodeId} recorded`).toBeGreaterThan(0);
      }
      expect(records.filter((r) => r.payload.cause !== "lease_lapsed" || holderPid(r.payload.holder) !== target.pid), "repeats of rows another process held").toEqual([]);
    }
    expect(fleet.exitedOnTheirOwn()).toEqual([]);
    const figures = { round, fault, paths: PATHS, deliveries: [...byWebhook.values()].reduce((n, ds) => n + ds.length, 0), repeated: repeated.length, records: records.length, causes: Object.fromEntries(causes), tookMs };
    console.log(`redelivery ${JSON.stringify(figures)}`);
    return figures;
  }

  it("a webhook is delivered again only when the killed process held it, each repeat with its cause; never under no fault or a 3 s stall", async () => {
    const all = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const [first, second, third] = fanOutFleet.alive() as [ServerProcess, ServerProcess, ServerProcess];
      all.push(await fanOut("none", first, round));
      all.push(await fanOut("stall", second, round));
      expect(second.output(), "the stall happened").toMatch(/stall hook: the event loop was held \d+ ms/);
      all.push(await fanOut("kill", third, round));
      if (round < ROUNDS) await fanOutFleet.fleet.add();
    }
    const kills = all.filter((f) => f.fault === "kill");
    console.log(
      `redelivery over ${ROUNDS} round(s) of ${PATHS} paths: no fault ${all.filter((f) => f.fault === "none").reduce((n, f) => n + f.repeated, 0)} repeats, ` +
        `3 s stall ${all.filter((f) => f.fault === "stall").reduce((n, f) => n + f.repeated, 0)} repeats, kill -9 ${kills.map((f) => f.repeated).join(", ")} repeats ` +
        `(all of rows the killed process held, each recorded: ${kills.map((f) => f.records).join(", ")} records)`,
    );
  }, ROUNDS * 900_000);
});
