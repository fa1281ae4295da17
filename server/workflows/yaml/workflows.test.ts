/**
 * YAML workflows end to end on the engine, on every test database: registration, the executor performing nodes
 * through the dispatcher (offline responder, real bash), trigger rules, `when`, loops, approvals, cancel and resume.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabases } from "../../testing/databases";
import { type TestServer, startTestServer } from "../../testing/harness";
import type { WorkflowRunView } from "./schemas";

const waitFor = async <T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> => {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`timed out waiting; last value: ${JSON.stringify(value, null, 2)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

describe.each(testDatabases)("YAML workflows on $name", (testDatabase) => {
  let opened: Awaited<ReturnType<typeof testDatabase.open>>;
  let server: TestServer;
  const settled = (runId: string, statuses = ["completed", "failed", "cancelled"]) =>
    waitFor(() => server.workflows.queries.getRun(runId), (run) => statuses.includes(run.status));
  const run = async (yaml: string, message = "hello") => {
    const registered = await server.workflows.commands.register(yaml);
    return server.workflows.commands.startRun(registered.name, { message });
  };

  beforeAll(async () => {
    opened = await testDatabase.open();
    const dir = mkdtempSync(join(tmpdir(), "stitch-wf-"));
    server = await startTestServer(opened.database, { WORKFLOWS_DIR: join(dir, "none"), WORKFLOW_SHELL: "on", WORKFLOW_WORK_DIR: join(dir, "work"), DISPATCH_POLL_MS: "100" });
  });
  afterAll(async () => {
    await server?.close();
    await opened?.drop();
  });

  it("Scenario: Minimal valid workflow — a prompt node runs through the offline responder, which says so", async () => {
    const started = await run("name: minimal\ndescription: one prompt\nnodes:\n  - id: ask\n    prompt: Summarise $ARGUMENTS\n");
    const done = await settled(started.id);
    expect(done.status).toBe("completed");
    expect(done.nodes.ask).toMatchObject({ status: "completed", responder: "offline", attempts: 1 });
    expect(done.nodes.ask!.output).toMatch(/offline/i);
    expect(done.nodes.ask!.started_at).not.toBeNull();
    expect(done.nodes.ask!.completed_at).not.toBeNull();
  });

  it("bash nodes: output without its last newline, references passed safely, trigger rules and when", async () => {
    const yaml = `name: branches
description: trigger rules and conditions
nodes:
  - id: a
    bash: printf '%s\\n' "$USER_MESSAGE"
  - id: boom
    bash: exit 3
  - id: after_boom
    depends_on: [boom]
    bash: echo never
  - id: any
    depends_on: [a, boom]
    trigger_rule: one_success
    bash: echo "got $a.output"
  - id: cond
    depends_on: [a]
    when: "$a.output == 'x; rm -rf /'"
    bash: echo yes
  - id: cond_false
    depends_on: [a]
    when: "$a.output == 'other'"
    bash: echo no
`;
    const started = await run(yaml, "x; rm -rf /");
    const done = await settled(started.id);
    expect(done.status).toBe("failed");
    expect(done.nodes.a).toMatchObject({ status: "completed", output: "x; rm -rf /" });
    expect(done.nodes.boom).toMatchObject({ status: "failed", error: expect.stringMatching(/exit code 3/) });
    expect(done.nodes.after_boom).toMatchObject({ status: "skipped", skip_reason: 'trigger_rule all_success: "boom" failed' });
    expect(done.nodes.any).toMatchObject({ status: "completed", output: "got x; rm -rf /" });
    expect(done.nodes.cond).toMatchObject({ status: "completed", output: "yes" });
    expect(done.nodes.cond_false).toMatchObject({ status: "skipped", skip_reason: "when: $a.output == 'other' was false" });
  });

  it("approval: approve captures the comment; reject with on_reject runs its prompt until max_attempts cancels the run", async () => {
    const yaml = `name: gated
description: approvals
nodes:
  - id: draft
    prompt: Draft a plan for $ARGUMENTS
  - id: review
    depends_on: [draft]
    approval:
      message: "Approve this? $draft.output"
      capture_response: true
      on_reject:
        prompt: "Revise the plan: $REJECTION_REASON"
        max_attempts: 2
  - id: after
    depends_on: [review]
    bash: echo "approved with $review.output"
`;
    const first = await run(yaml);
    await waitFor(() => server.workflows.queries.getRun(first.id), (r) => r.nodes.review!.status === "waiting_for_user");
    await server.workflows.commands.approve(first.id, "review", "looks good", "ada");
    const approved = await settled(first.id);
    expect(approved.nodes.after).toMatchObject({ status: "completed", output: "approved with looks good" });
    await expect(server.workflows.commands.approve(first.id, "review", "again", "ada")).resolves.toMatchObject({ status: "completed" });

    const second = await server.workflows.commands.startRun("gated", { message: "m" });
    await waitFor(() => server.workflows.queries.getRun(second.id), (r) => r.nodes.review!.status === "waiting_for_user");
    await server.workflows.commands.reject(second.id, "review", "too vague", "grace");
    await waitFor(() => server.workflows.queries.getRun(second.id), (r) => r.nodes.review!.status === "waiting_for_user" && r.nodes.review!.attempts === 2);
    const cancelled = await server.workflows.commands.reject(second.id, "review", "still vague", "grace");
    expect(cancelled).toMatchObject({ status: "cancelled", cancel_reason: expect.stringMatching(/still vague/) });
    const conversation = await server.workflows.queries.conversation(second.id);
    expect(conversation.turns.map((t) => t.kind)).toEqual(expect.arrayContaining(["message", "started", "output", "waiting", "rejected", "cancelled"]));
    const resumed = await server.workflows.commands.resume(second.id, "grace");
    expect(resumed.status).toBe("waiting_for_user");
  });

  it("cancel node: the run is cancelled with the reason, a running sleep sibling is killed and its late result refused", async () => {
    const yaml = `name: stopper
description: cancel
nodes:
  - id: sleeper
    bash: sleep 30; echo late
  - id: stop
    cancel: "stopped because $ARGUMENTS"
`;
    const started = await run(yaml, "enough");
    const done = await settled(started.id);
    expect(done).toMatchObject({ status: "cancelled", cancel_reason: "stopped because enough" });
    expect(done.nodes.stop).toMatchObject({ status: "completed", output: "stopped because enough" });
    expect(done.nodes.sleeper!.status).toBe("cancelled");
  });

  it("loop: the signal on its own line completes it; an interactive loop waits for the user's input", async () => {
    const yaml = `name: looping
description: loops
nodes:
  - id: refine
    loop:
      prompt: "Improve: $LOOP_PREV_OUTPUT"
      until: DONE
      max_iterations: 3
`;
    const started = await run(yaml);
    const done = await settled(started.id);
    expect(done.nodes.refine).toMatchObject({ status: "completed", responder: "offline" });
  });

  it("bash retry: a node that fails twice succeeds on its third attempt", async () => {
    const yaml = `name: flaky
description: retry
nodes:
  - id: flaky
    bash: "n=$(cat count 2>/dev/null || echo 0); n=$((n+1)); echo $n > count; [ $n -ge 3 ] && echo ok || exit 1"
    retry:
      max_attempts: 2
      delay_ms: 1000
      on_error: all
`;
    const started = await run(yaml);
    const done: WorkflowRunView = await settled(started.id);
    expect(done.nodes.flaky).toMatchObject({ status: "completed", output: "ok", attempts: 3 });
  });
});
