/**
 * Every conversation has one change marker, as the pipeline's has (runChanges.test.ts): `workflows.changes` for a YAML
 * or step workflow run, `engine.runs.changes` for a plain flow's run. Each moves with everything its conversation
 * shows (a node's turn, the run's status, a decision's claim and release, a comment, a decision taken) and with
 * nothing else; `active` turns false once the run is over. A run another front door owns is refused, as its
 * conversation is.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerContext, personAs } from "../testing/callerContext";
import { testDatabases } from "../testing/databases";
import { chain, graphOf, reviewGate, workerNode } from "../testing/flows";
import { holdWorker } from "../testing/stitchClient";
import { type ServerOnTestDatabase, serverOn } from "../testing/suite";
import { type WorkerServer, eventually, postJson, startWorkerServer } from "../testing/workerServer";
import { gateFirstWorkflow, pausingStepWorkflow } from "../testing/waitingWorkflows";
import { createCaller } from "../trpc/router";
import type { RunChanges } from "../engine/runChanges";

const GATE = gateFirstWorkflow("changes-gate");
const SLOW_STEPS = pausingStepWorkflow("changes-steps");
const QUICK_STEPS = { id: "changes-quick", steps: [{ id: "say", tool: "utils.echo", params: { text: "hello" } }] };

describe.each(testDatabases)("every conversation's change marker on $name", (testDatabase) => {
  let env: ServerOnTestDatabase;
  let worker: WorkerServer;
  const trpc = () => createCaller(callerContext(env.server, personAs("Olga Operator")));

  /** Reads the marker with `read` and checks, after each step, that it moved (or, for `same`, that it did not). */
  async function watch(read: () => Promise<RunChanges>) {
    let last = await read();
    return {
      get last() {
        return last;
      },
      async moved(what: string) {
        const now = await read();
        expect(now.marker, `the marker moves when ${what}`).not.toBe(last.marker);
        last = now;
        return now;
      },
      async same() {
        expect((await read()).marker, "nothing happened: the same marker").toBe(last.marker);
      },
    };
  }
  const openDecision = async (runId: string) =>
    eventually(async () => (await trpc().decisions.list({ view: "all", state: "open", run_id: runId })).items[0], 20_000, `an open decision of ${runId}`);

  beforeAll(async () => {
    worker = await startWorkerServer(holdWorker);
    env = await serverOn(testDatabase);
    expect((await env.api.post("/api/workflows", GATE, { "content-type": "application/yaml" })).status).toBe(201);
    expect((await env.api.post("/api/workflows", SLOW_STEPS)).status).toBe(201);
    expect((await env.api.post("/api/workflows", QUICK_STEPS)).status).toBe(201);
  });
  afterAll(async () => {
    await env?.close();
    await worker?.close();
  });

  it("a YAML workflow run's: moves with its decision's claim, release, comments and approval, then says the run is over", async () => {
    const runId = (await trpc().workflows.start({ name: "changes-gate", message: "go" })).id;
    await eventually(async () => ((await trpc().workflows.run({ runId })) as { nodes: Record<string, { status: string }> }).nodes.gate!.status === "waiting_for_user" || undefined);
    const decision = await openDecision(runId);
    const marker = await watch(() => trpc().workflows.changes({ runId }));
    // The approval waits for people only.
    expect(marker.last).toMatchObject({ run_id: runId, active: true, busy: false });
    await marker.same();

    await trpc().decisions.claim({ decisionId: decision.id });
    await marker.moved("the approval is claimed");
    await trpc().decisions.release({ decisionId: decision.id });
    await marker.moved("it is released");
    await marker.same();
    const comment = await trpc().review.comment({ decisionId: decision.id, body: { anchor: "", text: "Say who approves." } });
    await marker.moved("a comment is written");
    await trpc().review.resolve({ commentId: comment.id });
    await marker.moved("it is resolved");

    await trpc().workflows.approve({ runId, nodeId: "gate" });
    await eventually(async () => ((await trpc().workflows.run({ runId })).status === "completed" ? true : undefined));
    const over = await marker.moved("the gate is approved and the run completes");
    expect(over.active).toBe(false);
    await marker.same();
  });

  it("a step workflow run's: moves when it is cancelled, and says so; a run that ends by itself says so too", async () => {
    const slow = await trpc().steps.start({ name: "changes-steps", inputs: {} });
    // Read once its step runs (it then waits a minute): read before, the marker may predate the step's start.
    await eventually(async () => ((await trpc().steps.run({ runId: slow.id })).steps[0]?.input ? true : undefined));
    const marker = await watch(() => trpc().workflows.changes({ runId: slow.id }));
    // Its step runs: machines at work.
    expect(marker.last).toMatchObject({ run_id: slow.id, active: true, busy: true });
    await marker.same();
    await trpc().workflows.cancel({ runId: slow.id, reason: "enough" });
    expect(await marker.moved("it is cancelled")).toMatchObject({ active: false, busy: false });

    const quick = await trpc().steps.start({ name: "changes-quick", inputs: {} });
    await eventually(async () => ((await trpc().steps.run({ runId: quick.id })).status === "completed" ? true : undefined));
    expect(await trpc().workflows.changes({ runId: quick.id })).toMatchObject({ run_id: quick.id, active: false });
  });

  it("a plain flow run's: moves with a worker's output, its review's claim, a comment and the approval, then says the run is over", async () => {
    const flow = await env.api.createFlow(graphOf([workerNode("draft", `${worker.url}/draft`), reviewGate("check")], chain("draft", "check")), "changes-flow");
    const run = await env.api.startRun(flow.id, { topic: "ladders" });
    const call = await eventually(async () => worker.received.find((d) => d.payload.runId === run.id)?.payload, 30_000, "the draft's dispatch");
    const marker = await watch(() => trpc().engine.runs.changes({ id: run.id }));
    // The worker has its dispatch and has not answered: machines at work.
    expect(marker.last).toMatchObject({ run_id: run.id, active: true, busy: true });
    await marker.same();

    await postJson(call.callbackUrl, { status: "completed", output: "A draft about ladders." });
    expect(await marker.moved("the worker's output arrives"), "then the review waits for people").toMatchObject({ active: true, busy: false });
    const decision = await openDecision(run.id);
    await trpc().decisions.claim({ decisionId: decision.id });
    await marker.moved("the review is claimed");
    await trpc().review.comment({ decisionId: decision.id, body: { anchor: "", text: "Which ladders?" } });
    await marker.moved("a comment is written");
    await marker.same();
    await trpc().engine.runs.reviewNode({ runId: run.id, nodeId: "check", decision: "approve" });
    const over = await marker.moved("the review is approved and the run completes");
    expect(over.active).toBe(false);
  });

  it("refuses a run it does not tell: none (404), or another front door's (409, as its conversation)", async () => {
    const none = "00000000-0000-4000-8000-000000000000";
    await expect(trpc().workflows.changes({ runId: none })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(trpc().workflows.changes({ runId: "not-a-uuid" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(trpc().engine.runs.changes({ id: none })).rejects.toMatchObject({ code: "NOT_FOUND" });
    const yamlRun = await trpc().workflows.start({ name: "changes-gate", message: "owned" });
    await expect(trpc().engine.runs.changes({ id: yamlRun.id })).rejects.toMatchObject({ code: "CONFLICT" });
    await trpc().workflows.cancel({ runId: yamlRun.id });
  });
});
