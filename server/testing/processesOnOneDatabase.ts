/**
 * Several real server processes on one scratch database of the run's PostgreSQL, with a worker that holds every
 * dispatch it gets, for the tests of one `describe` (one that the run's lack of a PostgreSQL skips): started before
 * its tests, stopped and dropped after them.
 */
import { afterAll, beforeAll } from "vitest";
import { createScratchDatabase } from "./databases";
import { type ServerProcess, startServerProcess } from "./serverProcess";
import { holdWorker } from "./stitchClient";
import { type WorkerServer, startWorkerServer } from "./workerServer";

export interface ProcessesOnOneDatabase {
  processes: ServerProcess[];
  worker: WorkerServer;
}

/**
 * `count` processes on a new database of `serverUrl`, each with `env` (on top of its DATABASE_URL), handed to
 * `started` once all are ready (which keeps them in the describe's variables).
 */
export function processesOnOneDatabase(
  serverUrl: string, count: number, env: Record<string, string>, started: (fleet: ProcessesOnOneDatabase) => void,
): void {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  let fleet: ProcessesOnOneDatabase | undefined;
  beforeAll(async () => {
    scratch = await createScratchDatabase(serverUrl);
    const worker = await startWorkerServer(holdWorker);
    // Started together, as a deployment would: they race to migrate and install on the same database.
    const processes = await Promise.all(Array.from({ length: count }, () => startServerProcess({ DATABASE_URL: scratch!.url, ...env })));
    fleet = { processes, worker };
    started(fleet);
  }, 120_000);
  afterAll(async () => {
    await Promise.all((fleet?.processes ?? []).map((p) => p.stop()));
    await fleet?.worker.close();
    await scratch?.drop();
  });
}
