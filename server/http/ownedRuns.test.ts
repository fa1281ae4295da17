/**
 * "Every run has one owner": the engine's generic doors (REST /api/stitch/*, tRPC engine.runs.*) refuse every change
 * to a run that the agent pipeline, a YAML workflow or a step workflow owns, with 409 naming the owner's door, and
 * change nothing; reads stay open. A plain flow's run is still theirs. And every accepted creation names what it
 * created in the audit trail, through either door.
 */
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabases } from "../testing/databases";
import { callerContext, personAs } from "../testing/callerContext";
import { chain, graphOf, reviewGate, uxNode, workerNode } from "../testing/flows";
import { type ServerOnTestDatabase, serverOn } from "../testing/suite";
import { eventually } from "../testing/workerServer";
import { gateFirstWorkflow, pausingStepWorkflow } from "../testing/waitingWorkflows";
import { createCaller } from "../trpc/router";
import type { StitchRun } from "../engine/schemas";

const APPROVAL_FIRST = gateFirstWorkflow(
  "owned-gate",
  `      on_reject:
        prompt: "rework: $REJECTION_REASON"
        max_attempts: 1
`,
);

const SLOW_STEPS = pausingStepWorkflow("owned-steps");

/** What tRPC's error codes answer over HTTP, so both doors' answers compare as statuses. */
const HTTP_OF: Record<string, number> = { CONFLICT: 409, NOT_FOUND: 404, BAD_REQUEST: 400, FORBIDDEN: 403 };

