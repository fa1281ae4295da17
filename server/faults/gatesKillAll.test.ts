/**
 * The fault suite: every server process killed (`kill -9`) while ten runs wait at a review gate; new processes are
 * started on the same database, the gates are decided on them, and every run completes. Each run is a Worker (its
 * loopback worker calls back at once), a review gate and a Worker after it. Asserted: nothing was lost (each run
 * waits at its gate again after the restart, and completes once approved), nothing doubled (each Worker of each run
 * delivered and completed once), and no process exited on its own. Prints how long the restarted fleet took to be
 * ready and the runs to complete. Needs PostgreSQL's server binaries; without them it is skipped.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chain, graphOf, reviewGate, workerNode } from "../testing/flows";
import { type Fleet, completionsPerNode, freshDatabase, pathOf, postUntilAnswered, startFleet } from "../testing/faults";
import { type PostgresCluster, postgresBinaries, startPostgresCluster } from "../testing/postgresCluster";
import { StitchClient, dispatchesOf } from "../testing/stitchClient";
import { type WorkerServer, startWorkerServer } from "../testing/workerServer";

const RUNS = 10;
const binaries = postgresBinaries();
const title = binaries
  ? `every process killed while ${RUNS} runs wait at a review gate`
  : "skipped: the gates fault needs PostgreSQL's server binaries (/usr/lib/postgresql/*/bin/initdb), and this machine has none";

describe.skipIf(!binaries)(title, () => {
  let cluster: PostgresCluster | undefined;
  let fleet: Fleet | undefined;
  let worker: WorkerServer | undefined;

  const anyAlive = () => {
    const live = fleet!.processes.filter((p) => !p.ended());
    return live[Math.floor(Math.random() * live.length)]!.url;
  };

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    const url = await freshDatabase(cluster, "gates");
    worker = await startWorkerServer((dispatch, res) => {
      res.writeHead(200).end("{}");
      void postUntilAnswered(anyAlive, pathOf(dispatch.payload.callbackUrl), { status: "completed", output: { node: dispatch.payload.nodeId } });
    });
    fleet = await startFleet(url, 2, { DISPATCH_POLL_MS: "200" });
  }, 180_000);

  afterAll(async () => {
    await fleet?.stop();
    await worker?.close();
    await cluster?.destroy();
  }, 60_000);

  it("nothing is lost: after the restart every run waits at its gate, and completes once approved", async () => {
    const client = () => new StitchClient(anyAlive());
    const flow = await client().createFlow(graphOf([workerNode("W", `${worker!.url}/w`), reviewGate("G"), workerNode("L", `${worker!.url}/l`)], chain("W", "G", "L")), "gates");
    const runs = await Promise.all(Array.from({ length: RUNS }, () => client().startRun(flow.id, {})));
    const atGate = (r: Awaited<ReturnType<StitchClient["getRun"]>>) => r.node_states.G?.status === "waiting_for_user";
    for (const run of runs) await client().waitForRun(run.id, atGate, "waiting at the gate", 60_000);

    await Promise.all(fleet!.processes.map((p) => p.kill()));
    const restartAt = performance.now();
    await Promise.all([fleet!.add(), fleet!.add()]);
    const readyMs = Math.round(performance.now() - restartAt);
    for (const run of runs) expect(atGate(await client().getRun(run.id)), `run ${run.id} at its gate after the restart`).toBe(true);

    const decidedAt = performance.now();
    for (const run of runs) expect((await client().review(run.id, "G", { decision: "approve" })).status).toBe(200);
    for (const run of runs) await client().waitForRun(run.id, (r) => r.status === "completed", "completed", 60_000);
    const completedMs = Math.round(performance.now() - decidedAt);

    for (const run of runs) {
      expect(dispatchesOf(worker!.received, run.id, "W"), "W delivered once").toHaveLength(1);
      expect(dispatchesOf(worker!.received, run.id, "L"), "L delivered once").toHaveLength(1);
      const completions = await completionsPerNode(client(), run.id, "");
      expect([...completions.entries()].filter(([, n]) => n !== 1), "each Worker completed once").toEqual([]);
    }
    expect(fleet!.exitedOnTheirOwn()).toEqual([]);
    console.log(`kill -9 of all 2 processes while ${RUNS} runs waited at a review gate: 2 new processes ready ${readyMs} ms after the kill, every run still at its gate; all ${RUNS} completed ${completedMs} ms after their approvals, each Worker delivered and completed once`);
  }, 400_000);
});
