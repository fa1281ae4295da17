/**
 * Forks of plain flow runs through both transports (REST /api/runs/..., tRPC engine.runs.*), on every test database:
 * who may fork (operators any run, the starter her own, a reviewer at or before a decision waiting for her; everyone
 * else 403 naming the rule), the audit trail, the lineage on both sides, what the fork calls (only the chosen node,
 * with its edited input and a first feedback) and asks again, the comparison, the refusals (404, 400, 409 for `latest`
 * naming the nodes gone), and the failed runs of a flow forked at once by an operator.
 */
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BRIEFS } from "../testing/agentTestkit";
import { testDatabases } from "../testing/databases";
import { callerContext, personAs } from "../testing/callerContext";
import { chain, collectorNode, graphOf, splitterNode, uxNode, workerNode } from "../testing/flows";
import { type TestPerson, createPerson } from "../testing/people";
import { dispatchesOf, holdWorker } from "../testing/stitchClient";
import { type ServerOnTestDatabase, serverOn } from "../testing/suite";
import { type WorkerServer, eventually, postJson, startWorkerServer } from "../testing/workerServer";
import { createCaller } from "../trpc/router";
import type { StitchRun } from "../engine/schemas";
import type { Forked, ForkedFailures, RunComparison, RunLineage } from "../forks/schemas";
import type { FlowConversation } from "../flows/schemas";

