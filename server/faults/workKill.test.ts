/**
 * The fault suite: a process killed (`kill -9`) while it performs a YAML workflow's bash node (WORKFLOW_SHELL=on) and
 * step workflows' `utils.delay` steps. Two processes; the bash node writes the id of the process running it to a file,
 * then sleeps; the step runs are started through that same process (which claims the work it commits, usually before
 * the other hears of it). Once the bash node and the delays run, that process is killed. Asserted: the bash node is
 * taken over by the other process (a second process id in the file) and completes once; every step run completes,
 * each step once; nothing exited on its own. Prints how long after the kill each completed.
 * Needs PostgreSQL's server binaries; without them it is skipped.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Fleet, completionsPerNode, freshDatabase, sleep, startFleet } from "../testing/faults";
import { type PostgresCluster, postgresBinaries, startPostgresCluster } from "../testing/postgresCluster";
import { StitchClient } from "../testing/stitchClient";
import { asTestOperator } from "../testing/credentials";
import { StepClient } from "../testing/stepWorkflows";
import { eventually } from "../testing/workerServer";

const STEP_RUNS = 3;
const WORK_MS = 8000;
const binaries = postgresBinaries();
const title = binaries
  ? "a process killed while a YAML bash node and step workflows' utils.delay run"
  : "skipped: the node work fault needs PostgreSQL's server binaries (/usr/lib/postgresql/*/bin/initdb), and this machine has none";

describe.skipIf(!binaries)(title, () => {
  let cluster: PostgresCluster | undefined;
  let fleet: Fleet | undefined;
  const dir = mkdtempSync(join(tmpdir(), "stitch-work-kill-"));
  const pids = join(dir, "pids");

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    const url = await freshDatabase(cluster, "work");
    fleet = await startFleet(url, 2, { WORKFLOW_SHELL: "on", DISPATCH_POLL_MS: "200" });
  }, 180_000);

  afterAll(async () => {
    await fleet?.stop();
    await cluster?.destroy();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it("the killed process's node work is taken over and completes once", async () => {
    const [a, b] = fleet!.processes as [Fleet["processes"][0], Fleet["processes"][0]];
    const yaml = `name: fault-bash\ndescription: A bash node that says which process runs it, then sleeps.\nnodes:\n  - id: work\n    bash: echo "$PPID" >> ${pids} && sleep ${WORK_MS / 1000} && echo finished\n`;
    const registered = await fetch(`${a.url}/api/workflows`, { method: "POST", headers: { "content-type": "application/yaml", ...asTestOperator }, body: yaml });
    expect(registered.status, await registered.text()).toBe(201);
    const started = await fetch(`${a.url}/api/workflows/fault-bash/runs`, { method: "POST", headers: { "content-type": "application/json", ...asTestOperator }, body: JSON.stringify({ message: "go" }) });
    const bashRun = ((await started.json()) as { id: string }).id;
    const holder = Number(await eventually(async () => readFileSync(pids, "utf8").trim().split("\n")[0] || undefined, 30_000, "the bash node running").catch(() => "0"));
    const victim = fleet!.processes.find((p) => p.pid === holder)!;
    expect(victim, `the bash node runs in one of the processes (pid ${holder})`).toBeDefined();
    const survivor = victim === a ? b : a;

    const steps = new StepClient(victim.url);
    expect((await steps.register({ id: "fault-delay", steps: [{ id: "nap", tool: "utils.delay", params: { ms: WORK_MS } }, { id: "after", tool: "utils.echo", params: { done: true } }] })).status).toBe(201);
    const stepRuns: string[] = [];
    for (let i = 0; i < STEP_RUNS; i++) stepRuns.push((await steps.start("fault-delay")).body.id as string);
    await sleep(1500);

    await victim.kill();
    const killedAt = performance.now();
    const survivorSteps = new StepClient(survivor.url);
    const bashDone = await survivorSteps.until(bashRun, (r) => r.status === "completed" || r.status === "failed", 120_000);
    const bashMs = Math.round(performance.now() - killedAt);
    expect(bashDone.status).toBe("completed");
    const stepsDone = await Promise.all(stepRuns.map((id) => survivorSteps.until(id, (r) => r.status === "completed" || r.status === "failed", 120_000)));
    const stepsMs = Math.round(performance.now() - killedAt);
    expect(stepsDone.map((r) => r.status)).toEqual(stepRuns.map(() => "completed"));

    const ran = readFileSync(pids, "utf8").trim().split("\n").map(Number);
    expect(ran[0]).toBe(victim.pid);
    expect(ran.slice(1), "taken over by the other process").toEqual([survivor.pid]);
    const engine = new StitchClient(survivor.url);
    expect([...(await completionsPerNode(engine, bashRun, "work")).values()], "the bash node completed once").toEqual([1]);
    for (const id of stepRuns) {
      const completions = await completionsPerNode(engine, id, "");
      expect([...completions.values()].filter((n) => n !== 1), `each step of run ${id} completed once`).toEqual([]);
      expect(completions.size).toBe(2);
    }
    expect(fleet!.exitedOnTheirOwn()).toEqual([]);
    console.log(`kill -9 of the process running a YAML bash node and ${STEP_RUNS} step runs' utils.delay (${WORK_MS} ms each): the bash node ran again on the other process and completed once ${bashMs} ms after the kill; the step runs completed, each step once, within ${stepsMs} ms of it`);
  }, 400_000);
});
