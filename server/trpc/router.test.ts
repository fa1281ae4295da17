/**
 * The tRPC routers (flows, runs) through `createCaller`, on every test database: the same engine decisions as the
 * REST routes, with engine refusals as typed TRPCErrors (NOT_FOUND, CONFLICT, BAD_REQUEST) keeping their message.
 * The dispatcher is not started: what a mutation dispatches is read from the outbox.
 */
import { TRPCError } from "@trpc/server";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rows } from "../../db/client";
import { type Services, createServices } from "../app";
import { loadConfig } from "../config";
import { testDatabases } from "../testing/databases";
import { chain, graphOf, reviewGate, splitterNode, uxNode, workerNode } from "../testing/flows";
import { callerContext, personAs } from "../testing/callerContext";
import { createCaller } from "./router";

const hook = "https://worker.example.test/hook";

describe.each(testDatabases)("tRPC routers on $name", (testDatabase) => {
  let opened: Awaited<ReturnType<typeof testDatabase.open>>;
  let services: Services;
  const caller = (actor = "test operator") => createCaller(callerContext(services, personAs(actor)));

  beforeAll(async () => {
    opened = await testDatabase.open();
    services = await createServices(loadConfig({ NEXT_PUBLIC_BASE_URL: "https://stitch.example.test" }), opened.database);
  });
  afterAll(async () => {
    await opened?.drop();
  });

  const outbox = (runId: string) =>
    services.database.run((db) => rows<{ node_id: string; payload: Record<string, unknown> }>(db, sql`
      SELECT node_id, payload FROM stitch_dispatches WHERE run_id = ${runId} ORDER BY created_at, node_id`));
  const refusal = async (promise: Promise<unknown>) => {
    const error = await promise.then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCError);
    return error as TRPCError;
  };

  describe("flows", () => {
    it("creates, reads and lists flows", async () => {
      const graph = graphOf([workerNode("A", hook), uxNode("B")], chain("A", "B"));
      const flow = await caller().engine.flows.create({ name: "trpc flow", graph });
      expect(flow).toMatchObject({ name: "trpc flow", graph });
      expect(await caller().engine.flows.get({ id: flow.id })).toEqual(flow);
      expect((await caller().engine.flows.list()).map((f) => f.id)).toContain(flow.id);
    });

    it("refuses an invalid graph as BAD_REQUEST with the graph's problem, a bad input naming the field, an unknown id as NOT_FOUND", async () => {
      const invalid = await refusal(caller().engine.flows.create({ name: "bad", graph: graphOf([uxNode("A"), uxNode("A")]) }));
      expect(invalid).toMatchObject({ code: "BAD_REQUEST", message: 'graph: two nodes share the id "A"' });
      const badInput = await refusal(caller().engine.flows.create({ name: " ", graph: graphOf([uxNode("A")]) }));
      expect(badInput.code).toBe("BAD_REQUEST");
      expect(badInput.message).toMatch(/name must not be empty/);
      const missing = await refusal(caller().engine.flows.get({ id: "00000000-0000-4000-8000-000000000000" }));
      expect(missing).toMatchObject({ code: "NOT_FOUND", message: 'no flow with id "00000000-0000-4000-8000-000000000000"' });
    });
  });

  describe("runs", () => {
    it("start, get, list and events follow the run (Requirement 2.6: all pending but the fired entry)", async () => {
      const flow = await caller().engine.flows.create({ name: "runs", graph: graphOf([workerNode("A", hook), uxNode("B")], chain("A", "B")) });
      const run = await caller().engine.runs.start({ flowId: flow.id, input: { q: 1 } });
      expect(run.node_states).toEqual({ A: { status: "running", output: null }, B: { status: "pending", output: null } });
      expect(await caller().engine.runs.get({ id: run.id })).toEqual(run);
      expect((await caller().engine.runs.list({ flowId: flow.id })).map((r) => r.id)).toEqual([run.id]);
      expect((await caller().engine.runs.events({ id: run.id })).map((e) => e.type)).toEqual(["start"]);
      expect((await outbox(run.id)).map((d) => d.node_id)).toEqual(["A"]);
      expect(await refusal(caller().engine.runs.start({ flowId: "00000000-0000-4000-8000-000000000000" }))).toMatchObject({ code: "NOT_FOUND" });
      expect(await refusal(caller().engine.runs.get({ id: "nope" }))).toMatchObject({ code: "NOT_FOUND" });
    });

    it("completeNode completes a waiting UX node with the caller's input, records the actor, takes the same input again as a duplicate and refuses a different one", async () => {
      const flow = await caller().engine.flows.create({ name: "ux", graph: graphOf([uxNode("U"), workerNode("W", hook)], chain("U", "W")) });
      const run = await caller().engine.runs.start({ flowId: flow.id });
      const done = await caller("grace").engine.runs.completeNode({ runId: run.id, nodeId: "U", output: { answer: 42 } });
      expect(done).toMatchObject({ duplicate: false, node: { status: "completed", output: { answer: 42 } }, runStatus: "running" });
      expect((await outbox(run.id)).find((d) => d.node_id === "W")!.payload.input).toEqual({ answer: 42 });
      expect((await caller().engine.runs.events({ id: run.id })).at(-1)).toMatchObject({ type: "complete", node_id: "U", actor: "grace" });
      expect(await caller().engine.runs.completeNode({ runId: run.id, nodeId: "U", output: { answer: 42 } })).toMatchObject({ duplicate: true });
      expect(await refusal(caller().engine.runs.completeNode({ runId: run.id, nodeId: "U", output: "again" }))).toMatchObject({ code: "CONFLICT" });
      const wrongNode = await refusal(caller().engine.runs.completeNode({ runId: run.id, nodeId: "W", output: 1 }));
      expect(wrongNode).toMatchObject({ code: "CONFLICT", message: expect.stringMatching(/only UX nodes/) });
      expect(await refusal(caller().engine.runs.completeNode({ runId: run.id, nodeId: "Nope", output: 1 }))).toMatchObject({ code: "NOT_FOUND" });
    });

    it("retryNode refuses a node that is not failed (BAD_REQUEST) and fires a failed one again", async () => {
      const graph = graphOf([splitterNode("S"), workerNode("W", hook), uxNode("Note")], chain("S", "W"));
      const flow = await caller().engine.flows.create({ name: "retry", graph });
      const run = await caller().engine.runs.start({ flowId: flow.id, input: { items: "oops" } });
      expect(run.node_states.S).toMatchObject({ status: "failed", error: expect.stringMatching(/expected an array at "items"/) });
      const notFailed = await refusal(caller().engine.runs.retryNode({ runId: run.id, nodeId: "Note" }));
      expect(notFailed).toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/only failed nodes can be retried/) });
      // The input is the run's and has not changed, so the Splitter fails again: the retry itself was applied.
      expect(await caller().engine.runs.retryNode({ runId: run.id, nodeId: "S" })).toMatchObject({ duplicate: false, node: { status: "failed" } });
      expect((await caller().engine.runs.events({ id: run.id })).map((e) => e.type)).toEqual(["start", "retry"]);
    });

    it("reviewNode rejects with feedback (the worker is dispatched again with it) and approves; decisions are recorded as the caller, whatever the input's actor says", async () => {
      const flow = await caller().engine.flows.create({ name: "review", graph: graphOf([workerNode("W", hook), reviewGate("G")], chain("W", "G")) });
      const run = await caller().engine.runs.start({ flowId: flow.id, input: "brief" });
      expect(await refusal(caller().engine.runs.reviewNode({ runId: run.id, nodeId: "G", decision: "approve" }))).toMatchObject({ code: "CONFLICT" });
      await services.engine.handle(run.id, { type: "callback", key: "W", status: "completed", output: "v1" });
      await caller("ctx-actor").engine.runs.reviewNode({ runId: run.id, nodeId: "G", decision: "reject", feedback: "tighter", actor: "named-reviewer" });
      const [redispatch] = (await outbox(run.id)).filter((d) => d.node_id === "W").slice(-1);
      expect(redispatch!.payload).toMatchObject({ attempt: 2, feedback: { text: "tighter", previousOutput: "v1", round: 1 } });
      await services.engine.handle(run.id, { type: "callback", key: "W", status: "completed", output: "v2" });
      const approved = await caller("ctx-actor").engine.runs.reviewNode({ runId: run.id, nodeId: "G", decision: "approve" });
      expect(approved).toMatchObject({ node: { status: "completed", output: "v2" }, runStatus: "completed" });
      const reviews = (await caller().engine.runs.events({ id: run.id })).filter((e) => e.type === "review");
      expect(reviews.map((e) => e.actor)).toEqual(["ctx-actor", "ctx-actor"]);
      const noFeedback = await refusal(caller().engine.runs.reviewNode({ runId: run.id, nodeId: "G", decision: "reject", feedback: "" }));
      expect(noFeedback.code).toBe("BAD_REQUEST");
      expect(noFeedback.message).toMatch(/feedback must not be empty/);
    });
  });
});
