/**
 * A plain flow run as a conversation (issue 20: "a plain Stitch flow run gets one too"): its input, each node's turn
 * as it starts and ends (a Worker's output, failure, automatic and manual retry), its UX and review gates waiting and
 * decided (who, with what feedback or input), a Splitter's paths, the cancellation and the outcome; told from the
 * engine's event log, the same over REST and tRPC, on every test database. Runs another front door owns are refused.
 */
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabases } from "../testing/databases";
import { callerContext } from "../testing/callerContext";
import { chain, collectorNode, graphOf, reviewGate, splitterNode, uxNode, workerNode } from "../testing/flows";
import { type TestPerson, createPerson } from "../testing/people";
import { holdWorker } from "../testing/stitchClient";
import { type ServerOnTestDatabase, serverOn } from "../testing/suite";
import { type WorkerServer, eventually, postJson, startWorkerServer } from "../testing/workerServer";
import { createCaller } from "../trpc/router";
import type { StitchRun } from "../engine/schemas";
import type { FlowConversation } from "../flows/schemas";

describe.each(testDatabases)("a plain flow run's conversation on $name", (testDatabase) => {
  let env: ServerOnTestDatabase;
  let worker: WorkerServer;
  let rita: TestPerson;
  let alan: TestPerson;
  const told = async (runId: string, token?: string) => {
    const answer = await (token ? env.api.as(token) : env.api).get<FlowConversation>(`/api/stitch/runs/${runId}/conversation`);
    expect(answer.status).toBe(200);
    return answer.body;
  };
  /** The latest dispatch the worker received for a node, once it has arrived. */
  const dispatched = (runId: string, nodeId: string, count: number) =>
    eventually(async () => {
      const found = worker.received.filter((d) => d.payload.runId === runId && d.payload.nodeId === nodeId);
      return found.length >= count ? found[count - 1]!.payload : undefined;
    }, 30_000, `dispatch ${count} of ${nodeId}`);

  beforeAll(async () => {
    worker = await startWorkerServer(holdWorker);
    env = await serverOn(testDatabase);
    [rita, alan] = await Promise.all([createPerson(env.server.people, "Rita Ramos", "reviewer"), createPerson(env.server.people, "Alan Analyst", "analyst")]);
  });
  afterAll(async () => {
    await env?.close();
    await worker?.close();
  });

  it("tells the input, each node starting and ending, each gate waiting and decided by whom, and the outcome; REST and tRPC alike", async () => {
    const graph = graphOf(
      [
        uxNode("ask", { label: "Topic", prompt: "What should the draft be about?" }),
        workerNode("draft", `${worker.url}/draft`, { label: "Drafter", retry: { maxAttempts: 2, backoffMs: 0 } }),
        reviewGate("check"),
      ],
      chain("ask", "draft", "check"),
    );
    const flow = await env.api.createFlow(graph, "drafts");
    const run = (await env.api.as(alan.token).post<StitchRun>(`/api/stitch/flows/${flow.id}/runs`, { input: { audience: "neighbours" } })).body;
    expect((await env.api.as(rita.token).post(`/api/stitch/complete/${run.id}/ask`, { topic: "ladders" })).status).toBe(200);
    const first = await dispatched(run.id, "draft", 1);
    await postJson(first.callbackUrl, { status: "failed", error: "the model was busy", attempt: 1 });
    const second = await dispatched(run.id, "draft", 2);
    await postJson(second.callbackUrl, { status: "completed", output: { text: "Ladders v1" }, attempt: 2 });
    expect((await env.api.as(rita.token).post(`/api/stitch/review/${run.id}/check`, { decision: "reject", feedback: "Mention the deposit." })).status).toBe(200);
    const revision = await dispatched(run.id, "draft", 3);
    expect(revision.feedback).toMatchObject({ text: "Mention the deposit." });
    await postJson(revision.callbackUrl, { status: "completed", output: { text: "Ladders v2, deposit included" }, attempt: 3 });
    expect((await env.api.as(rita.token).post(`/api/stitch/review/${run.id}/check`, { decision: "approve" })).status).toBe(200);

    const conversation = await told(run.id, alan.token);
    expect(conversation.run).toMatchObject({ id: run.id, flow_name: "drafts", status: "completed", started_by: { id: alan.accountId, name: "Alan Analyst" } });
    const drafter = { who: null, node: { id: "draft", label: "Drafter", type: "Worker" } };
    const gate = { node: { id: "check", label: "check", type: "UX" } };
    expect(conversation.turns).toMatchObject([
      { kind: "input", who: "Alan Analyst", node: null, body: { value: { audience: "neighbours" } } },
      { kind: "waiting", node: { id: "ask", label: "Topic" }, body: { gate: "completion", prompt: "What should the draft be about?", reviewed: null, value: { audience: "neighbours" } } },
      { kind: "decided", node: { id: "ask" }, who: "Rita Ramos", body: { gate: "completion", decision: "complete", value: { topic: "ladders" }, text: null } },
      { kind: "started", ...drafter, attempt: 1, body: { revising: false, feedback: null } },
      { kind: "failed", ...drafter, attempt: 1, body: { retrying: true, error: expect.stringContaining("the model was busy") } },
      { kind: "started", ...drafter, attempt: 2, body: { revising: false, feedback: null } },
      { kind: "output", ...drafter, attempt: 2, body: { value: { text: "Ladders v1" } } },
      { kind: "waiting", ...gate, body: { gate: "review", prompt: null, reviewed: { node_id: "draft", label: "Drafter", output: { text: "Ladders v1" } } } },
      { kind: "decided", ...gate, who: "Rita Ramos", body: { gate: "review", decision: "request_changes", text: "Mention the deposit." } },
      { kind: "started", ...drafter, attempt: 3, body: { revising: true, feedback: "Mention the deposit." } },
      { kind: "output", ...drafter, attempt: 3, body: { value: { text: "Ladders v2, deposit included" } } },
      { kind: "waiting", ...gate, body: { gate: "review", reviewed: { node_id: "draft", output: { text: "Ladders v2, deposit included" } } } },
      { kind: "decided", ...gate, who: "Rita Ramos", body: { gate: "review", decision: "approve", text: null } },
      { kind: "outcome", who: null, body: { status: "completed", reason: null } },
    ]);
    expect(conversation.turns).toHaveLength(14);
    // Turns keep their ids from one read to the next, and are in the order they happened.
    expect(new Set(conversation.turns.map((t) => t.id)).size).toBe(14);
    expect((await told(run.id)).turns.map((t) => t.id)).toEqual(conversation.turns.map((t) => t.id));
    expect(conversation.turns.map((t) => t.at)).toEqual([...conversation.turns.map((t) => t.at)].sort());
    expect(conversation.nodes).toEqual({
      ask: { node_type: "UX", label: "Topic", status: "completed", gate: "completion", input: { audience: "neighbours" } },
      draft: { node_type: "Worker", label: "Drafter", status: "completed", gate: null, input: { topic: "ladders" } },
      check: { node_type: "UX", label: "check", status: "completed", gate: "review", input: { text: "Ladders v2, deposit included" } },
    });

    // The replay ends where the run is: every node's replayed row is the stored one.
    const history = await env.server.engine.history(run.id);
    const replayed = new Map(history.steps.flatMap((step) => step.changes.map((c) => [c.key, c.after] as const)));
    for (const [key, state] of Object.entries(history.run.node_states)) expect({ key, status: replayed.get(key)?.status, output: replayed.get(key)?.output ?? null }).toEqual({ key, status: state.status, output: state.output });

    const viaTrpc = await createCaller(callerContext(env.server, { kind: "token", accountId: alan.accountId, name: alan.name, role: "analyst", tokenId: "00000000-0000-4000-8000-000000000001" })).engine.runs.conversation({ id: run.id });
    expect(viaTrpc).toEqual(conversation);
  });

  it("tells a Splitter's paths, a failed path and its collector, an operator's retry and the cancellation", async () => {
    const graph = graphOf([splitterNode("S"), workerNode("T", `${worker.url}/translate`), collectorNode("C")], chain("S", "T", "C"));
    const run = await env.api.run(graph, { items: ["hola", "adiós"] });
    const [zero, one] = await Promise.all([dispatched(run.id, "T_0", 1), dispatched(run.id, "T_1", 1)]);
    await postJson(zero!.callbackUrl, { status: "completed", output: "hello" });
    await postJson(one!.callbackUrl, { status: "failed", error: "unknown word" });
    await eventually(async () => ((await env.api.getRun(run.id)).status === "failed" ? true : undefined));
    expect((await env.api.post(`/api/stitch/retry/${run.id}/T_1`)).status).toBe(200);
    await dispatched(run.id, "T_1", 2);
    expect((await env.api.post(`/api/stitch/runs/${run.id}/cancel`, { reason: "not needed after all" })).status).toBe(200);

    const conversation = await told(run.id);
    // A system turn is named by its event: what the old turns named by their kind.
    const kinds = conversation.turns.map((t) => [t.kind === "system" ? t.body.event : t.kind, t.node?.id ?? null]);
    expect(kinds).toEqual([
      ["input", null], ["split", "S"], ["started", "T_0"], ["started", "T_1"],
      ["output", "T_0"],
      ["failed", "T_1"], ["failed", "C"], ["outcome", null],
      ["retried", "T_1"], ["started", "T_1"],
      ["outcome", null],
    ]);
    expect(conversation.turns[1]).toMatchObject({ kind: "system", body: { event: "split", paths: 2 } });
    expect(conversation.turns[2]).toMatchObject({ node: { label: "T (path 0)", type: "Worker" } });
    expect(conversation.turns[5]).toMatchObject({ kind: "failed", body: { error: "unknown word", retrying: false } });
    expect(conversation.turns[6]).toMatchObject({ kind: "failed", node: { type: "Collector" }, body: { error: 'path "T_1" failed' } });
    expect(conversation.turns[7]).toMatchObject({ kind: "outcome", body: { status: "failed" } });
    expect(conversation.turns[8]).toMatchObject({ who: "bootstrap token" });
    expect(conversation.turns[9]).toMatchObject({ attempt: 2 });
    // The cancellation is the run's outcome, told once: by whom and why.
    expect(conversation.turns[10]).toMatchObject({ kind: "outcome", body: { status: "cancelled", reason: "not needed after all" }, who: "bootstrap token" });
    expect(conversation.turns.filter((t) => t.kind === "outcome" && t.body.status === "cancelled")).toHaveLength(1);
    expect(conversation.run.status).toBe("cancelled");
    expect(conversation.nodes).toMatchObject({ T: { status: "cancelled", label: "T" }, T_0: { status: "completed" }, T_1: { status: "cancelled", label: "T (path 1)" }, C: { status: "cancelled" } });
  });

  it("refuses a run another front door owns (409 naming it) and an unknown run (404), over REST and tRPC", async () => {
    const pipelineRun = (await env.api.post("/runs", { domain: "owned", brief: "A run the agent pipeline owns, which the plain flows do not tell." })).body;
    const engineRun = await eventually(async () => (await env.api.get<{ id: string; owner: { run_id: string } | null }[]>("/api/stitch/runs?limit=100")).body.find((r) => r.owner?.run_id === pipelineRun.run_id));
    const owned = await env.api.get(`/api/stitch/runs/${engineRun.id}/conversation`);
    expect(owned).toMatchObject({ status: 409, body: { error: "conflict" } });
    expect(owned.body.message).toContain(`the agent pipeline (${pipelineRun.run_id})`);
    expect((await env.api.get(`/api/stitch/runs/${crypto.randomUUID()}/conversation`)).status).toBe(404);
    expect((await env.api.get(`/api/stitch/runs/not-a-run/conversation`)).status).toBe(404);
    const trpc = createCaller(callerContext(env.server, { kind: "token", accountId: rita.accountId, name: rita.name, role: "reviewer", tokenId: "00000000-0000-4000-8000-000000000002" }));
    const refused = await trpc.engine.runs.conversation({ id: engineRun.id }).then(() => undefined, (e: unknown) => e);
    expect(refused).toBeInstanceOf(TRPCError);
    expect(refused).toMatchObject({ code: "CONFLICT", message: owned.body.message });
    // Cancelled here, so its agents do not keep the server busy as it closes.
    expect((await env.api.post(`/runs/${pipelineRun.run_id}/cancel`, { reason: "done testing" })).status).toBe(200);
  });
});