describe.each(testDatabases)("forks of flow runs on $name", (testDatabase) => {
  let env: ServerOnTestDatabase;
  let worker: WorkerServer;
  let alan: TestPerson;
  let amy: TestPerson;
  let rita: TestPerson;
  let flowId: string;
  let runId: string;

  const graph = () =>
    graphOf(
      [workerNode("fetch", `${worker.url}/fetch`, { label: "Fetch" }), workerNode("draft", `${worker.url}/draft`, { label: "Draft" }), uxNode("gate", { label: "Check" }), workerNode("send", `${worker.url}/send`)],
      chain("fetch", "draft", "gate", "send"),
    );
  /** The `count`th dispatch of a node of a run, once it has arrived. */
  const dispatched = (run: string, nodeId: string, count = 1) =>
    eventually(async () => dispatchesOf(worker.received, run, nodeId)[count - 1], 30_000, `dispatch ${count} of ${nodeId}`);
  const answer = async (run: string, nodeId: string, output: unknown) => {
    const { callbackUrl } = await dispatched(run, nodeId);
    expect((await postJson(callbackUrl, { status: "completed", output })).status).toBe(200);
  };
  const fork = (token: string, run: string, body: unknown) => env.api.as(token).post<Forked & { message?: string }>(`/api/runs/${run}/fork`, body);

  beforeAll(async () => {
    worker = await startWorkerServer(holdWorker);
    env = await serverOn(testDatabase);
    [alan, amy, rita] = await Promise.all([
      createPerson(env.server.people, "Alan Analyst", "analyst"), createPerson(env.server.people, "Amy Other", "analyst"), createPerson(env.server.people, "Rita Ramos", "reviewer"),
    ]);
    flowId = (await env.api.createFlow(graph(), "forked drafts")).id;
    runId = (await env.api.as(alan.token).post<StitchRun>(`/api/stitch/flows/${flowId}/runs`, { input: { topic: "ladders" } })).body.id;
    await answer(runId, "fetch", { facts: ["tall", "aluminium"] });
    await answer(runId, "draft", { text: "Ladders are tall." });
    await env.api.waitForStatus(runId, "gate", "waiting_for_user");
  });
  afterAll(async () => {
    await env?.close();
    await worker?.close();
  });

  it("lets the starter fork her run: only the chosen node is called, with the edited input and a first feedback; both runs list each other", async () => {
    const made = await fork(alan.token, runId, { node_id: "draft", input: { facts: ["short"] }, feedback: "try a friendlier tone" });
    expect(made.status).toBe(201);
    const forkId = made.body.run.id;
    expect(made.body.path).toBe(`/app/flows/runs/${forkId}`);
    expect(made.body.run.forked_from).toMatchObject({ run_id: runId, node_id: "draft", by: { id: alan.accountId, name: "Alan Analyst" }, version: "original" });
    const call = await dispatched(forkId, "draft");
    expect(call.input).toEqual({ facts: ["short"] });
    expect(call.feedback).toMatchObject({ text: "try a friendlier tone" });
    expect(dispatchesOf(worker.received, forkId, "fetch")).toEqual([]);
    expect((await env.api.getRun(forkId)).node_states.fetch).toEqual({ status: "completed", output: { facts: ["tall", "aluminium"] } });
    // The original is unchanged: its gate still waits.
    expect((await env.api.getRun(runId)).node_states.gate!.status).toBe("waiting_for_user");
    const lineage = (await env.api.get<RunLineage>(`/api/runs/${runId}/lineage`)).body;
    expect(lineage.forks.map((f) => f.run_id)).toContain(forkId);
    expect((await env.api.get<RunLineage>(`/api/runs/${forkId}/lineage`)).body.forked_from).toMatchObject({ run_id: runId, node_id: "draft" });
    // Both conversations tell it: the fork where it came from and what it copied, the parent where it was forked.
    const told = (await env.api.get<FlowConversation>(`/api/stitch/runs/${forkId}/conversation`)).body;
    expect(told.turns[0]).toMatchObject({ kind: "system", node: { id: "draft" }, who: "Alan Analyst", body: { event: "forked", from_run_id: runId, feedback: "try a friendlier tone", value: { facts: ["short"] } } });
    expect(told.turns).toContainEqual(expect.objectContaining({ kind: "system", node: expect.objectContaining({ id: "fetch" }), body: { event: "copied", status: "completed", output: { facts: ["tall", "aluminium"] }, from_run_id: runId, decided: null } }));
    expect(told.turns).toContainEqual(expect.objectContaining({ kind: "started", node: expect.objectContaining({ id: "draft" }), body: expect.objectContaining({ feedback: "try a friendlier tone" }) }));
    expect(told.turns.filter((t) => t.kind === "output")).toEqual([]);
    expect(told.run.forked_from).toMatchObject({ run_id: runId, node_id: "draft" });
    expect(told.nodes.draft!.input).toEqual({ facts: ["short"] });
    const parentTold = (await env.api.get<FlowConversation>(`/api/stitch/runs/${runId}/conversation`)).body;
    expect(parentTold.turns).toContainEqual(expect.objectContaining({ kind: "system", node: expect.objectContaining({ id: "draft" }), body: { event: "forked_into", fork_run_id: forkId }, who: "Alan Analyst" }));
    expect(parentTold.nodes.draft!.input).toEqual({ facts: ["tall", "aluminium"] });
    // The later decision is asked again in the fork, once its draft has answered.
    await answer(forkId, "draft", { text: "Ladders help you reach." });
    await env.api.waitForStatus(forkId, "gate", "waiting_for_user");
    const decisions = await env.api.get<{ items: { run_id: string; node_id: string; state: string }[] }>(`/api/decisions?view=all&run_id=${forkId}`);
    expect(decisions.body.items).toEqual([expect.objectContaining({ node_id: "gate", state: "open" })]);
  });

  it("lets a reviewer fork at or before the decision waiting for her, and refuses her after it and anyone else, naming the rule", async () => {
    expect((await fork(rita.token, runId, { node_id: "fetch" })).status).toBe(201);
    const afterGate = await fork(rita.token, runId, { node_id: "send" });
    expect(afterGate.status).toBe(403);
    expect(afterGate.body.message).toContain("at or before a decision that waits for her");
    const other = await fork(amy.token, runId, { node_id: "draft" });
    expect(other.status).toBe(403);
    expect(other.body.message).toContain("the person who started a run may fork it");
    const viaTrpc = await createCaller(callerContext(env.server, personAs("Amy Other", "analyst"))).engine.runs.fork({ runId, node_id: "draft" }).catch((e: unknown) => e);
    expect(viaTrpc).toBeInstanceOf(TRPCError);
    expect((viaTrpc as TRPCError).code).toBe("FORBIDDEN");
  });

  it("lets an operator fork any run through tRPC, and records each fork in the audit trail with the new run as its target", async () => {
    const made = await createCaller(callerContext(env.server, personAs("Olga Operator"))).engine.runs.fork({ runId, node_id: "gate" });
    expect(made.run.node_states.gate!.status).toBe("waiting_for_user");
    const audit = await env.api.get<{ entries: { target_id: string | null; outcome: string; message: string | null; status: number | null }[] }>("/api/audit?action=engine.runs.fork&limit=50");
    expect(audit.body.entries).toContainEqual(expect.objectContaining({ target_id: made.run.id, outcome: "accepted", message: expect.stringContaining(`forked from: run ${runId} at gate`) }));
    expect(audit.body.entries).toContainEqual(expect.objectContaining({ outcome: "refused", status: 403 }));
  });

  it("compares a run with its fork: the copied node the same, the forked one's output diff", async () => {
    const forkId = (await fork(alan.token, runId, { node_id: "draft" })).body.run.id;
    await answer(forkId, "draft", { text: "Ladders are short." });
    await env.api.waitForStatus(forkId, "gate", "waiting_for_user");
    const compared = await env.api.get<RunComparison>(`/api/runs/compare?a=${runId}&b=${forkId}`);
    expect(compared.status).toBe(200);
    expect(compared.body.relation).toBe("child");
    const byNode = Object.fromEntries(compared.body.nodes.map((n) => [n.node_id, n]));
    expect(compared.body.nodes.map((n) => n.node_id)).toEqual(["fetch", "draft", "gate", "send"]);
    expect(byNode.fetch).toMatchObject({ same: true, diff: null, b: { copied_from: runId } });
    expect(byNode.draft!.same).toBe(false);
    expect(byNode.draft!.diff).not.toBeNull();
    expect(JSON.stringify(byNode.draft!.diff)).toContain("tall");
    const viaTrpc = await createCaller(callerContext(env.server, personAs("Alan", "analyst"))).engine.runs.compare({ a: runId, b: forkId });
    expect(viaTrpc.nodes).toEqual(compared.body.nodes);
  });

  it("compares a Splitter's node path by path, each path named by the node's label and its path", async () => {
    const graph = graphOf([splitterNode("S"), workerNode("T", `${worker.url}/translate`, { label: "Translate" }), collectorNode("C")], chain("S", "T", "C"));
    const translated = (await env.api.createFlow(graph, "translated")).id;
    const translate = async (outputs: string[]) => {
      const run = (await env.api.as(alan.token).post<StitchRun>(`/api/stitch/flows/${translated}/runs`, { input: { items: ["one", "two"] } })).body.id;
      for (const [i, output] of outputs.entries()) await answer(run, `T_${i}`, output);
      await env.api.waitForStatus(run, "C", "completed");
      return run;
    };
    const [a, b] = [await translate(["un", "deux"]), await translate(["un", "two"])];
    const compared = (await env.api.get<RunComparison>(`/api/runs/compare?a=${a}&b=${b}`)).body;
    const byKey = Object.fromEntries(compared.nodes.map((n) => [n.node_id, n]));
    expect(byKey.T_0).toMatchObject({ label: "Translate · path 1", same: true });
    expect(byKey.T_1).toMatchObject({ label: "Translate · path 2", same: false });
    expect(compared.a.owner).toBeNull();
  });

  it("keeps a decision of the copied part decided: a fork after a gate does not ask it again, and the comparison says who decided it where", async () => {
    const asked = (await env.api.createFlow(graphOf([uxNode("ask", { label: "Topic" }), workerNode("write", `${worker.url}/write`)], chain("ask", "write")), "asked once")).id;
    const run = (await env.api.as(alan.token).post<StitchRun>(`/api/stitch/flows/${asked}/runs`, { input: {} })).body.id;
    await env.api.waitForStatus(run, "ask", "waiting_for_user");
    expect((await env.api.as(rita.token).post(`/api/stitch/complete/${run}/ask`, { topic: "ladders" })).status).toBe(200);
    await dispatched(run, "write");
    const forkId = (await fork(alan.token, run, { node_id: "write", input: { topic: "stools" } })).body.run.id;
    expect((await env.api.getRun(forkId)).node_states.ask).toEqual({ status: "completed", output: { topic: "ladders" } });
    expect((await dispatched(forkId, "write")).input).toEqual({ topic: "stools" });
    const decisions = await env.api.get<{ items: unknown[] }>(`/api/decisions?view=all&run_id=${forkId}`);
    expect(decisions.body.items).toEqual([]);
    // The fork's conversation keeps it decided: who, how and in which run.
    const told = (await env.api.get<FlowConversation>(`/api/stitch/runs/${forkId}/conversation`)).body;
    expect(told.turns.find((t) => t.kind === "system" && t.body.event === "copied" && t.node?.id === "ask")).toMatchObject({ body: { decided: { by: "Rita Ramos", decision: "complete", run_id: run } } });
    const compared = (await env.api.get<RunComparison>(`/api/runs/compare?a=${run}&b=${forkId}`)).body;
    const ask = compared.nodes.find((n) => n.node_id === "ask")!;
    expect(ask.a!.decided_by).toMatchObject({ name: "Rita Ramos", decision: "complete" });
    expect(ask.b).toMatchObject({ copied_from: run, decided_by: { name: "Rita Ramos", decision: "complete", run_id: run }, duration_ms: null });
  });

  it("refuses an unknown run or node, a bad body, and `latest` when copied nodes are gone, changing nothing", async () => {
    const before = (await env.api.get<RunLineage>(`/api/runs/${runId}/lineage`)).body.forks.length;
    expect((await fork(alan.token, "00000000-0000-4000-8000-00000000dead", { node_id: "draft" })).status).toBe(404);
    expect((await fork(alan.token, runId, { node_id: "nowhere" })).status).toBe(404);
    const bad = await fork(alan.token, runId, { node_id: "draft", version: "newest" });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("version");
    const renamed = graphOf([workerNode("fetch2", `${worker.url}/fetch`), workerNode("draft", `${worker.url}/draft`), uxNode("gate"), workerNode("send", `${worker.url}/send`)], chain("fetch2", "draft", "gate", "send"));
    expect((await env.api.post(`/api/stitch/flows/${flowId}/versions`, { graph: renamed, message: "renamed fetch", base_version: 1 })).status).toBe(201);
    const latest = await fork(alan.token, runId, { node_id: "draft", version: "latest" });
    expect(latest.status).toBe(409);
    expect(latest.body.message).toContain('no node "fetch"');
    expect((await env.api.get<RunLineage>(`/api/runs/${runId}/lineage`)).body.forks).toHaveLength(before);
    expect((await fork(alan.token, runId, { node_id: "gate", version: "latest" })).status).toBe(409);
  });

  it("compares two runs of the agent pipeline by their RUN_ ids (their engine runs), each agent and its review by name; a pipeline run and a flow's run are refused", async () => {
    const start = async (brief: (typeof BRIEFS)[keyof typeof BRIEFS]) => (await env.api.post<{ run_id: string }>("/runs", { domain: brief.domain, brief: brief.brief })).body.run_id;
    const [a, b] = [await start(BRIEFS.superApp), await start(BRIEFS.clinic)];
    expect(a).toMatch(/^RUN_/);
    const compared = await eventually(async () => {
      const answer = await env.api.get<RunComparison>(`/api/runs/compare?a=${a}&b=${b}`);
      const requirements = answer.body.nodes?.find((n) => n.node_id === "agent_requirements");
      return requirements?.a?.status === "completed" && requirements.b?.status === "completed" ? answer : undefined;
    }, 30_000, "both pipeline runs' first outputs");
    expect(compared.status).toBe(200);
    expect(compared.body).toMatchObject({ relation: "same_definition", a: { owner: { front_door: "pipeline", run_id: a } }, b: { owner: { front_door: "pipeline", run_id: b } } });
    const byNode = Object.fromEntries(compared.body.nodes.map((n) => [n.node_id, n]));
    expect(byNode.agent_requirements).toMatchObject({ label: "Requirements", node_type: "Worker", same: false });
    expect(byNode.agent_requirements!.diff).not.toBeNull();
    expect(byNode.review_requirements).toMatchObject({ label: "Review Requirements", node_type: "UX" });
    expect(compared.body.nodes.map((n) => n.node_id).slice(0, 2)).toEqual(["agent_requirements", "review_requirements"]);
    // tRPC answers the same, and refuses what is no run's id as REST does (400), naming it.
    const viaTrpc = createCaller(callerContext(env.server, personAs("Alan", "analyst"))).engine.runs;
    expect((await viaTrpc.compare({ a, b })).nodes.map((n) => n.node_id)).toEqual(compared.body.nodes.map((n) => n.node_id));
    const refused = await viaTrpc.compare({ a, b: "RUN_" }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TRPCError);
    expect((refused as TRPCError).code).toBe("BAD_REQUEST");
    expect((refused as TRPCError).message).toContain("b must be a run's id");
    // Named by their engine runs' ids, the same comparison.
    expect((await env.api.get<RunComparison>(`/api/runs/compare?a=${compared.body.a.id}&b=${b}`)).body.a.owner).toEqual({ front_door: "pipeline", run_id: a });
    const mixed = await env.api.get<{ message: string }>(`/api/runs/compare?a=${a}&b=${runId}`);
    expect(mixed.status).toBe(409);
    expect(mixed.body.message).toContain("different flows");
    await Promise.all([a, b].map((id) => env.api.post(`/runs/${id}/cancel`, { reason: "compared" })));
  });

  it("forks the failed runs of a flow since a time at their failed nodes, for operators only, counting first", async () => {
    const since = new Date(Date.now() - 60_000).toISOString();
    const failing = (await env.api.createFlow(graphOf([workerNode("a", `${worker.url}/a`), workerNode("b", `${worker.url}/b`)], chain("a", "b")), "failing")).id;
    const failed = (await env.api.as(alan.token).post<StitchRun>(`/api/stitch/flows/${failing}/runs`, { input: {} })).body.id;
    await answer(failed, "a", "fine");
    const { callbackUrl } = await dispatched(failed, "b");
    await postJson(callbackUrl, { status: "failed", error: "bad input" });
    await env.api.waitForStatus(failed, "b", "failed");
    expect((await env.api.as(alan.token).post("/api/runs/fork-failed", { definition: failing, since })).status).toBe(403);
    const counted = await env.api.post<ForkedFailures>("/api/runs/fork-failed", { definition: failing, since, dry_run: true });
    expect(counted.body).toEqual({ count: 1, runs: [{ run_id: failed, node_id: "b", fork: null, refused: null }] });
    expect((await env.api.get<RunLineage>(`/api/runs/${failed}/lineage`)).body.forks).toEqual([]);
    const done = await env.api.post<ForkedFailures>("/api/runs/fork-failed", { definition: failing, since });
    expect(done.body.count).toBe(1);
    const made = done.body.runs[0]!.fork!;
    expect(made.path).toBe(`/app/flows/runs/${made.run_id}`);
    await dispatched(made.run_id, "b");
    expect(dispatchesOf(worker.received, made.run_id, "a")).toEqual([]);
  });
});
