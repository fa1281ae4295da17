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
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chain, collectorNode, graphOf, splitterNode, workerNode } from "../testing/flows";
import { type Fleet, completionsPerNode, freshDatabase, pathOf, postUntilAnswered, sleep, startFleet } from "../testing/faults";
import { type PostgresCluster, postgresBinaries, startPostgresCluster } from "../testing/postgresCluster";
import { StitchClient, dispatchesOf } from "../testing/stitchClient";
import { type ReceivedDispatch, type WorkerServer, eventually, startWorkerServer } from "../testing/workerServer";

const PATHS = Number(process.env.FAULT_FANOUT_PATHS ?? 300);
const DUPLICATES = 0.2;

const binaries = postgresBinaries();
const title = binaries
  ? `1 of 3 processes killed a third into a ${PATHS}-path fan-out with ${DUPLICATES * 100}% duplicate callbacks`
  : "skipped: the fan-out kill fault needs PostgreSQL's server binaries (/usr/lib/postgresql/*/bin/initdb), and this machine has none";

describe.skipIf(!binaries)(title, () => {
  let cluster: PostgresCluster | undefined;
  let fleet: Fleet | undefined;
  let worker: WorkerServer | undefined;
  let stopping = false;
  let accepted = 0;

  const alive = () => fleet!.processes.filter((p) => !p.ended());
  const anyAlive = () => {
    const live = alive();
    return live[Math.floor(Math.random() * live.length)]!.url;
  };

  async function callBack(dispatch: ReceivedDispatch): Promise<void> {
    const p = dispatch.payload;
    if (p.nodeId === "Last") return;
    await sleep(Math.random() * 2000);
    const body = { status: "completed", output: { square: (p.input as { i: number }).i ** 2 } };
    const status = await postUntilAnswered(anyAlive, pathOf(p.callbackUrl), body, () => stopping);
    if (status === 200) accepted++;
    if (Math.random() < DUPLICATES) await postUntilAnswered(anyAlive, pathOf(p.callbackUrl), body, () => stopping);
  }

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    const url = await freshDatabase(cluster, "fanout");
    worker = await startWorkerServer((dispatch, res) => {
      res.writeHead(200).end("{}");
      void callBack(dispatch);
    });
    fleet = await startFleet(url, 3, { DISPATCH_POLL_MS: "200", DISPATCH_BACKOFF_MS: "100" });
  }, 180_000);

  afterAll(async () => {
    stopping = true;
    await fleet?.stop();
    await worker?.close();
    await cluster?.destroy();
  }, 60_000);

  it("every path completes once, nothing is delivered twice but what the kill cut short, and no other process exits", async () => {
    const client = () => new StitchClient(anyAlive());
    const graph = graphOf([splitterNode("S"), workerNode("W", `${worker!.url}/paths`), collectorNode("C"), workerNode("Last", `${worker!.url}/last`)], chain("S", "W", "C", "Last"));
    const flow = await client().createFlow(graph, "fan-out kill");
    const run = await client().startRun(flow.id, { items: Array.from({ length: PATHS }, (_, i) => ({ i })) });

    await eventually(async () => (accepted >= PATHS / 3 ? true : undefined), 120_000, "a third of the paths completed");
    const victim = fleet!.processes[0]!;
    await victim.kill();
    const killedAt = performance.now();

    const done = await client().waitForRun(run.id, (r) => r.node_states.Last?.status === "running" || r.node_states.Last?.status === "completed", "the node after the collector dispatched", 240_000);
    const afterKillMs = Math.round(performance.now() - killedAt);
    expect(done.node_states.C!.output).toEqual(Array.from({ length: PATHS }, (_, i) => ({ square: i * i })));
    await eventually(async () => (dispatchesOf(worker!.received, run.id, "Last").length > 0 ? true : undefined), 30_000, "Last delivered");
    await sleep(1000);
    expect(dispatchesOf(worker!.received, run.id, "Last"), "the node after the collector delivered once").toHaveLength(1);

    const completions = await completionsPerNode(client(), run.id, "W_");
    expect(completions.size).toBe(PATHS);
    expect([...completions.values()].filter((n) => n !== 1), "each path completed once").toEqual([]);

    // A path delivered twice: only one whose first delivery was under way when the process was killed.
    const byNode = new Map<string, ReceivedDispatch[]>();
    for (const d of worker!.received) if (d.payload.runId === run.id) byNode.set(d.payload.nodeId, [...(byNode.get(d.payload.nodeId) ?? []), d]);
    const twice = [...byNode.entries()].filter(([, ds]) => ds.length > 1);
    expect(twice.filter(([, ds]) => !(ds.length === 2 && ds[0]!.receivedAt! < killedAt && ds[1]!.receivedAt! > killedAt)).map(([id]) => id), "delivered twice without the kill between").toEqual([]);
    expect(fleet!.exitedOnTheirOwn()).toEqual([]);
    console.log(
      `kill -9 of 1 of 3 processes after ${PATHS / 3 | 0} of ${PATHS} paths (${DUPLICATES * 100}% duplicate callbacks): every path completed once, ` +
        `${twice.length} delivered again after the kill (first delivery cut short), the node after the collector delivered once; the run reached it ${afterKillMs} ms after the kill`,
    );
  }, 400_000);
});
