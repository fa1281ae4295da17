/**
 * The fan-out the fault scenarios break (server/faults): a PostgreSQL cluster of the test's own, a fleet of server
 * processes on a fresh database of it, and a worker that answers every dispatch of the fan-out's paths (after up to
 * `answerDelayMs`) and calls back 0 to 2 s later with the square of the path's `i`, to a live process picked at random,
 * a share `duplicates` of the paths twice (the second time to another). The node after the collector is never called
 * back. Started before the tests of the calling `describe`, stopped after them.
 */
import { afterAll, beforeAll } from "vitest";
import type { StitchGraph } from "../engine/schemas";
import { type Fleet, freshDatabase, pathOf, postUntilAnswered, sleep, startFleet } from "./faults";
import { chain, collectorNode, graphOf, splitterNode, workerNode } from "./flows";
import { type PostgresCluster, startPostgresCluster } from "./postgresCluster";
import type { ServerProcess } from "./serverProcess";
import { type ReceivedDispatch, type WorkerServer, startWorkerServer } from "./workerServer";

export interface DuplicatingFanOutOptions {
  /** The fresh database's name. */
  database: string;
  processes: number;
  duplicates: number;
  /** The worker answers a dispatch after a random wait of up to this long (0: at once). */
  answerDelayMs?: number;
  /** The processes' environment, and what they preload (startFleet). */
  env: Record<string, string>;
  preload?: readonly string[];
  /** How long starting it all may take. */
  startTimeoutMs: number;
}

export interface DuplicatingFanOut {
  readonly fleet: Fleet;
  readonly worker: WorkerServer;
  /** The fleet's processes still running. */
  alive(): ServerProcess[];
  /** The URL of a live process, picked at random. */
  anyAlive(): string;
  /** Callbacks of paths that a process accepted (200), since the last `resetAccepted`. */
  accepted(): number;
  resetAccepted(): void;
  /** Splitter S, a Worker W per path, Collector C and the Worker Last after it, both Workers calling this worker. */
  graph(): StitchGraph;
  /** A run's input of `paths` paths, each `{ i }`. */
  input(paths: number): { items: { i: number }[] };
}

export function duplicatingFanOut(options: DuplicatingFanOutOptions): DuplicatingFanOut {
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
    if (Math.random() < options.duplicates) await postUntilAnswered(anyAlive, pathOf(p.callbackUrl), body, () => stopping);
  }

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    const url = await freshDatabase(cluster, options.database);
    worker = await startWorkerServer(async (dispatch, res) => {
      if (options.answerDelayMs) await sleep(Math.random() * options.answerDelayMs);
      res.writeHead(200).end("{}");
      void callBack(dispatch);
    });
    fleet = await startFleet(url, options.processes, options.env, options.preload);
  }, options.startTimeoutMs);

  afterAll(async () => {
    stopping = true;
    await fleet?.stop();
    await worker?.close();
    await cluster?.destroy();
  }, 60_000);

  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the fan-out's fleet has not started");
    return value;
  };
  return {
    get fleet() {
      return started(fleet);
    },
    get worker() {
      return started(worker);
    },
    alive,
    anyAlive,
    accepted: () => accepted,
    resetAccepted: () => {
      accepted = 0;
    },
    graph: () => {
      const url = started(worker).url;
      return graphOf([splitterNode("S"), workerNode("W", `${url}/paths`), collectorNode("C"), workerNode("Last", `${url}/last`)], chain("S", "W", "C", "Last"));
    },
    input: (paths) => ({ items: Array.from({ length: paths }, (_, i) => ({ i })) }),
  };
}
