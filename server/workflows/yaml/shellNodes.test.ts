/**
 * Bash and script nodes of YAML workflows on the real server, on every test database: timeouts that end the whole
 * process tree, retries, failures with their stderr, the scrubbed environment, bun scripts with dependencies and
 * from WORKFLOWS_DIR/scripts, uv missing; and a server with WORKFLOW_SHELL off refusing such workflows.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { testDatabases } from "../../testing/databases";
import { startTestServer } from "../../testing/harness";
import { runningProcesses } from "../runtime/processes";
import { isAlive } from "../../testing/workflowRuntime";
import { waitFor, workflowSuite } from "../../testing/yamlWorkflows";

/** Server variables no node may see: set in this process (the server's) for the tests of this file. */
const SECRETS = { LLM_API_KEY: "sk-secret-of-the-server", STITCH_TEST_TOKEN: "token-of-the-server" };

/** Restores the variables of process.env a test changed. */
const saved = new Map<string, string | undefined>();
function setEnv(name: string, value: string | undefined): void {
  if (!saved.has(name)) saved.set(name, process.env[name]);
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
afterEach(() => {
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  saved.clear();
});

describe.each(testDatabases)("YAML workflow bash and script nodes on $name", (testDatabase) => {
  const wf = workflowSuite({ open: () => testDatabase.open(), start: startTestServer, env: () => ({ ...SECRETS, LLM_MODEL: "m" }) });

  it("Scenario: Bash node with timeout — timeout: 1000 on sleep 5 fails the node saying so, and its processes are gone", async () => {
    const started = await wf.run(`name: bash-timeout
description: a node that runs too long
nodes:
  - id: slow
    timeout: 1000
    bash: "echo $$ > shell.pid; sleep 5 & echo $! > sleep.pid; wait; echo finished > finished"
`);
    const done = await wf.settled(started.id);
    expect(done.status).toBe("failed");
    expect(done.nodes.slow).toMatchObject({ status: "failed", attempts: 1, error: "timed out after 1000 ms" });
    const dir = wf.runDir(started.id);
    const pids = ["shell.pid", "sleep.pid"].map((file) => Number(readFileSync(join(dir, file), "utf8")));
    await waitFor(() => pids.filter(isAlive), (alive) => alive.length === 0);
    expect(runningProcesses(started.id)).toBe(0);
    expect(existsSync(join(dir, "finished"))).toBe(false);
  });

  it("bash retry: a node that fails twice succeeds on its third attempt", async () => {
    const started = await wf.run(`name: bash-retry
description: retry
nodes:
  - id: flaky
    bash: "n=$(cat count 2>/dev/null || echo 0); n=$((n+1)); echo $n > count; [ $n -ge 3 ] && echo ok || { echo \\"attempt $n failed\\" >&2; exit 1; }"
    retry:
      max_attempts: 2
      delay_ms: 1000
      on_error: all
`);
    const done = await wf.settled(started.id);
    expect(done.status).toBe("completed");
    expect(done.nodes.flaky).toMatchObject({ status: "completed", output: "ok", attempts: 3, error: null });
    const failures = (await wf.conversation(started.id)).turns.flatMap((t) => (t.kind === "failed" ? [t.body.error] : []));
    expect(failures).toEqual([
      "attempt 1 failed: exit code 1: attempt 1 failed; attempt 2 of 3 in 1000 ms",
      "attempt 2 failed: exit code 1: attempt 2 failed; attempt 3 of 3 in 2000 ms",
    ]);
  });

  it("bash: a non-zero exit fails the node with the exit code and its stderr (no retry unless on_error: all)", async () => {
    const started = await wf.run(`name: bash-exit
description: a failing script
nodes:
  - id: fails
    bash: "echo partial; echo 'something broke' >&2; exit 2"
    retry:
      max_attempts: 3
`);
    const done = await wf.settled(started.id);
    expect(done.status).toBe("failed");
    expect(done.nodes.fails).toMatchObject({ status: "failed", attempts: 1, output: null, error: "exit code 2: something broke" });
  });

  it("bash and script nodes do not see the server's secrets: only PATH, LANG, LC_ALL, TZ, TMPDIR and HOME (the run's folder)", async () => {
    for (const [name, value] of Object.entries(SECRETS)) setEnv(name, value);
    // The database's URL is a secret too: the real one when the tests run on PostgreSQL, else a stand-in for this test.
    const databaseUrl = process.env.DATABASE_URL ?? "postgres://app:database-password@127.0.0.1:5432/app";
    setEnv("DATABASE_URL", databaseUrl);
    const started = await wf.run(`name: bash-env
description: what a node's process sees
nodes:
  - id: shell
    bash: env | sort
  - id: bun
    runtime: bun
    script: console.log(Object.keys(process.env).sort().join(","), JSON.stringify(process.env))
`);
    const done = await wf.settled(started.id, 60_000);
    expect(done.status).toBe("completed");
    const shell = done.nodes.shell!.output!;
    const bun = done.nodes.bun!.output!;
    for (const secret of [...Object.values(SECRETS), databaseUrl]) {
      expect(shell).not.toContain(secret);
      expect(bun).not.toContain(secret);
    }
    for (const name of ["LLM_API_KEY", "STITCH_TEST_TOKEN", "DATABASE_URL"]) {
      expect(shell).not.toMatch(new RegExp(`^${name}=`, "m"));
      expect(bun).not.toContain(`"${name}"`);
    }
    expect(shell).toContain(`HOME=${wf.runDir(started.id)}\n`);
    expect(shell).toContain(`PATH=${process.env.PATH}\n`);
  });

  it("Scenario: Script with deps — a bun script imports lodash, which is installed before it runs", { timeout: 180_000 }, async () => {
    const started = await wf.run(`name: script-deps
description: a bun script with a dependency
nodes:
  - id: chunks
    runtime: bun
    deps: [lodash]
    timeout: 20000
    script: |
      import _ from "lodash";
      const chunks: number[][] = _.chunk([1, 2, 3, 4, 5], 2);
      console.log(JSON.stringify(chunks));
`);
    const done = await wf.settled(started.id, 170_000);
    expect(done.nodes.chunks).toMatchObject({ status: "completed", output: "[[1,2],[3,4],[5]]" });
  });

  it("Scenario: Named script from disk — script: analyze runs WORKFLOWS_DIR/scripts/analyze.ts in the run's folder", async () => {
    writeFileSync(join(wf.workflowsDir, "scripts", "analyze.ts"), 'const where: string = process.cwd();\nconsole.log(`analyzed in ${where}`);\n');
    const started = await wf.run(`name: script-named
description: a named script
nodes:
  - id: analyze
    runtime: bun
    script: analyze
  - id: missing
    runtime: bun
    script: not-there
`);
    const done = await wf.settled(started.id, 60_000);
    expect(done.nodes.analyze).toMatchObject({ status: "completed", output: `analyzed in ${wf.runDir(started.id)}` });
    const scripts = join(wf.workflowsDir, "scripts");
    expect(done.nodes.missing).toMatchObject({
      status: "failed",
      error: `script "not-there" not found for runtime bun: tried ${join(scripts, "not-there.ts")}, ${join(scripts, "not-there.js")}`,
    });
  });

  it("script runtime: uv fails saying uv is missing and how to install it", async () => {
    // The server's PATH without any folder that holds uv, so the test holds where uv is installed as well.
    setEnv("PATH", (process.env.PATH ?? "").split(delimiter).filter((dir) => !existsSync(join(dir, "uv"))).join(delimiter));
    const started = await wf.run(`name: script-uv
description: a python script
nodes:
  - id: py
    runtime: uv
    deps: [requests]
    script: print("hello")
`);
    const done = await wf.settled(started.id);
    expect(done.nodes.py!.status).toBe("failed");
    expect(done.nodes.py!.error).toMatch(/^uv is not installed on this server: install it from https:\/\/docs\.astral\.sh\/uv\/ .*uv.* on the server's PATH/);
  });
});

describe.each(testDatabases)("a server with WORKFLOW_SHELL off on $name", (testDatabase) => {
  const wf = workflowSuite({ open: () => testDatabase.open(), start: startTestServer, env: () => ({ WORKFLOW_SHELL: "off" }) });
  const BASH = "name: shell-off\ndescription: runs code\nnodes:\n  - id: ask\n    prompt: hi\n  - id: build\n    bash: make build\n";
  const refusal = {
    path: "nodes[1].bash",
    line: 7,
    column: 11,
    message: 'node "build" is a bash node, which runs code on the server: such workflows are refused unless the server runs with WORKFLOW_SHELL=on',
  };

  it("WORKFLOW_SHELL off: registering a bash workflow is refused with a clear, located error; 400 over REST, and nothing is stored", async () => {
    await expect(wf.register(BASH)).rejects.toMatchObject({ name: "InvalidWorkflow", issues: [refusal] });

    const asYaml = await wf.rest("POST", "/api/workflows", BASH);
    expect(asYaml.status).toBe(400);
    expect(asYaml.body).toMatchObject({ error: "invalid_workflow", issues: [refusal] });
    expect(asYaml.body.message).toContain("WORKFLOW_SHELL=on");
    const asJson = await wf.rest("POST", "/api/workflows", { yaml: BASH });
    expect(asJson).toMatchObject({ status: 400, body: { error: "invalid_workflow", issues: [refusal] } });
    expect(await wf.rest("POST", "/api/workflows/validate", BASH)).toMatchObject({ status: 400, body: { issues: [refusal] } });
    const script = "name: script-off\ndescription: d\nnodes:\n  - id: s\n    runtime: bun\n    script: analyze\n";
    expect(await wf.rest("POST", "/api/workflows", script)).toMatchObject({ status: 400, body: { issues: [{ path: "nodes[0].script", line: 6, column: 13 }] } });

    expect(await wf.rest("GET", "/api/workflows/shell-off")).toMatchObject({ status: 404 });
    // A workflow without shell nodes registers as usual.
    expect(await wf.rest("POST", "/api/workflows", "name: no-shell\ndescription: d\nnodes:\n  - id: ask\n    prompt: hi\n")).toMatchObject({ status: 201, body: { name: "no-shell", version: 1 } });
  });
});
