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

    // A fork of the fork after its approval keeps it decided: who approved it, in which run; it is not asked again.
    const again = await wf.rest("POST", `/api/runs/${forkId}/fork`, { node_id: "after" });
    expect(again.status).toBe(201);
    const againId: string = again.body.run.id;
    await wf.settled(againId);
    const forkedTurn = (await wf.conversation(againId)).turns.find((t) => t.kind === "system" && t.body.event === "forked");
    expect(forkedTurn).toMatchObject({ body: { decided: { review: { by: "bootstrap token", decision: "approve", run_id: forkId } } } });
    const asked = await wf.rest("GET", `/api/decisions?view=all&run_id=${againId}`);
    expect(asked.body.items).toEqual([]);
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
    expect(turns.map((t) => (t.kind === "system" ? t.body.event : t.kind))).toEqual(["input", "forked", "waiting"]);
    expect(turns[0]).toMatchObject({ body: { value: "copy me" } });
    expect(turns[1]).toMatchObject({ node: { id: "review", type: "approval" }, who: "bootstrap token", body: { event: "forked", from_run_id: started.id, copied: ["draft"] } });
    expect(turns[2]).toMatchObject({ node: { id: "review" }, body: { prompt: "Approve this? plan for copy me" } });
    const decisions = await wf.rest("GET", `/api/decisions?view=all&run_id=${forkId}`);
    expect(decisions.body.items).toEqual([expect.objectContaining({ node_id: "review", state: "open" })]);
  });

  it("compares a run with its fork by their ids (the door the engine's compare is for every front door): the copied draft the same, what followed differs", async () => {
    const started = await wf.run(GATED, "the launch");
    await wf.nodeIs(started.id, "review", "waiting_for_user");
    const forkId: string = (await wf.rest("POST", `/api/runs/${started.id}/fork`, { node_id: "draft", input: { message: "the relaunch" } })).body.run.id;
    await wf.nodeIs(forkId, "review", "waiting_for_user");
    const compared = await wf.rest("GET", `/api/runs/compare?a=${started.id}&b=${forkId}`);
    expect(compared.status).toBe(200);
    expect(compared.body).toMatchObject({ relation: "child", a: { id: started.id, owner: { front_door: "yaml", run_id: started.id }, name: expect.stringContaining("forked-gate") }, b: { id: forkId, forked_from: { run_id: started.id } } });
    const byNode = Object.fromEntries((compared.body.nodes as { node_id: string }[]).map((n) => [n.node_id, n]));
    expect(Object.keys(byNode)).toEqual(["draft", "review", "after"]);
    expect(byNode.draft).toMatchObject({ label: "bash · draft", same: false, a: { output: "plan for the launch" }, b: { output: "plan for the relaunch" } });
    expect(JSON.stringify(byNode.draft)).toContain("relaunch");
    expect(byNode.review).toMatchObject({ a: { status: "waiting_for_user" }, b: { status: "waiting_for_user" } });
    // From the fork's side, the original is its parent.
    expect((await wf.rest("GET", `/api/runs/compare?a=${forkId}&b=${started.id}`)).body.relation).toBe("parent");
  });

  it("compares a run with its fork on the workflow's latest version, a definition of its own: a node the latest adds is on the fork's side alone", async () => {
    const started = await wf.run(GATED.replace("name: forked-gate", "name: grown-gate"), "the launch");
    await wf.nodeIs(started.id, "review", "waiting_for_user");
    await wf.register(`${GATED.replace("name: forked-gate", "name: grown-gate")}  - id: tell
    depends_on: [after]
    bash: echo "told"
`);
    const forked = await wf.rest("POST", `/api/runs/${started.id}/fork`, { node_id: "draft", version: "latest" });
    expect(forked.status).toBe(201);
    const forkId: string = forked.body.run.id;
    const compared = await wf.rest("GET", `/api/runs/compare?a=${started.id}&b=${forkId}`);
    expect(compared.status).toBe(200);
    expect(compared.body.relation).toBe("child");
    // The two are runs of different engine flows (each definition version is one), compared all the same.
    const flowOf = async (id: string) => (await wf.rest("GET", `/api/stitch/runs/${id}`)).body.flow_id as string;
    expect(await flowOf(forkId)).not.toBe(await flowOf(started.id));
    expect(compared.body.nodes.find((n: { node_id: string }) => n.node_id === "tell")).toMatchObject({ a: null, b: { status: "pending" } });
  });

  it("answers 404 naming an unknown run, 400 for what is no run's id, and 409 for a run of another workflow", async () => {
    const started = await wf.run(GATED, "unknowns");
    const unknown = "00000000-0000-4000-8000-00000000beef";
    const missing = await wf.rest("GET", `/api/runs/compare?a=${started.id}&b=${unknown}`);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toContain(unknown);
    const noPipelineRun = await wf.rest("GET", `/api/runs/compare?a=RUN_1700000000000abcdef&b=${started.id}`);
    expect(noPipelineRun.status).toBe(404);
    expect(noPipelineRun.body.message).toContain("RUN_1700000000000abcdef");
    const bad = await wf.rest("GET", `/api/runs/compare?a=${started.id}&b=run-7`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("b must be a run's id");
    const other = await wf.run(GATED.replace("name: forked-gate", "name: another-gate"), "elsewhere");
    const refused = await wf.rest("GET", `/api/runs/compare?a=${started.id}&b=${other.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain("different flows");
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
