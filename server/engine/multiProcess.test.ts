/**
 * Several server processes on one PostgreSQL database (runs whenever the run has a PostgreSQL, see testing/databases): each path's callback
 * reaches a randomly chosen process, twice, in random order, while every process's dispatcher claims from the
 * shared outbox. Every path must complete once, the collector once with the ordered array, and the node after it
 * must be dispatched exactly once.
 */
import { describe, expect, it } from "vitest";
import { postgresServerUrl } from "../testing/databases";
import { chain, collectorNode, graphOf, splitterNode, workerNode } from "../testing/flows";
import { processesOnOneDatabase } from "../testing/processesOnOneDatabase";
import type { ServerProcess } from "../testing/serverProcess";
import { StitchClient, dispatchesOf } from "../testing/stitchClient";
import { type WorkerServer, eventually } from "../testing/workerServer";

const serverUrl = postgresServerUrl;
const PROCESSES = 3;
const PATHS = 200;

async function inBatches<T>(items: readonly T[], concurrency: number, send: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < items.length) await send(items[next++]!);
  }));
}

describe.skipIf(!serverUrl)("several server processes on one PostgreSQL database", () => {
  let processes: ServerProcess[] = [];
  let worker: WorkerServer;
  processesOnOneDatabase(serverUrl!, PROCESSES, { DISPATCH_POLL_MS: "100", DISPATCH_BACKOFF_MS: "50" }, (fleet) => ({ processes, worker } = fleet));

  it(`a ${PATHS}-path split, callbacks duplicated and spread over ${PROCESSES} processes: each path once, the collector once, its successor once`, async () => {
    const clients = processes.map((p) => new StitchClient(p.url));
    const any = () => clients[Math.floor(Math.random() * clients.length)]!;
    const graph = graphOf(
      [splitterNode("S"), workerNode("W", `${worker.url}/paths`), collectorNode("C"), workerNode("Last", `${worker.url}/last`)],
      chain("S", "W", "C", "Last"),
    );
    const flow = await clients[0]!.createFlow(graph, "multi-process");
    const run = await clients[1]!.startRun(flow.id, { items: Array.from({ length: PATHS }, (_, i) => ({ index: i })) });

    await eventually(async () => (dispatchesOf(worker.received, run.id).length >= PATHS ? true : undefined), 60_000, `${PATHS} path dispatches`);
    const pathDispatches = dispatchesOf(worker.received, run.id);
    expect(new Set(pathDispatches.map((p) => p.nodeId)).size).toBe(PATHS);
    for (const payload of pathDispatches) expect(payload.input).toEqual({ index: Number(payload.nodeId.slice(2)) });

    const callbacks = Array.from({ length: PATHS }, (_, k) => [k, k]).flat().sort(() => Math.random() - 0.5);
    const answers: { k: number; status: number; duplicate: boolean | undefined }[] = [];
    await inBatches(callbacks, 16, async (k) => {
      const answer = await any().callback(run.id, `W_${k}`, { status: "completed", output: { square: k * k } });
      answers.push({ k, status: answer.status, duplicate: answer.body?.duplicate });
    });
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    for (let k = 0; k < PATHS; k++) {
      expect(answers.filter((a) => a.k === k).map((a) => a.duplicate).sort(), `path ${k}`).toEqual([false, true]);
    }

    const [last] = await eventually(async () => {
      const found = dispatchesOf(worker.received, run.id, "Last");
      return found.length > 0 ? found : undefined;
    }, 60_000, "the collector's successor dispatched");
    const expected = Array.from({ length: PATHS }, (_, k) => ({ square: k * k }));
    expect(last!.input).toEqual(expected);

    const state = await any().getRun(run.id);
    for (let k = 0; k < PATHS; k++) expect(state.node_states[`W_${k}`], `W_${k}`).toEqual({ status: "completed", output: { square: k * k } });
    expect(state.node_states.C).toEqual({ status: "completed", output: expected });
    expect(state.node_states.Last!.status).toBe("running");
    const events = await any().get(`/api/stitch/runs/${run.id}/events`);
    expect((events.body as { type: string }[]).filter((e) => e.type === "callback")).toHaveLength(PATHS);

    // Let every dispatcher poll a few more times: a second delivery of anything would show up now.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const perNode = new Map<string, number>();
    for (const payload of dispatchesOf(worker.received, run.id)) perNode.set(payload.nodeId, (perNode.get(payload.nodeId) ?? 0) + 1);
    expect([...perNode.values()].every((n) => n === 1)).toBe(true);
    expect(perNode.size).toBe(PATHS + 1);

    expect((await any().callback(run.id, "Last", { status: "completed", output: "end" })).status).toBe(200);
    expect((await any().getRun(run.id)).status).toBe("completed");
  }, 180_000);
});
