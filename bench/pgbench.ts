/**
 * The database's own limit on this machine, as the benchmark's yardstick: `pgbench -N` (its simple-update workload,
 * which writes on every transaction as the engine does) on a scratch database beside the engine's, run after the
 * engine's workloads so the two do not share the cores. The goal is stated against it: node completions per
 * second at least a third of pgbench's transactions per second.
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { createScratchDatabase } from "../server/testing/scratchDatabases";

const run = promisify(execFile);

/** `pgbench` on the PATH, else the newest of Debian's /usr/lib/postgresql/<version>/bin; undefined when neither has it. */
export function findPgbench(): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(":").filter(Boolean)) {
    if (existsSync(join(dir, "pgbench"))) return join(dir, "pgbench");
  }
  const debian = "/usr/lib/postgresql";
  if (!existsSync(debian)) return undefined;
  const versions = readdirSync(debian).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
  return versions.map((v) => join(debian, v, "bin", "pgbench")).find((path) => existsSync(path));
}

export const PGBENCH_CLIENTS = 8;
export const PGBENCH_THREADS = 2;

export interface PgbenchResult {
  tps: number;
  command: string;
}

/** Initialises pgbench's tables (scale 1) in a scratch database beside `serverUrl`, runs `-N` for `seconds`, drops it. */
export async function measurePgbench(pgbench: string, serverUrl: string, seconds: number): Promise<PgbenchResult> {
  const scratch = await createScratchDatabase(serverUrl, { tag: "pgbench" });
  try {
    await run(pgbench, ["-i", "-q", scratch.url], { timeout: 120_000 });
    const args = ["-N", "-c", String(PGBENCH_CLIENTS), "-j", String(PGBENCH_THREADS), "-T", String(seconds)];
    const { stdout } = await run(pgbench, [...args, scratch.url], { timeout: (seconds + 60) * 1000 });
    const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(stdout)?.[1];
    if (!tps) throw new Error(`pgbench printed no tps:\n${stdout.slice(-500)}`);
    return { tps: Number(tps), command: `pgbench ${args.join(" ")} (scale 1)` };
  } finally {
    await scratch.drop();
  }
}
