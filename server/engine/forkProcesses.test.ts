/**
 * Forks across server processes on one PostgreSQL database (whenever the run has a PostgreSQL, see testing/databases):
 * three processes fork the same run at the same node at once while a fourth request, to one of them, applies the
 * original's next callback. Three forks come out, each whole (its copied node as the original had it, its chosen node
 * called exactly once, by one process), the original applies its callback whole, and its lineage lists the three.
 */
import { describe, expect, it } from "vitest";
import { postgresServerUrl } from "../testing/databases";
import { chain, graphOf, workerNode } from "../testing/flows";
import { processesOnOneDatabase } from "../testing/processesOnOneDatabase";
import type { ServerProcess } from "../testing/serverProcess";
import { StitchClient, dispatchesOf } from "../testing/stitchClient";
import { type WorkerServer, eventually } from "../testing/workerServer";
import type { StitchRun } from "./schemas";

const serverUrl = postgresServerUrl;
const PROCESSES = 3;

describe.skipIf(!serverUrl)("forks made by several server processes on one PostgreSQL database", () => {
  let processes: ServerProcess[] = [];
  let worker: WorkerServer;
  processesOnOneDatabase(serverUrl!, PROCESSES, { DISPATCH_POLL_MS: "100" }, (fleet) => ({ processes, worker } = fleet));

  it("three processes fork one run at once while the original moves on: three whole forks, the original whole", async () => {
    const clients = processes.map((p) => new StitchClient(p.url));
    const graph = graphOf([workerNode("A", `${worker.url}/a`), workerNode("B", `${worker.url}/b`), workerNode("C", `${worker.url}/c`)], chain("A", "B", "C"));
    const flow = await clients[0]!.createFlow(graph, "forked by three");
    const run = await clients[1]!.startRun(flow.id, { n: 0 });
    await eventually(async () => (dispatchesOf(worker.received, run.id, "A").length > 0 ? true : undefined), 30_000, "A dispatched");
    expect((await clients[2]!.callback(run.id, "A", { status: "completed", output: { a: [1, "ü", { deep: true }] } })).status).toBe(200);
    await eventually(async () => (dispatchesOf(worker.received, run.id, "B").length > 0 ? true : undefined), 30_000, "B dispatched");

    const [forks, moved] = await Promise.all([
      Promise.all(clients.map((client, i) => client.post<{ run: StitchRun }>(`/api/runs/${run.id}/fork`, { node_id: "B", input: { from: i } }))),
      clients[0]!.callback(run.id, "B", { status: "completed", output: { b: "original" } }),
    ]);
    expect(forks.map((f) => f.status)).toEqual([201, 201, 201]);
    expect(moved.status).toBe(200);
    const ids = forks.map((f) => f.body.run.id);
    expect(new Set(ids).size).toBe(3);

    for (const [i, id] of ids.entries()) {
      const fork = await clients[i]!.getRun(id);
      expect(fork.node_states.A).toEqual({ status: "completed", output: { a: [1, "ü", { deep: true }] } });
      expect(fork.node_states.B!.status).toBe("running");
      expect(fork.node_states.C!.status).toBe("pending");
      const [call] = await eventually(async () => {
        const found = dispatchesOf(worker.received, id, "B");
        return found.length > 0 ? found : undefined;
      }, 30_000, `B of fork ${i} dispatched`);
      expect(call!.input).toEqual({ from: i });
      expect(dispatchesOf(worker.received, id, "A")).toEqual([]);
    }
    const original = await clients[1]!.getRun(run.id);
    expect(original.node_states.B).toEqual({ status: "completed", output: { b: "original" } });
    expect(original.node_states.C!.status).toBe("running");
    expect(original.forks.map((f) => f.run_id).sort()).toEqual([...ids].sort());

    // Every dispatcher has had its turns: each fork's B was delivered once, by one process.
    await eventually(async () => (dispatchesOf(worker.received, run.id, "C").length > 0 ? true : undefined), 30_000, "the original's C dispatched");
    for (const id of ids) expect(dispatchesOf(worker.received, id, "B")).toHaveLength(1);
  }, 180_000);
});
