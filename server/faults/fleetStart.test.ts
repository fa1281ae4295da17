/**
 * The fault suite: several real server processes started at the same instant on a fresh database, several rounds.
 * Everything a process does at start-up (the migrations, the pipeline's flow and agents, the YAML workflows of
 * WORKFLOWS_DIR) must be safe when any number do it at once: each round, FAULT_FLEET (4) processes are spawned together
 * on a new database of the test's own cluster (server/testing/postgresCluster.ts); then
 * - none exited, and each answers `/health/ready` with 200;
 * - the rows are what one process alone would have written: every migration once, the definition's agents, one
 *   version of each workflow file, one pipeline flow.
 * Prints how long the fleet took to be ready. Needs PostgreSQL's server binaries; without them it is skipped.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectPostgres } from "../../db/client";
import { defaultDefinitionPath, readDefinitionFile } from "../pipeline/definition";
import { freePort } from "../testing/harness";
import { type PostgresCluster, postgresBinaries, startPostgresCluster } from "../testing/postgresCluster";
import { adminStatement, databaseUrl } from "../testing/scratchDatabases";
import { type ServerProcess, startServerProcess } from "../testing/serverProcess";

const ROUNDS = Number(process.env.FAULT_FLEET_ROUNDS ?? 2);
const PROCESSES = Number(process.env.FAULT_FLEET ?? 4);

const binaries = postgresBinaries();
const title = binaries
  ? `${PROCESSES} server processes started at once on a fresh database, ${ROUNDS} rounds`
  : "skipped: starting a fleet at once needs PostgreSQL's server binaries (/usr/lib/postgresql/*/bin/initdb), and this machine has none";

const repoRoot = new URL("../..", import.meta.url).pathname;
const migrations = (JSON.parse(readFileSync(join(repoRoot, "db/migrations/meta/_journal.json"), "utf8")) as { entries: unknown[] }).entries.length;
const workflowFiles = readdirSync(join(repoRoot, "workflows")).filter((f) => /\.ya?ml$/i.test(f));

describe.skipIf(!binaries)(title, () => {
  let cluster: PostgresCluster | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), "stitch-fleet-"));

  beforeAll(async () => {
    cluster = await startPostgresCluster();
  }, 120_000);

  afterAll(async () => {
    await cluster?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it("none exits, all are ready, and the rows are written once", async () => {
    const agents = readDefinitionFile(defaultDefinitionPath).agents.map((a) => a.slug).sort();
    const readyMs: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const name = `fleet_${round}`;
      await adminStatement(cluster!.url, `CREATE DATABASE ${name}`);
      const url = databaseUrl(cluster!.url, name);
      // One address for the fleet, as behind a load balancer: the pipeline's flow names its built-in agents' URLs under it.
      const balancer = `http://127.0.0.1:${await freePort()}`;
      const started = Date.now();
      let processes: ServerProcess[] = [];
      const starting = await Promise.allSettled(
        Array.from({ length: PROCESSES }, (_, i) => startServerProcess({ DATABASE_URL: url, NEXT_PUBLIC_BASE_URL: balancer, DATA_DIR: join(dataDir, `${round}-${i}`) }, 120_000)),
      );
      processes = starting.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
      try {
        const failed = starting.flatMap((s) => (s.status === "rejected" ? [String(s.reason)] : []));
        expect(failed, `round ${round}: a process did not start`).toEqual([]);
        readyMs.push(Date.now() - started);
        for (const p of processes) {
          const ready = await fetch(`${p.url}/health/ready`);
          expect(ready.status, `round ${round}: /health/ready`).toBe(200);
          expect(p.ended(), `round ${round}: a process ended:\n${p.output().slice(-4000)}`).toBeUndefined();
        }

        const sql = connectPostgres(url, { max: 1 });
        try {
          const [{ n: applied }] = (await sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`) as unknown as [{ n: number }];
          expect(applied, `round ${round}: migrations applied`).toBe(migrations);
          const slugs = (await sql`SELECT slug FROM pipeline_agents ORDER BY slug`).map((r) => r.slug as string);
          expect(slugs, `round ${round}: the pipeline's agents`).toEqual(agents);
          const versions = await sql`SELECT name, count(*)::int AS n, max(version)::int AS latest FROM workflow_definitions GROUP BY name`;
          expect(versions.length, `round ${round}: one workflow per file`).toBe(workflowFiles.length);
          expect(versions.filter((v) => v.n !== 1 || v.latest !== 1), `round ${round}: one version of each workflow`).toEqual([]);
          const [{ n: pipelines }] = (await sql`SELECT count(*)::int AS n FROM stitch_flows WHERE name = 'agent pipeline'`) as unknown as [{ n: number }];
          expect(pipelines, `round ${round}: the pipeline's flow`).toBe(1);
        } finally {
          await sql.end();
        }
      } finally {
        await Promise.all(processes.map((p) => p.stop()));
      }
    }
    console.log(`${ROUNDS} rounds of ${PROCESSES} processes started at once on a fresh database: 0 exits, all ready, rows written once; all ready ${readyMs.map((ms) => `${ms} ms`).join(", ")} after the spawn`);
  }, 600_000);
});