describe.each(testDatabases)("owned runs behind the generic engine doors on $name", (testDatabase) => {
  let env: ServerOnTestDatabase;
  const trpc = () => createCaller(callerContext(env.server, personAs("olga operator")));
  const statusOf = async (call: Promise<unknown>) => {
    const error = await call.then(() => undefined, (e: unknown) => e);
    if (error === undefined) return 200;
    expect(error).toBeInstanceOf(TRPCError);
    return { status: HTTP_OF[(error as TRPCError).code] ?? 500, message: (error as TRPCError).message };
  };

  let pipelineRun: { id: string; engineRunId: string };
  let yamlRunId: string;
  let stepRunId: string;

  beforeAll(async () => {
    env = await serverOn(testDatabase);
    const created = await env.api.post("/runs", { domain: "tools", brief: "A tool library where neighbours lend drills, ladders and saws to each other." });
    expect(created.status).toBe(200);
    await eventually(async () => ((await env.api.get(`/runs/${created.body.run_id}`)).body.is_waiting_for_user ? true : undefined), 30_000, "the pipeline's first review");
    const conversation = await trpc().pipeline.conversation({ runId: created.body.run_id });
    pipelineRun = { id: created.body.run_id, engineRunId: conversation.stitch_run_id };

    expect((await env.api.post("/api/workflows", APPROVAL_FIRST, { "content-type": "application/yaml" })).status).toBe(201);
    const yamlRun = await env.api.post("/api/workflows/owned-gate/runs", {});
    yamlRunId = yamlRun.body.id;
    await eventually(async () => ((await env.api.get(`/api/workflows/runs/${yamlRunId}`)).body.nodes.gate.status === "waiting_for_user" ? true : undefined));

    expect((await env.api.post("/api/workflows", SLOW_STEPS)).status).toBe(201);
    stepRunId = (await env.api.post("/api/workflows/owned-steps/runs", { inputs: {} })).body.id;
  });
  afterAll(async () => {
    await env?.close();
  });

  it("every generic change to an owned run is 409 naming its owner's door, through REST and tRPC alike, and changes nothing", async () => {
    const owned = [
      // Each front door forks its own runs (server/http/pipelineForks.test.ts, server/workflows/yaml/forks.test.ts,
      // server/workflows/steps/forks.test.ts).
      { engineRunId: pipelineRun.engineRunId, node: "review_requirements", door: `/runs/${pipelineRun.id}` },
      { engineRunId: yamlRunId, node: "gate", door: `/api/workflows/runs/${yamlRunId}` },
      { engineRunId: stepRunId, node: "pause", door: `/api/workflows/runs/${stepRunId}` },
    ];
    for (const { engineRunId, node, door } of owned) {
      const before = (await env.api.get<StitchRun>(`/api/stitch/runs/${engineRunId}`)).body;
      expect(before.owner).not.toBeNull();
      const rest = [
        await env.api.post(`/api/stitch/review/${engineRunId}/${node}`, { decision: "reject", feedback: "through the back door" }),
        await env.api.post(`/api/stitch/review/${engineRunId}/${node}`, { decision: "approve" }),
        await env.api.post(`/api/stitch/complete/${engineRunId}/${node}`, { any: "input" }),
        await env.api.post(`/api/stitch/retry/${engineRunId}/${node}`),
        await env.api.post(`/api/stitch/runs/${engineRunId}/cancel`, { reason: "through the back door" }),
        await env.api.post(`/api/stitch/callback/${engineRunId}/${node}`, { status: "completed", output: "forged" }),
      ];
      for (const answer of rest) {
        expect(answer.status).toBe(409);
        expect(answer.body.message).toContain(door);
      }
      const viaTrpc = [
        await statusOf(trpc().engine.runs.reviewNode({ runId: engineRunId, nodeId: node, decision: "reject", feedback: "through the back door" })),
        await statusOf(trpc().engine.runs.reviewNode({ runId: engineRunId, nodeId: node, decision: "approve" })),
        await statusOf(trpc().engine.runs.completeNode({ runId: engineRunId, nodeId: node, output: { any: "input" } })),
        await statusOf(trpc().engine.runs.retryNode({ runId: engineRunId, nodeId: node })),
        await statusOf(trpc().engine.runs.cancel({ runId: engineRunId, reason: "through the back door" })),
      ];
      for (const answer of viaTrpc) expect(answer).toMatchObject({ status: 409, message: expect.stringContaining(door) });
      // Reads stay open, and nothing changed.
      const after = (await env.api.get<StitchRun>(`/api/stitch/runs/${engineRunId}`)).body;
      expect(after.status).toBe(before.status);
      expect(after.node_states[node]).toEqual(before.node_states[node]);
      expect(after.forks).toEqual([]);
      expect((await env.api.get(`/api/stitch/runs/${engineRunId}/events`)).status).toBe(200);
    }
  });

  it("each owned run says who owns it; the owner's own doors still decide", async () => {
    expect((await env.api.get<StitchRun>(`/api/stitch/runs/${pipelineRun.engineRunId}`)).body.owner).toEqual({ front_door: "pipeline", run_id: pipelineRun.id });
    expect((await env.api.get<StitchRun>(`/api/stitch/runs/${yamlRunId}`)).body.owner).toEqual({ front_door: "yaml", run_id: yamlRunId });
    expect((await trpc().engine.runs.get({ id: stepRunId })).owner).toEqual({ front_door: "steps", run_id: stepRunId });
    // The YAML approval with on_reject and max_attempts 1: its own door cancels the run at the first rejection.
    const rejected = await env.api.post(`/api/workflows/runs/${yamlRunId}/nodes/gate/reject`, { reason: "not yet" });
    expect(rejected).toMatchObject({ status: 200, body: { status: "cancelled" } });
    expect((await env.api.post(`/api/workflows/runs/${stepRunId}/cancel`, { reason: "done testing" })).body.status).toBe("cancelled");
  });

  it("a plain flow's run is the generic doors' to change", async () => {
    const flow = await env.api.createFlow(graphOf([workerNode("W", "https://worker.example.test/hook"), reviewGate("R"), uxNode("U")], chain("W", "R", "U")));
    const run = await env.api.startRun(flow.id);
    expect(run.owner).toBeNull();
    expect((await env.api.post(`/api/stitch/callback/${run.id}/W`, { status: "completed", output: "draft" })).status).toBe(200);
    expect(await statusOf(trpc().engine.runs.reviewNode({ runId: run.id, nodeId: "R", decision: "approve" }))).toBe(200);
    expect((await env.api.post(`/api/stitch/complete/${run.id}/U`, { ok: true })).status).toBe(200);
    expect((await env.api.get<StitchRun>(`/api/stitch/runs/${run.id}`)).body.status).toBe("completed");
  });

  it("every accepted creation names what it created in the audit trail, through either door", async () => {
    const latest = async (action: string) => (await env.api.get(`/api/audit?action=${action}&outcome=accepted&limit=1`)).body.entries[0];
    expect(await latest("pipeline.createRun")).toMatchObject({ target_kind: "run", target_id: pipelineRun.id });
    const viaTrpc = await trpc().pipeline.createRun({ domain: "tools", brief: "A tool library where neighbours lend drills, ladders and saws to each other." });
    expect(await latest("pipeline.createRun")).toMatchObject({ target_kind: "run", target_id: viaTrpc.run_id });

    const flow = await trpc().engine.flows.create({ name: "audited", graph: graphOf([uxNode("U")]) });
    expect(await latest("engine.flows.create")).toMatchObject({ target_kind: "flow", target_id: flow.id });
    const restFlow = await env.api.createFlow(graphOf([uxNode("U")]), "audited over REST");
    expect(await latest("engine.flows.create")).toMatchObject({ target_kind: "flow", target_id: restFlow.id });
    const run = await env.api.startRun(flow.id);
    expect(await latest("engine.runs.start")).toMatchObject({ target_kind: "run", target_id: run.id });
    const trpcRun = await trpc().engine.runs.start({ flowId: flow.id });
    expect(await latest("engine.runs.start")).toMatchObject({ target_kind: "run", target_id: trpcRun.id });

    expect(await latest("workflows.register")).toMatchObject({ target_kind: "workflow", target_id: "owned-steps" });
    const yamlRun = await trpc().workflows.start({ name: "owned-gate", message: "audited" });
    expect(await latest("workflows.start")).toMatchObject({ target_kind: "run", target_id: yamlRun.id });
    const stepRun = (await env.api.post("/api/workflows/execute", { workflow: "owned-steps", inputs: {} })).body;
    expect(await latest("steps.execute")).toMatchObject({ target_kind: "run", target_id: stepRun.id });
    // Its step waits a minute: stopped here, so the server's close does not wait for it.
    expect((await env.api.post(`/api/workflows/runs/${stepRun.id}/cancel`, {})).body.status).toBe("cancelled");
  });
});
