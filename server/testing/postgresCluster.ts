/**
 * A PostgreSQL cluster of a test's own (the fault suite restarts it): `initdb` into a temporary directory, started with
 * `pg_ctl` on a free loopback port, its socket in that directory, trust authentication for the user `postgres`. It is
 * never the shared PostgreSQL of the machine (5432), whatever the environment says.
 *
 * PostgreSQL refuses to run as root: when this process is root, every command runs as the `postgres` user through
 * `runuser -u postgres --`, and the directory is handed to that user first. Binaries are looked for in
 * /usr/lib/postgresql/<version>/bin (Debian's layout), the newest version first.
 */
import { execFile } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort } from "./harness";

const run = promisify(execFile);

/** The directory of `initdb` and `pg_ctl`, or undefined when this machine has no PostgreSQL server binaries. */
export function postgresBinaries(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  return versions.map((v) => join(root, v, "bin")).find((bin) => existsSync(join(bin, "initdb")) && existsSync(join(bin, "pg_ctl")));
}

export interface PostgresCluster {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  /** `pg_ctl restart -m fast`: every connection is closed at once, and the cluster answers again when it returns. */
  restart(): Promise<void>;
  /** `pg_ctl stop -m fast` (the cluster stays on disk, and `start` brings it back). */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the cluster and removes its directory; safe to call twice, and after a failed start. */
  destroy(): Promise<void>;
}

export async function startPostgresCluster(): Promise<PostgresCluster> {
  const bin = postgresBinaries();
  if (!bin) throw new Error("no PostgreSQL server binaries under /usr/lib/postgresql/*/bin");
  const asRoot = userInfo().uid === 0;
  const as = async (command: string, args: string[]) => {
    const [file, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", join(bin, command), ...args]] : [join(bin, command), args];
    await run(file, argv, { timeout: 60_000 });
  };
  const dir = mkdtempSync(join(tmpdir(), "stitch-pg-"));
  const data = join(dir, "data");
  if (asRoot) {
    const { uid, gid } = await run("id", ["-u", "postgres"]).then(async ({ stdout }) => ({ uid: Number(stdout), gid: Number((await run("id", ["-g", "postgres"])).stdout) }));
    chownSync(dir, uid, gid);
  }
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const pgctl = (action: string, ...extra: string[]) => as("pg_ctl", ["-D", data, "-w", "-t", "60", "-l", join(dir, "log"), ...extra, action]);
  let destroyed = false;
  const cluster: PostgresCluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    restart: () => pgctl("restart", "-m", "fast", "-o", options),
    stop: () => pgctl("stop", "-m", "fast"),
    start: () => pgctl("start", "-o", options),
    async destroy() {
      if (destroyed) return;
      destroyed = true;
      await cluster.stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await as("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"]);
    await cluster.start();
  } catch (error) {
    await cluster.destroy();
    throw error;
  }
  return cluster;
}
