/**
 * Forks of YAML workflow runs through the one fork door (`POST /api/runs/{run_id}/fork`, which hands a YAML run to
 * this front door), on every test database: the nodes before the chosen one copied (not run again, not told again),
 * the chosen one and what follows run again with the run's edited message, the approval after it asked anew, the
 * original untouched and waiting, both runs naming each other; and the refusals.
 */
import { describe, expect, it } from "vitest";
import { testDatabases } from "../../testing/databases";
import { gatedWorkflow } from "../../testing/gatedWorkflow";
import { startTestServer } from "../../testing/harness";
import { workflowSuite } from "../../testing/yamlWorkflows";

const GATED = gatedWorkflow("forked-gate");

describe.each(testDatabases)("forks of YAML workflow runs on $name", (testDatabase) => {
  const wf = workflowSuite({ open: () => testDatabase.open(), start: startTestServer });

  it("forks at a node with another message: it and what follows run again, the approval is asked anew, the original waits on", async () => {
    const started = await wf.run(GATED, "the launch");
    await wf.nodeIs(started.id, "review", "waiting_for_user");
    const forked = await wf.rest("POST", `/api/runs/${started.id}/fork`, { node_id: "draft", input: { message: "the relaunch" } });
    expect(forked.status).toBe(201);
    const forkId: string = forked.body.run.id;
    expect(forked.body.path).toBe(`/app/workflows/runs/${forkId}`);
    const waiting = await wf.nodeIs(forkId, "review", "waiting_for_user");
    expect(waiting).toMatchObject({ message: "the relaunch", forked_from: { run_id: started.id, node_id: "draft", version: "original" } });
    expect(waiting.nodes.draft).toMatchObject({ status: "completed", output: "plan for the relaunch" });
    const original = await wf.get(started.id);
    expect(original.nodes.draft!.output).toBe("plan for the launch");
    expect(original.nodes.review!.status).toBe("waiting_for_user");
    expect(original.forks.map((f) => f.run_id)).toEqual([forkId]);

    // The fork's approval is its own: approving it moves the fork alone.
    expect((await wf.rest("POST", `/api/workflows/runs/${forkId}/nodes/review/approve`, { comment: "yes" })).status).toBe(200);
    const done = await wf.settled(forkId);
    expect(done.nodes.after).toMatchObject({ status: "completed", output: "approved with yes" });
    expect((await wf.get(started.id)).nodes.review!.status).toBe("waiting_for_user");
  });

  it("forks at the approval: the draft is copied, neither run again nor told again, and the approval waits anew", async () => {
    const started = await wf.run(GATED, "copy me");
    await wf.nodeIs(started.id, "review", "waiting_for_user");
    const forked = await wf.rest("POST", `/api/runs/${started.id}/fork`, { node_id: "review" });
    expect(forked.status).toBe(201);
    const forkId: string = forked.body.run.id;
    const waiting = await wf.nodeIs(forkId, "review", "waiting_for_user");
    expect(waiting.nodes.draft).toMatchObject({ status: "completed", output: "plan for copy me" });
    const turns = (await wf.conversation(forkId)).turns;
    expect(turns.map((t) => t.kind)).toEqual(["message", "forked", "waiting"]);
    expect(turns[1]).toMatchObject({ node_id: "review", actor: "bootstrap token", data: { from_run_id: started.id, copied: ["draft"] } });
    expect(turns[2]).toMatchObject({ node_id: "review", text: "Approve this? plan for copy me" });
    const decisions = await wf.rest("GET", `/api/decisions?view=all&run_id=${forkId}`);
    expect(decisions.body.items).toEqual([expect.objectContaining({ node_id: "review", state: "open" })]);
  });

  it("refuses a bad input and a feedback (400), and `latest` when a node it would copy is gone (409 naming it), making nothing", async () => {
    const started = await wf.run(GATED, "refusals");
    await wf.nodeIs(started.id, "review", "waiting_for_user");
    const bad = await wf.rest("POST", `/api/runs/${started.id}/fork`, { node_id: "draft", input: { message: 5 } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("input.message");
    expect((await wf.rest("POST", `/api/runs/${started.id}/fork`, { node_id: "draft", feedback: "warmer" })).status).toBe(400);
    await wf.register(GATED.replace(/draft/g, "sketch"));
    const latest = await wf.rest("POST", `/api/runs/${started.id}/fork`, { node_id: "review", version: "latest" });
    expect(latest.status).toBe(409);
    expect(latest.body.message).toContain('no node "draft"');
    expect((await wf.get(started.id)).forks).toEqual([]);
    // A node the latest version lacks cannot be forked at on it.
    const fresh = await wf.rest("POST", `/api/runs/${started.id}/fork`, { node_id: "draft", version: "latest" });
    expect(fresh.status).toBe(409);
  });
});
