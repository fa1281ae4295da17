/**
 * Approval nodes of YAML workflows on the real server, on every test database: approve, reject with and without
 * on_reject, repeated and misplaced decisions (REST), and a gate that outlives the server waiting at it.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabases } from "../../testing/databases";
import { type TestServer, startTestServer } from "../../testing/harness";
import { type ReopenableDatabase, createReopenableDatabase } from "../../testing/reopenableDatabase";
import { runningProcesses } from "../runtime/processes";
import { reviewerNamed } from "../../testing/deciders";
import { gatedWorkflow } from "../../testing/gatedWorkflow";
import { WorkflowDriver, waitFor, workflowSuite } from "../../testing/yamlWorkflows";

const GATED = gatedWorkflow("gated");

describe.each(testDatabases)("YAML workflow approvals on $name", (testDatabase) => {
  const wf = workflowSuite({ open: () => testDatabase.open(), start: startTestServer });
  const approveOverRest = (runId: string, nodeId: string, comment?: string) =>
    wf.rest("POST", `/api/workflows/runs/${runId}/nodes/${nodeId}/approve`, comment === undefined ? {} : { comment });

  it("approval: approve completes the gate with the comment and the run goes on; a repeated approve is a no-op", async () => {
    const started = await wf.run(GATED, "the launch");
    const waiting = await wf.nodeIs(started.id, "review", "waiting_for_user");
    expect(waiting.status).toBe("waiting_for_user");
    // No on_reject: the conversation tells the reviewer that requesting changes cancels the run.
    expect((await wf.conversation(started.id)).turns.find((t) => t.kind === "waiting")).toMatchObject({ node: { id: "review" }, body: { gate: "approval", prompt: "Approve this? plan for the launch", on_reject: "cancel" } });

    const approved = await approveOverRest(started.id, "review", "looks good");
    expect(approved).toMatchObject({ status: 200, body: { id: started.id } });
    const done = await wf.settled(started.id);
    expect(done.status).toBe("completed");
    expect(done.nodes.review).toMatchObject({ status: "completed", output: "looks good" });
    expect(done.nodes.after).toMatchObject({ status: "completed", output: "approved with looks good" });

    const again = await approveOverRest(started.id, "review", "once more");
    expect(again).toMatchObject({ status: 200, body: { status: "completed", nodes: { review: { output: "looks good" } } } });
    await expect(wf.server.workflows.commands.approve(started.id, "review", "and again", reviewerNamed("ada"))).resolves.toMatchObject({ status: "completed" });
    const approvals = (await wf.conversation(started.id)).turns.filter((t) => t.kind === "decided" && t.body.decision === "approve");
    expect(approvals).toHaveLength(1);
    expect(approvals[0]).toMatchObject({ body: { text: "looks good" } });
  });

  it("approval: reject without on_reject cancels the run with the reason", async () => {
    const started = await wf.run(GATED);
    await wf.nodeIs(started.id, "review", "waiting_for_user");
    const rejected = await wf.rest("POST", `/api/workflows/runs/${started.id}/nodes/review/reject`, { reason: "too risky" });
    expect(rejected).toMatchObject({ status: 200, body: { status: "cancelled", cancel_reason: "rejected at review: too risky" } });
    const run = await wf.get(started.id);
    expect(run.nodes.review!.status).toBe("cancelled");
    expect(run.nodes.after!.status).toBe("cancelled");
    const turns = (await wf.conversation(started.id)).turns;
    expect(turns.find((t) => t.kind === "decided" && t.body.decision === "request_changes")).toMatchObject({ node: { id: "review" }, body: { text: "too risky" } });
    // The cancellation is how the run ended: told once, with its reason and who rejected.
    expect(turns.filter((t) => t.kind === "outcome")).toMatchObject([{ who: "bootstrap token", body: { status: "cancelled", reason: "rejected at review: too risky" } }]);
    // Nothing runs after it: the gate cannot be approved any more.
    expect(await approveOverRest(started.id, "review")).toMatchObject({ status: 409 });
  });

  it("approval: on_reject runs its prompt with $REJECTION_REASON and the gate waits again, until the rejection that reaches max_attempts cancels the run", async () => {
    const started = await wf.run(`name: gated-rework
description: rework on rejection
nodes:
  - id: review
    approval:
      message: Ship it?
      on_reject:
        prompt: "Revise the plan: $REJECTION_REASON"
        max_attempts: 3
  - id: after
    depends_on: [review]
    bash: echo shipped
`);
    const { commands } = wf.server.workflows;
    await wf.nodeIs(started.id, "review", "waiting_for_user");
    const lastWait = async () => (await wf.conversation(started.id)).turns.findLast((t) => t.kind === "waiting")?.body.on_reject;
    expect(await lastWait()).toBe("revise");
    for (const [round, reason] of [[2, "too vague"], [3, "still vague"]] as const) {
      await commands.reject(started.id, "review", reason, reviewerNamed("grace"));
      const again = await wf.until(started.id, (run) => run.nodes.review!.status === "waiting_for_user" && run.nodes.review!.attempts === round);
      expect(again.status).toBe("waiting_for_user");
      const rework = (await wf.conversation(started.id)).turns.findLast((t) => t.kind === "output" && t.node?.id === "review");
      expect(rework).toMatchObject({ body: { value: expect.stringContaining(`> Revise the plan: ${reason}`), feedback: reason, responder: "offline" } });
      // The third rejection is the last one allowed: at that wait, requesting changes cancels the run.
      expect(await lastWait()).toBe(round === 3 ? "cancel" : "revise");
    }
    const cancelled = await commands.reject(started.id, "review", "no", reviewerNamed("grace"));
    expect(cancelled).toMatchObject({ status: "cancelled", cancel_reason: "rejected at review 3 times: no" });
    expect(cancelled.nodes.after!.status).toBe("cancelled");
    const rejections = (await wf.conversation(started.id)).turns.flatMap((t) => (t.kind === "decided" && t.body.decision === "request_changes" ? [t.body.text] : []));
    expect(rejections).toEqual(["too vague", "still vague", "no"]);
  });

  it("approval with when: a false condition skips the gate (nobody is asked), a true one waits for the approval", async () => {
    const started = await wf.run(`name: gated-when
description: a gate only for risky changes
nodes:
  - id: risk
    bash: echo high
  - id: review_if_low
    depends_on: [risk]
    when: "$risk.output == 'low'"
    approval:
      message: Low risk, fine?
  - id: review_if_high
    depends_on: [risk]
    when: "$risk.output == 'high'"
    approval:
      message: High risk, sure?
  - id: after_low
    depends_on: [review_if_low]
    trigger_rule: all_done
    bash: echo low path done
`);
    const waiting = await wf.until(started.id, (run) => run.status === "waiting_for_user");
    expect(waiting.nodes.review_if_high!.status).toBe("waiting_for_user");
    expect(waiting.nodes.review_if_low).toMatchObject({ status: "skipped", skip_reason: "when: $risk.output == 'low' was false" });
    expect(waiting.nodes.after_low).toMatchObject({ status: "completed", output: "low path done" });
    await wf.server.workflows.commands.approve(started.id, "review_if_high", undefined, reviewerNamed("ada"));
    expect((await wf.settled(started.id)).status).toBe("completed");
  });

  it("approval: approving or rejecting a node that is not waiting is 409 over REST; an unknown node is 404", async () => {
    const started = await wf.run(`name: gated-later
description: a gate behind a slow node
nodes:
  - id: slow
    bash: "while [ ! -f release ]; do sleep 0.05; done; echo ready"
  - id: review
    depends_on: [slow]
    approval:
      message: ok?
`);
    await wf.nodeIs(started.id, "slow", "running");
    const early = await approveOverRest(started.id, "review", "too soon");
    expect(early).toMatchObject({ status: 409, body: { error: "conflict", message: 'node "review" is pending; it is not waiting for approval' } });
    const earlyReject = await wf.rest("POST", `/api/workflows/runs/${started.id}/nodes/review/reject`, { reason: "too soon" });
    expect(earlyReject).toMatchObject({ status: 409, body: { error: "conflict", message: 'node "review" is pending; it is not waiting for approval' } });
    expect(await approveOverRest(started.id, "slow")).toMatchObject({ status: 409, body: { error: "conflict", message: 'node "slow" is a bash node, not an approval' } });
    expect(await approveOverRest(started.id, "nobody")).toMatchObject({ status: 404, body: { error: "not_found", message: `run ${started.id} has no node "nobody"` } });

    writeFileSync(join(wf.runDir(started.id), "release"), "");
    await wf.nodeIs(started.id, "review", "waiting_for_user");
    expect(await approveOverRest(started.id, "review")).toMatchObject({ status: 200 });
    expect((await wf.settled(started.id)).status).toBe("completed");
  });
});

describe.each(testDatabases)("a YAML workflow across a server restart on $name", (testDatabase) => {
  let store: ReopenableDatabase;
  let server: TestServer | undefined;
  let dir: string;
  const wf = new WorkflowDriver(() => server!);
  const start = async () => {
    server = await startTestServer(await store.open(), { WORKFLOWS_DIR: join(dir, "workflows"), WORKFLOW_WORK_DIR: join(dir, "work"), WORKFLOW_SHELL: "on", DISPATCH_POLL_MS: "100" });
  };

  beforeAll(async () => {
    store = await createReopenableDatabase(testDatabase.name);
    dir = await mkdtemp(join(tmpdir(), "stitch-wf-restart-"));
    await start();
  });
  afterAll(async () => {
    await server?.close();
    await store?.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  it("the approval gate survives a restart: the next server on the same database takes the approval and the run completes; a node running at the restart runs again", async () => {
    const started = await wf.run(`name: across-restart
description: a gate and a running node when the server stops
nodes:
  - id: draft
    bash: echo drafted
  - id: review
    depends_on: [draft]
    approval:
      message: "Approve $draft.output?"
      capture_response: true
  - id: long
    bash: "echo run >> runs; while [ ! -f release ]; do sleep 0.05; done; echo long done"
  - id: after
    depends_on: [review, long]
    bash: echo "$review.output, $long.output"
`);
    const runDir = join(dir, "work", started.id);
    const runs = () => (existsSync(join(runDir, "runs")) ? readFileSync(join(runDir, "runs"), "utf8") : "");
    await wf.nodeIs(started.id, "review", "waiting_for_user");
    await waitFor(runs, (text) => text === "run\n");

    // The stopping server gives up the running node's work (its process ends) rather than waiting for it.
    await server!.close();
    server = undefined;
    expect(runningProcesses(started.id)).toBe(0);
    await start();

    const waiting = await wf.get(started.id);
    expect(waiting.nodes.review!.status).toBe("waiting_for_user");
    expect(waiting.nodes.long).toMatchObject({ status: "running", attempts: 1 });
    // The work the first server gave up is performed again by this one.
    await waitFor(runs, (text) => text === "run\nrun\n");
    await wf.server.workflows.commands.approve(started.id, "review", "approved after the restart", reviewerNamed("ada"));
    writeFileSync(join(runDir, "release"), "");
    const done = await wf.settled(started.id);
    expect(done.status).toBe("completed");
    expect(done.nodes.after).toMatchObject({ status: "completed", output: "approved after the restart, long done" });
    expect(done.nodes.long).toMatchObject({ status: "completed", attempts: 1 });
    expect(runs()).toBe("run\nrun\n");
  });
});
