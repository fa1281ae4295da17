/**
 * The fault suite: a process killed (`kill -9`) while a built-in agent drafts. The built-in agents' calls are leased
 * jobs (server/pipeline/agents/builtinWebhook.ts): the draft is made in the process that claimed the call's dispatch,
 * whose lease that process renews while it drafts. Process A drafts slowly (BUILTIN_AGENT_DELAY_MS of 10 minutes);
 * process B, started while A drafts, drafts in 1 s. Asserted: B does not take the call while A lives; once A is killed,
 * B takes the call over and the first artifact is stored within 15 s of the kill; the run then completes with its
 * six approvals, one artifact version per call (nothing doubled), and no process exited on its own.
 * Prints how long the takeover took. Needs PostgreSQL's server binaries; without them it is skipped.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Fleet, freshDatabase, sleep, startFleet } from "../testing/faults";
import { type PostgresCluster, postgresBinaries, startPostgresCluster } from "../testing/postgresCluster";
import { eventually, getJson, postJson } from "../testing/workerServer";

const TAKEOVER_LIMIT_MS = 15_000;
const binaries = postgresBinaries();
const title = binaries
  ? "a process killed while a built-in agent drafts"
  : "skipped: the built-in agent fault needs PostgreSQL's server binaries (/usr/lib/postgresql/*/bin/initdb), and this machine has none";

interface RunView { run_id: string; status: string; state: { phase: string; agent: string | null } }
interface Artifact { artifact_type: string; version: number; metadata: Record<string, unknown> | null }

describe.skipIf(!binaries)(title, () => {
  let cluster: PostgresCluster | undefined;
  const fleets: Fleet[] = [];
  let url = "";

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    url = await freshDatabase(cluster, "drafts");
  }, 120_000);

  afterAll(async () => {
    await Promise.all(fleets.map((f) => f.stop()));
    await cluster?.destroy();
  }, 60_000);

  it("another process takes the draft over within 15 s, and the run completes with one version per call", async () => {
    const slow = await startFleet(url, 1, { BUILTIN_AGENT_DELAY_MS: "600000", DISPATCH_POLL_MS: "200" });
    fleets.push(slow);
    const a = slow.processes[0]!;
    const created = await postJson(`${a.url}/runs`, { domain: "logistics", brief: "A parcel-tracking service for small couriers, with live maps and proof of delivery." });
    expect(created.status).toBe(200);
    const runId = (created.body as RunView).run_id;
    const artifacts = async (base: string) => (await getJson(`${base}/runs/${runId}/artifacts`)).body as Artifact[];

    // B starts while A drafts; it must not take the call A's heartbeat keeps.
    const quick = await startFleet(url, 1, { BUILTIN_AGENT_DELAY_MS: "1000", DISPATCH_POLL_MS: "200" });
    fleets.push(quick);
    const b = quick.processes[0]!;
    await sleep(6000);
    expect(await artifacts(b.url), "no draft while A drafts").toEqual([]);

    await a.kill();
    const killedAt = Date.now();
    await eventually(async () => ((await artifacts(b.url)).length > 0 ? true : undefined), 60_000, "the first artifact, drafted by B");
    const takeoverMs = Date.now() - killedAt;
    expect(takeoverMs).toBeLessThan(TAKEOVER_LIMIT_MS);

    // The rest of the run on B: approve each agent's output as it comes.
    for (let i = 0; i < 30; i++) {
      const run = (await getJson(`${b.url}/runs/${runId}`)).body as RunView;
      if (run.state.phase === "completed") break;
      if (run.state.phase === "waiting_approval") expect((await postJson(`${b.url}/runs/${runId}/approve`, {})).status).toBe(200);
      else await eventually(async () => (((await getJson(`${b.url}/runs/${runId}`)).body as RunView).state.phase !== run.state.phase ? true : undefined), 30_000, `run past ${run.status}`);
    }
    const done = (await getJson(`${b.url}/runs/${runId}`)).body as RunView;
    expect(done.status).toBe("COMPLETED");
    const all = await artifacts(b.url);
    expect(all.length).toBe(6);
    expect(all.filter((x) => x.version !== 1), "one version per call").toEqual([]);
    expect([...slow.exitedOnTheirOwn(), ...quick.exitedOnTheirOwn()]).toEqual([]);
    console.log(`kill -9 of the process drafting a built-in agent's output: another process took the call over and stored the draft ${takeoverMs} ms after the kill (lease 5 s, draft 1 s); the run completed with 6 artifacts, 1 version each`);
  }, 300_000);
});
