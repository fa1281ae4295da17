/**
 * The fault suite: one of three server processes killed (`kill -9`) a third of the way into a fan-out whose worker
 * sends a fifth of its callbacks twice. The worker answers each dispatch at once and calls back 0 to 2 s later, to a
 * process picked at random among those alive (a callback that meets the killed one is sent to another, as a worker
 * behind a load balancer would see it); a duplicate goes to another process. Asserted: every path completed exactly
 * once, the collector got every output in order, the node after it was delivered exactly once, a path was delivered
 * twice only when its first delivery was in flight at the kill, and the two other processes did not exit.
 * FAULT_FANOUT_PATHS (300) paths; 1,000 takes a few minutes more. Prints how long the run took after the kill.
 * Needs PostgreSQL's server binaries; without them it is skipped.
 */
import { describe, expect, it } from "vitest";
import { duplicatingFanOut } from "../testing/duplicatingFanOut";
import { completionsPerNode, sleep } from "../testing/faults";
import { postgresBinaries } from "../testing/postgresCluster";
import { StitchClient, dispatchesOf } from "../testing/stitchClient";
import { type ReceivedDispatch, eventually } from "../testing/workerServer";

const PATHS = Number(process.env.FAULT_FANOUT_PATHS ?? 300);
const DUPLICATES = 0.2;

const binaries = postgresBinaries();
const title = binaries
  ? `1 of 3 processes killed a third into a ${PATHS}-path fan-out with ${DUPLICATES * 100}% duplicate callbacks`
  : "skipped: the fan-out kill fault needs PostgreSQL's server binaries (/usr/lib/postgresql/*/bin/initdb), and this machine has none";

describe.skipIf(!binaries)(title, () => {
  const fanOutFleet = duplicatingFanOut({
    database: "fanout", processes: 3, duplicates: DUPLICATES, env: { DISPATCH_POLL_MS: "200", DISPATCH_BACKOFF_MS: "100" }, startTimeoutMs: 180_000,
  });

  it("every path completes once, nothing is delivered twice but what the kill cut short, and no other process exits", async () => {
    const { fleet, worker } = fanOutFleet;
    const client = () => new StitchClient(fanOutFleet.anyAlive());
    const flow = await client().createFlow(fanOutFleet.graph(), "fan-out kill");
    const run = await client().startRun(flow.id, fanOutFleet.input(PATHS));

    await eventually(async () => (fanOutFleet.accepted() >= PATHS / 3 ? true : undefined), 120_000, "a third of the paths completed");
    const victim = fleet.processes[0]!;
    await victim.kill();
    const killedAt = performance.now();

    const done = await client().waitForRun(run.id, (r) => r.node_states.Last?.status === "running" || r.node_states.Last?.status === "completed", "the node after the collector dispatched", 240_000);
    const afterKillMs = Math.round(performance.now() - killedAt);
    expect(done.node_states.C!.output).toEqual(Array.from({ length: PATHS }, (_, i) => ({ square: i * i })));
    await eventually(async () => (dispatchesOf(worker.received, run.id, "Last").length > 0 ? true : undefined), 30_000, "Last delivered");
    await sleep(1000);
    expect(dispatchesOf(worker.received, run.id, "Last"), "the node after the collector delivered once").toHaveLength(1);

    const completions = await completionsPerNode(client(), run.id, "W_");
    expect(completions.size).toBe(PATHS);
    expect([...completions.values()].filter((n) => n !== 1), "each path completed once").toEqual([]);

    // A path delivered twice: only one whose first delivery was under way when the process was killed.
    const byNode = new Map<string, ReceivedDispatch[]>();
    for (const d of worker.received) if (d.payload.runId === run.id) byNode.set(d.payload.nodeId, [...(byNode.get(d.payload.nodeId) ?? []), d]);
    const twice = [...byNode.entries()].filter(([, ds]) => ds.length > 1);
    expect(twice.filter(([, ds]) => !(ds.length === 2 && ds[0]!.receivedAt! < killedAt && ds[1]!.receivedAt! > killedAt)).map(([id]) => id), "delivered twice without the kill between").toEqual([]);
    expect(fleet.exitedOnTheirOwn()).toEqual([]);
    console.log(
      `kill -9 of 1 of 3 processes after ${PATHS / 3 | 0} of ${PATHS} paths (${DUPLICATES * 100}% duplicate callbacks): every path completed once, ` +
        `${twice.length} delivered again after the kill (first delivery cut short), the node after the collector delivered once; the run reached it ${afterKillMs} ms after the kill`,
    );
  }, 400_000);
});
