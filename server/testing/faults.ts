/**
 * What the fault suite's scenarios (server/faults) share: a database of their own on the test's cluster, a fleet of
 * real server processes on it, callbacks sent as workers and n8n send them (again after a 503 or a network error), and
 * counting each node's accepted completions in a run's event log.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PostgresCluster } from "./postgresCluster";
import { adminStatement, databaseUrl } from "./scratchDatabases";
import { type ServerProcess, startServerProcess } from "./serverProcess";
import type { StitchClient } from "./stitchClient";

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A new database on the cluster; its URL. */
export async function freshDatabase(cluster: PostgresCluster, name: string): Promise<string> {
  await adminStatement(cluster.url, `CREATE DATABASE ${name}`);
  return databaseUrl(cluster.url, name);
}

export interface Fleet {
  processes: ServerProcess[];
  /** Starts one more process on the fleet's database (after a kill: the restarted one). */
  add(): Promise<ServerProcess>;
  /** Processes that ended on their own: neither stopped nor killed by the test. */
  exitedOnTheirOwn(): string[];
  stop(): Promise<void>;
}

/** `count` server processes started together on `url`, each with a DATA_DIR of its own; `env` and `preload` (startServerProcess) go to each. */
export async function startFleet(url: string, count: number, env: Record<string, string> = {}, preload: readonly string[] = []): Promise<Fleet> {
  const dataDir = mkdtempSync(join(tmpdir(), "stitch-fault-"));
  const killed = new Set<ServerProcess>();
  let n = 0;
  const start = async () => {
    // Generous: on a machine shared with other work, a process has taken more than two minutes to be ready.
    const p = await startServerProcess({ DATABASE_URL: url, DATA_DIR: join(dataDir, String(n++)), ...env }, 300_000, preload);
    const kill = p.kill;
    const stop = p.stop;
    p.kill = async () => (killed.add(p), kill());
    p.stop = async (graceMs) => (killed.add(p), stop(graceMs));
    return p;
  };
  const fleet: Fleet = {
    processes: await Promise.all(Array.from({ length: count }, start)),
    async add() {
      const p = await start();
      fleet.processes.push(p);
      return p;
    },
    exitedOnTheirOwn: () => fleet.processes.filter((p) => !killed.has(p) && p.ended()).map((p) => `${p.url} ${p.ended()}:\n${p.output().slice(-3000)}`),
    async stop() {
      await Promise.all(fleet.processes.map((p) => p.stop()));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return fleet;
}

/**
 * POSTs `body` to `url` until it is answered with anything but 503 or a network error (as a worker does: a 503 waits
 * its Retry-After), `urls` giving the next address to try after a network error (a killed process: another one).
 */
export async function postUntilAnswered(urls: () => string, path: string, body: unknown, stopped: () => boolean = () => false): Promise<number | undefined> {
  for (let attempt = 0; attempt < 300 && !stopped(); attempt++) {
    const answer = await fetch(`${urls()}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).catch(() => undefined);
    if (answer) {
      await answer.text();
      if (answer.status !== 503) return answer.status;
    }
    await sleep(answer ? Number(answer.headers.get("retry-after") ?? 1) * 1000 : 200);
  }
  return undefined;
}

/** The path and query of a callback URL, to send it to whichever process is alive. */
export const pathOf = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

/** A run's records of repeated deliveries (redelivery.ts), from its event log. */
export interface RedeliveryRecord {
  node_id: string;
  payload: { cause: string; holder: string | null; by: string; delivery: number; webhookId: string };
}

export async function redeliveryRecords(client: StitchClient, runId: string): Promise<RedeliveryRecord[]> {
  const events = (await client.get<(RedeliveryRecord & { type: string })[]>(`/api/stitch/runs/${runId}/events`)).body;
  return events.filter((e) => e.type === "redelivery");
}

/** The process id in a claim's holder (`<host>/<pid>/<random>`, Dispatcher `holder`). */
export const holderPid = (holder: string | null) => Number(holder?.split("/")[1]);

/** Accepted completions per node whose id starts with `prefix`, from the run's event log (a repeated callback is answered, not logged). */
export async function completionsPerNode(client: StitchClient, runId: string, prefix: string): Promise<Map<string, number>> {
  const events = (await client.get<{ node_id: string | null; type: string }[]>(`/api/stitch/runs/${runId}/events`)).body;
  const completions = new Map<string, number>();
  for (const e of events) if (e.type === "callback" && e.node_id?.startsWith(prefix)) completions.set(e.node_id, (completions.get(e.node_id) ?? 0) + 1);
  return completions;
}
