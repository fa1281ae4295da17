/**
 * YAML workflow runs as a whole on the real server, on every test database: a cancel node stopping its running
 * siblings, resuming a failed run, and the REST surface (registration and versions, validation, run listing, the
 * 404 and 409 answers).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { testDatabases } from "../../testing/databases";
import { startTestServer } from "../../testing/harness";
import { runningProcesses } from "../runtime/processes";
import { isAlive } from "../../testing/workflowRuntime";
import { waitFor, workflowSuite } from "../../testing/yamlWorkflows";

describe.each(testDatabases)("YAML workflow runs on $name", (testDatabase) => {
  const wf = workflowSuite({ open: () => testDatabase.open(), start: startTestServer });

  it("Scenario: Cancel terminates workflow — a cancel node cancels the run with its reason; a running sleep sibling is killed and its late result refused", async () => {
    const started = await wf.run(
      `name: stopper
description: cancel while a sibling sleeps
nodes:
  - id: sleeper
    bash: "echo $$ > sleeper.pid; sleep 30; echo late > late"
  - id: sleeper_started
    bash: "while [ ! -f sleeper.pid ]; do sleep 0.05; done; echo started"
  - id: stop
    depends_on: [sleeper_started]
    cancel: "stopped because $ARGUMENTS"
  - id: after_stop
    depends_on: [stop]
    bash: echo never
`,
      "enough",
    );
    const done = await wf.settled(started.id);
    expect(done).toMatchObject({ status: "cancelled", cancel_reason: "stopped because enough" });
    expect(done.nodes.stop).toMatchObject({ status: "completed", output: "stopped because enough" });
    expect(done.nodes.sleeper).toMatchObject({ status: "cancelled", output: null, error: "cancelled: stopped because enough" });
    expect(done.nodes.after_stop!.status).toBe("cancelled");

    const dir = wf.runDir(started.id);
    const pid = Number(readFileSync(join(dir, "sleeper.pid"), "utf8"));
    await waitFor(() => isAlive(pid), (alive) => !alive);
    await waitFor(() => runningProcesses(started.id), (count) => count === 0);
    expect(existsSync(join(dir, "late"))).toBe(false);
    // The sleeper's own result ("cancelled") came after the run was cancelled: refused, so nothing of it was recorded.
    const after = await wf.get(started.id);
    expect(after.nodes.sleeper).toMatchObject({ status: "cancelled", error: "cancelled: stopped because enough" });
    const sleeperTurns = (await wf.conversation(started.id)).turns.filter((t) => t.node?.id === "sleeper").map((t) => t.kind);
    expect(sleeperTurns).toEqual(["started"]);
  });

  it("resume: a failed run fires only its failed node again (its skipped descendants return to pending and run), always_run nodes run again, other completed nodes keep their outputs; resuming a completed run is 409", async () => {
    const counter = (name: string) => `n=$(cat ${name}.count 2>/dev/null || echo 0); n=$((n+1)); echo $n > ${name}.count; echo ${name}-$n`;
    const started = await wf.run(`name: resumable
description: fails once, then is resumed
nodes:
  - id: setup
    always_run: true
    bash: "${counter("setup")}"
  - id: once
    bash: "${counter("once")}"
  - id: flaky
    depends_on: [setup]
    bash: "[ -f fixed ] && echo fixed || { echo 'not yet' >&2; exit 1; }"
  - id: after
    depends_on: [flaky, once]
    bash: echo "after $flaky.output"
  - id: last
    depends_on: [after]
    bash: echo "last after $after.output"
`);
    // Each node before the resume, and after it.
    const story: Record<string, [object, object]> = {
      setup: [{ status: "completed", output: "setup-1", attempts: 1 }, { status: "completed", output: "setup-2", attempts: 2 }],
      once: [{ status: "completed", output: "once-1", attempts: 1 }, { status: "completed", output: "once-1", attempts: 1 }],
      flaky: [{ status: "failed", error: "exit code 1: not yet", attempts: 1 }, { status: "completed", output: "fixed", attempts: 2 }],
      after: [{ status: "skipped", skip_reason: 'trigger_rule all_success: "flaky" failed', attempts: 0 }, { status: "completed", output: "after fixed", attempts: 1 }],
      last: [{ status: "skipped", skip_reason: 'trigger_rule all_success: "after" did not run', attempts: 0 }, { status: "completed", output: "last after after fixed", attempts: 1 }],
    };
    const nodesAt = (moment: 0 | 1) => Object.fromEntries(Object.entries(story).map(([id, states]) => [id, states[moment]]));
    const failed = await wf.settled(started.id);
    expect(failed.status).toBe("failed");
    expect(failed.nodes).toMatchObject(nodesAt(0));

    writeFileSync(join(wf.runDir(started.id), "fixed"), "");
    const resumed = await wf.rest("POST", `/api/workflows/runs/${started.id}/resume`);
    expect(resumed.status).toBe(200);
    expect(resumed.body.nodes.once).toMatchObject({ status: "completed", output: "once-1" });
    const done = await wf.settled(started.id);
    expect(done.status).toBe("completed");
    expect(done.nodes).toMatchObject(nodesAt(1));
    expect(readFileSync(join(wf.runDir(started.id), "once.count"), "utf8")).toBe("1\n");
    const kinds = (await wf.conversation(started.id)).turns.map((t) => (t.kind === "system" ? t.body.event : t.kind));
    expect(kinds.filter((k) => k === "resumed")).toHaveLength(1);
    expect(kinds.filter((k) => k === "outcome")).toHaveLength(2);

    const again = await wf.rest("POST", `/api/workflows/runs/${started.id}/resume`);
    expect(again).toMatchObject({ status: 409, body: { error: "conflict", message: expect.stringContaining("is completed; only a failed run") } });
    await expect(wf.server.workflows.commands.resume(started.id, "ada")).rejects.toMatchObject({ code: "conflict" });
  });

  it("retry over REST: a failed node fires again and the nodes its failure skipped are decided again; a node that is not failed is 400", async () => {
    const started = await wf.run(`name: retried
description: a node fixed by hand and retried
nodes:
  - id: flaky
    bash: "[ -f fixed ] && echo fixed || { echo 'not yet' >&2; exit 1; }"
  - id: after
    depends_on: [flaky]
    bash: echo "after $flaky.output"
`);
    const failed = await wf.settled(started.id);
    expect(failed.nodes.after!.status).toBe("skipped");
    const notFailed = await wf.rest("POST", `/api/workflows/runs/${started.id}/nodes/after/retry`);
    expect(notFailed).toMatchObject({ status: 400, body: { error: "bad_request", message: 'node "after" is skipped; only failed nodes can be retried' } });

    writeFileSync(join(wf.runDir(started.id), "fixed"), "");
    expect(await wf.rest("POST", `/api/workflows/runs/${started.id}/nodes/flaky/retry`)).toMatchObject({ status: 200, body: { status: "running" } });
    const done = await wf.settled(started.id);
    expect(done).toMatchObject({ status: "completed", nodes: { flaky: { status: "completed", attempts: 2 }, after: { status: "completed", output: "after fixed" } } });
    expect((await wf.conversation(started.id)).turns.filter((t) => t.kind === "system" && t.body.event === "retried")).toMatchObject([{ node: { id: "flaky" } }]);
  });

  it("the seed's load-time scenarios over REST — Scenario: Missing name, Node with multiple mode fields, Node with no mode field, Node id must be unique, Empty prompt rejected: 400 with the located problem; Scenario: Node with exactly one mode field: a prompt node", async () => {
    const refused: [string, string, { path: string; line: number; column: number; message: string }][] = [
      ["Missing name", "description: d\nnodes:\n  - id: a\n    prompt: p\n", { path: "name", line: 1, column: 1, message: "the workflow has no name" }],
      ["Node with multiple mode fields", "name: n\ndescription: d\nnodes:\n  - id: x\n    prompt: p\n    bash: echo hi\n", { path: "nodes[0].bash", line: 6, column: 5, message: 'node "x" has both prompt and bash' }],
      ["Node with no mode field", "name: n\ndescription: d\nnodes:\n  - id: x\n    timeout: 1000\n", { path: "nodes[0]", line: 4, column: 5, message: 'node "x" has none of command, prompt, bash, script, loop, approval, cancel' }],
      ["Node id must be unique", "name: n\ndescription: d\nnodes:\n  - id: twin\n    prompt: a\n  - id: twin\n    prompt: b\n", { path: "nodes[1].id", line: 6, column: 9, message: 'duplicate node id "twin"' }],
      ["Empty prompt rejected", 'name: n\ndescription: d\nnodes:\n  - id: p\n    prompt: ""\n', { path: "nodes[0].prompt", line: 5, column: 13, message: '"prompt" must not be empty' }],
    ];
    for (const [scenario, yaml, issue] of refused) {
      const answer = await wf.rest("POST", "/api/workflows", yaml);
      expect({ scenario, status: answer.status, error: answer.body.error }).toEqual({ scenario, status: 400, error: "invalid_workflow" });
      expect(answer.body.issues).toEqual([{ ...issue, message: expect.stringContaining(issue.message) }]);
    }
    const onePrompt = await wf.rest("POST", "/api/workflows", "name: one-mode\ndescription: d\nnodes:\n  - id: p\n    prompt: Write a haiku\n");
    expect(onePrompt).toMatchObject({ status: 201, body: { nodes: [{ id: "p", kind: "prompt" }] } });
  });

  it("run API over REST: POST /api/workflows (YAML and {yaml}), /validate, GET list and detail with versions; a run keeps the version it started with; runs by workflow; 404 and 409", async () => {
    const v1 = "name: rest-flow\ndescription: first version\nnodes:\n  - id: gate\n    approval:\n      message: go?\n  - id: first\n    depends_on: [gate]\n    bash: echo one\n";
    const v2 = "name: rest-flow\ndescription: second version\nnodes:\n  - id: second\n    bash: echo two\n";

    const registered = await wf.rest("POST", "/api/workflows", v1);
    expect(registered).toMatchObject({ status: 201, body: { name: "rest-flow", version: 1, format: "yaml", description: "first version", nodes: [{ id: "gate", kind: "approval" }, { id: "first", kind: "bash", depends_on: ["gate"] }] } });
    const firstRun = await wf.rest("POST", "/api/workflows/rest-flow/runs", { message: "from v1" });
    expect(firstRun).toMatchObject({ status: 201, body: { workflow: "rest-flow", version: 1, message: "from v1" } });
    const runId: string = firstRun.body.id;
    await wf.until(runId, (run) => run.status === "waiting_for_user");

    const second = await wf.rest("POST", "/api/workflows", { yaml: v2 });
    expect(second).toMatchObject({ status: 201, body: { name: "rest-flow", version: 2, description: "second version" } });

    const list = await wf.rest("GET", "/api/workflows");
    expect(list.status).toBe(200);
    expect(list.body.filter((w: { name: string }) => w.name === "rest-flow")).toEqual([expect.objectContaining({ version: 2 })]);
    const detail = await wf.rest("GET", "/api/workflows/rest-flow");
    expect(detail).toMatchObject({ status: 200, body: { name: "rest-flow", version: 2, source: v2, versions: [{ version: 2 }, { version: 1 }], definition: { nodes: [{ id: "second" }] } } });

    // The run started on version 1 goes on as version 1.
    expect(await wf.rest("POST", `/api/workflows/runs/${runId}/nodes/gate/approve`, { comment: "yes" })).toMatchObject({ status: 200 });
    const firstDone = await wf.settled(runId);
    expect(firstDone).toMatchObject({ status: "completed", version: 1, nodes: { first: { status: "completed", output: "one" } } });
    expect(Object.keys(firstDone.nodes)).toEqual(["gate", "first"]);
    const secondRun = await wf.rest("POST", "/api/workflows/rest-flow/runs", {});
    expect(secondRun).toMatchObject({ status: 201, body: { version: 2 } });
    expect((await wf.settled(secondRun.body.id)).nodes.second).toMatchObject({ status: "completed", output: "two" });

    const other = await wf.run("name: rest-other\ndescription: another workflow\nnodes:\n  - id: a\n    bash: echo a\n");
    await wf.settled(other.id);
    const runs = await wf.rest("GET", "/api/workflows/runs?workflow=rest-flow");
    expect(runs.status).toBe(200);
    expect(runs.body.map((r: { id: string }) => r.id).sort()).toEqual([runId, secondRun.body.id].sort());
    expect(runs.body.every((r: { workflow: string }) => r.workflow === "rest-flow")).toBe(true);
    expect((await wf.rest("GET", "/api/workflows/runs")).body.map((r: { id: string }) => r.id)).toContain(other.id);
    expect(await wf.rest("GET", `/api/workflows/runs/${runId}`)).toMatchObject({ status: 200, body: { id: runId, version: 1, status: "completed" } });

    // Validation stores nothing: warnings for a good definition, every problem located for a bad one.
    expect(await wf.rest("POST", "/api/workflows/validate", { yaml: "name: checked\ndescription: d\nnodes:\n  - id: a\n    prompt: p\n    colour: red\n" })).toMatchObject({
      status: 200,
      body: { valid: true, warnings: [{ path: "nodes[0].colour", line: 6, column: 5 }] },
    });
    const invalid = await wf.rest("POST", "/api/workflows/validate", "name: checked\ndescription: d\nnodes:\n  - id: a\n    prompt: p\n    depends_on: [ghost]\n");
    expect(invalid).toMatchObject({
      status: 400,
      body: { error: "invalid_workflow", issues: [{ path: "nodes[0].depends_on[0]", line: 6, column: 18, message: 'depends_on names unknown node "ghost"' }] },
    });
    expect(await wf.rest("GET", "/api/workflows/checked")).toMatchObject({ status: 404 });
    expect(await wf.rest("POST", "/api/workflows", "name: runs\ndescription: d\nnodes:\n  - id: a\n    prompt: p\n")).toMatchObject({
      status: 400,
      body: { error: "invalid_workflow", issues: [{ path: "name", line: 1, column: 7, message: expect.stringContaining("reserved") }] },
    });
    expect(await wf.rest("POST", "/api/workflows", { yaml: "" })).toMatchObject({ status: 400 });

    // 404: unknown workflows, runs and nodes.
    const unknownRun = "00000000-0000-4000-8000-000000000000";
    for (const [method, path] of [
      ["GET", "/api/workflows/no-such-flow"],
      ["POST", "/api/workflows/no-such-flow/runs"],
      ["GET", `/api/workflows/runs/${unknownRun}`],
      ["GET", "/api/workflows/runs/not-a-run-id"],
      ["POST", `/api/workflows/runs/${unknownRun}/cancel`],
      ["POST", `/api/workflows/runs/${unknownRun}/resume`],
      ["POST", `/api/workflows/runs/${unknownRun}/nodes/gate/approve`],
      ["POST", `/api/workflows/runs/${runId}/nodes/nobody/approve`],
      ["POST", `/api/workflows/runs/${runId}/nodes/nobody/reject`],
      ["POST", `/api/workflows/runs/${runId}/nodes/nobody/retry`],
    ] as const) {
      expect({ method, path, ...(await wf.rest(method, path, method === "POST" ? {} : undefined)) }).toMatchObject({ method, path, status: 404, body: { error: "not_found" } });
    }

    // 409: the run or node is not in a state for the request.
    for (const [path, message] of [
      [`/api/workflows/runs/${runId}/resume`, "is completed; only a failed run"],
      [`/api/workflows/runs/${runId}/cancel`, "the run has finished; there is nothing to cancel"],
      [`/api/workflows/runs/${runId}/nodes/gate/reject`, 'node "gate" is completed; it is not waiting for approval'],
      [`/api/workflows/runs/${runId}/nodes/first/approve`, 'node "first" is a bash node, not an approval'],
      [`/api/workflows/runs/${runId}/nodes/first/input`, 'node "first" is not an interactive loop'],
    ] as const) {
      const body = path.endsWith("/input") ? { text: "hi" } : {};
      expect({ path, ...(await wf.rest("POST", path, body)) }).toMatchObject({ path, status: 409, body: { error: "conflict", message: expect.stringContaining(message) } });
    }

    // Cancelling a run waiting for a person: 200, with the reason.
    const waitingRun = await wf.run(v1);
    await wf.until(waitingRun.id, (run) => run.status === "waiting_for_user");
    expect(await wf.rest("POST", `/api/workflows/runs/${waitingRun.id}/cancel`, { reason: "not needed" })).toMatchObject({
      status: 200,
      body: { status: "cancelled", cancel_reason: "not needed", nodes: { gate: { status: "cancelled" } } },
    });
  });
});
