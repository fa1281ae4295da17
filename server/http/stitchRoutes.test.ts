/**
 * The REST surface (/api/stitch/...) over real HTTP, on every test database, with a real worker server.
 * Workers are routes of one worker server: `/echo` answers 200 and calls back with {echoed: input},
 * `/hold` answers 200 and leaves the callback to the test.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rows } from "../../db/client";
import { testDatabases } from "../testing/databases";
import { chain, collectorNode, graphOf, reviewGate, splitterNode, uxNode, workerNode } from "../testing/flows";
import { type StitchClient, dispatchesOf, holdWorker, routeByPath } from "../testing/stitchClient";
import { nodeStatesFromView } from "../testing/nodeStatesView";
import { createPerson } from "../testing/people";
import { type ServerOnTestDatabase, serverOn } from "../testing/suite";
import { type WorkerServer, echoWorker, eventually, postJson, startWorkerServer } from "../testing/workerServer";
import type { StitchRun, WorkerPayload } from "../engine/schemas";

describe.each(testDatabases)("REST routes on $name", (testDatabase) => {
  let env: ServerOnTestDatabase;
  let worker: WorkerServer;
  let api: StitchClient;
  let echo: string;
  let hold: string;

  beforeAll(async () => {
    worker = await startWorkerServer(
      routeByPath({
        echo: echoWorker(),
        hold: holdWorker,
        items: echoWorker((p) => ({ items: (p.input as { items: unknown[] }).items })),
        upper: echoWorker((p) => String(p.input).toUpperCase()),
        // Fails its first two attempts, then succeeds: what a transiently failing service looks like.
        "third-time": (dispatch, res) => {
          res.writeHead(200).end("{}");
          const { attempt, callbackUrl } = dispatch.payload;
          const body = attempt < 3 ? { status: "failed", error: `busy (attempt ${attempt})`, attempt } : { status: "completed", output: { attempt }, attempt };
          void postJson(callbackUrl, body).catch(() => undefined);
        },
      }),
    );
    env = await serverOn(testDatabase);
    api = env.api;
    echo = `${worker.url}/echo`;
    hold = `${worker.url}/hold`;
  });
  afterAll(async () => {
    await env?.close();
    await worker?.close();
  });

  const dispatched = (runId: string, nodeId: string, count = 1): Promise<WorkerPayload[]> =>
    eventually(async () => {
      const found = dispatchesOf(worker.received, runId, nodeId);
      return found.length >= count ? found : undefined;
    }, 30_000, `${count} dispatch(es) of ${nodeId}`);

  describe("Requirement 2: runs", () => {
    it("2.3/2.4/2.6 a new run's node_states maps every node to {status, output}, all pending but the fired entry", async () => {
      const run = await api.run(graphOf([workerNode("A", hold), uxNode("B"), workerNode("C", hold)], chain("A", "B", "C")), { x: 1 });
      expect(run.node_states).toEqual({
        A: { status: "running", output: null },
        B: { status: "pending", output: null },
        C: { status: "pending", output: null },
      });
      expect(run).toMatchObject({ status: "running", input: { x: 1 } });
      expect(await nodeStatesFromView(env.database, run.id)).toEqual(run.node_states);
    });
  });

  describe("Requirement 4: outbound payload", () => {
    it("4.1 POSTs JSON to the node's webhook URL", async () => {
      const run = await api.run(graphOf([workerNode("A", `${hold}/some/path?token=t`, { prompt: "p" })]), { q: "?" });
      await dispatched(run.id, "A");
      const delivery = worker.received.find((d) => d.payload.runId === run.id)!;
      expect(delivery.method).toBe("POST");
      expect(delivery.path).toBe("/hold/some/path?token=t");
      expect(delivery.headers["content-type"]).toBe("application/json");
    });

    it("4.2/4.3 the payload has runId, nodeId, config, input and callbackUrl = base URL + /api/stitch/callback/:runId/:nodeId", async () => {
      const run = await api.run(graphOf([workerNode("A", hold, { prompt: "write", temperature: 0.2 })]), { topic: "tides" });
      const [payload] = await dispatched(run.id, "A");
      expect(payload).toEqual({
        runId: run.id,
        nodeId: "A",
        config: { prompt: "write", temperature: 0.2 },
        input: { topic: "tides" },
        callbackUrl: `${env.server.url}/api/stitch/callback/${run.id}/A`,
        attempt: 1,
      });
    });
  });

  describe("Requirement 5: callback endpoint", () => {
    const twoWorkers = () => graphOf([workerNode("A", hold), workerNode("B", hold)], chain("A", "B"));

    it("5.1/5.3/5.8 a completed callback answers 200 and stores the output", async () => {
      const run = await api.run(twoWorkers());
      const answer = await api.callback(run.id, "A", { status: "completed", output: { text: "done" } });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ runId: run.id, nodeId: "A", duplicate: false, node: { status: "completed", output: { text: "done" } }, runStatus: "running" });
      expect((await api.getRun(run.id)).node_states.A).toEqual({ status: "completed", output: { text: "done" } });
    });

    it("5.2/5.4 a failed callback stores the error and fails the run", async () => {
      const run = await api.run(twoWorkers());
      const answer = await api.callback(run.id, "A", { status: "failed", error: "model overloaded" });
      expect(answer.status).toBe(200);
      const after = await api.getRun(run.id);
      expect(after.node_states.A).toEqual({ status: "failed", output: null, error: "model overloaded" });
      expect(after.status).toBe("failed");
      expect(after.node_states.B!.status).toBe("pending");
    });

    it("5.5 a completion fires the downstream node with the output as input", async () => {
      const run = await api.run(twoWorkers());
      await api.callback(run.id, "A", { status: "completed", output: ["x"] });
      const [toB] = await dispatched(run.id, "B");
      expect(toB!.input).toEqual(["x"]);
      expect((await api.getRun(run.id)).node_states.B!.status).toBe("running");
    });

    it("5.6/5.7 answers 404 for an unknown run or node, and changes nothing", async () => {
      const run = await api.run(twoWorkers());
      const before = await api.getRun(run.id);
      for (const [runId, nodeId] of [["00000000-0000-4000-8000-000000000000", "A"], ["not-a-uuid", "A"], [run.id, "Z"], [run.id, "A_0"]] as const) {
        const answer = await api.callback(runId, nodeId, { status: "completed", output: 1 });
        expect(answer.status, `${runId}/${nodeId}`).toBe(404);
        expect(answer.body).toMatchObject({ error: "not_found", message: expect.any(String) });
      }
      expect(await api.getRun(run.id)).toEqual(before);
    });

    it("a repeated callback answers 200 with duplicate: true and changes nothing; downstream fired once", async () => {
      const run = await api.run(twoWorkers());
      await api.callback(run.id, "A", { status: "completed", output: "first" });
      await dispatched(run.id, "B");
      const before = await api.getRun(run.id);
      const events = await api.get(`/api/stitch/runs/${run.id}/events`);
      const again = await api.callback(run.id, "A", { status: "completed", output: "second" });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ duplicate: true, node: { status: "completed", output: "first" } });
      expect(await api.getRun(run.id)).toEqual(before);
      expect(await api.get(`/api/stitch/runs/${run.id}/events`)).toEqual(events);
      await api.callback(run.id, "B", { status: "completed", output: "b" });
      expect((await api.getRun(run.id)).status).toBe("completed");
      expect(dispatchesOf(worker.received, run.id, "B")).toHaveLength(1);
    });
  });

  describe("Requirements 6 and 7: Splitter and Collector end to end", () => {
    it("6.1-6.5/7.1-7.5 fires one path per element, tracks W_<i>, and collects the outputs in order", async () => {
      const graph = graphOf(
        [workerNode("List", `${worker.url}/items`), splitterNode("S"), workerNode("W", `${worker.url}/upper`), collectorNode("C"), workerNode("Last", hold)],
        chain("List", "S", "W", "C", "Last"),
      );
      const run = await api.run(graph, { items: ["a", "b", "c"] });
      const [last] = await dispatched(run.id, "Last");
      expect(last!.input).toEqual(["A", "B", "C"]);
      const states = (await api.getRun(run.id)).node_states;
      expect(states).toMatchObject({
        S: { status: "completed", output: ["a", "b", "c"] },
        W: { status: "split" },
        W_0: { status: "completed", output: "A" },
        W_1: { status: "completed", output: "B" },
        W_2: { status: "completed", output: "C" },
        C: { status: "completed", output: ["A", "B", "C"] },
        Last: { status: "running" },
      });
      expect(dispatchesOf(worker.received, run.id).map((p) => p.nodeId).sort()).toEqual(["Last", "List", "W_0", "W_1", "W_2"]);
      expect(await nodeStatesFromView(env.database, run.id)).toEqual(states);
    });

    it("nested splitters with two nodes per inner path and an empty inner array, keyed nodeId_<outer>_<inner>", async () => {
      const graph = graphOf(
        [splitterNode("Groups", "groups"), splitterNode("Members", ""), workerNode("Up", `${worker.url}/upper`), workerNode("Wrap", echo),
          collectorNode("PerGroup"), collectorNode("All"), workerNode("Last", hold)],
        chain("Groups", "Members", "Up", "Wrap", "PerGroup", "All", "Last"),
      );
      const run = await api.run(graph, { groups: [["a", "b"], [], ["c"]] });
      const [last] = await dispatched(run.id, "Last");
      expect(last!.input).toEqual([[{ echoed: "A" }, { echoed: "B" }], [], [{ echoed: "C" }]]);
      const states = (await api.getRun(run.id)).node_states;
      expect(Object.keys(states).filter((k) => k.startsWith("Wrap_")).sort()).toEqual(["Wrap_0_0", "Wrap_0_1", "Wrap_2_0"]);
      expect(states).toMatchObject({ Members: { status: "split" }, Members_1: { status: "completed", output: [] }, PerGroup_1: { status: "completed", output: [] } });
      expect(dispatchesOf(worker.received, run.id).map((p) => p.nodeId).sort()).toEqual(["Last", "Up_0_0", "Up_0_1", "Up_2_0", "Wrap_0_0", "Wrap_0_1", "Wrap_2_0"]);
    });

    it("6.6 an empty array completes the Splitter and gives the Collector []", async () => {
      const graph = graphOf([splitterNode("S"), workerNode("W", echo), collectorNode("C"), workerNode("Last", hold)], chain("S", "W", "C", "Last"));
      const run = await api.run(graph, { items: [] });
      expect(run.node_states).toMatchObject({ S: { status: "completed", output: [] }, W: { status: "skipped" }, C: { status: "completed", output: [] } });
      expect((await dispatched(run.id, "Last"))[0]!.input).toEqual([]);
    });

    it("7.6 a failed path fails the Collector; retrying it lets the Collector complete", async () => {
      const graph = graphOf([splitterNode("S"), workerNode("W", hold), collectorNode("C"), workerNode("Last", hold)], chain("S", "W", "C", "Last"));
      const run = await api.run(graph, { items: [1, 2] });
      await dispatched(run.id, "W_1");
      await api.callback(run.id, "W_0", { status: "failed", error: "no" });
      await api.callback(run.id, "W_1", { status: "completed", output: 2 });
      let states = (await api.getRun(run.id)).node_states;
      expect(states.C).toMatchObject({ status: "failed", error: 'path "W_0" failed' });
      expect(states.Last!.status).toBe("pending");
      expect((await api.retry(run.id, "W_0")).status).toBe(200);
      await dispatched(run.id, "W_0", 2);
      await api.callback(run.id, "W_0", { status: "completed", output: 1 });
      states = (await api.getRun(run.id)).node_states;
      expect(states.C).toEqual({ status: "completed", output: [1, 2] });
      expect((await dispatched(run.id, "Last"))[0]!.input).toEqual([1, 2]);
    });
  });

  describe("Requirement 8: UX nodes and /complete", () => {
    const gated = () => graphOf([workerNode("A", echo), uxNode("U"), workerNode("B", hold)], chain("A", "U", "B"));

    it("8.1/8.2 a UX node waits for the user and nothing downstream fires", async () => {
      const run = await api.run(gated(), "in");
      const waiting = await api.waitForStatus(run.id, "U", "waiting_for_user");
      expect(waiting.status).toBe("waiting_for_user");
      expect(waiting.node_states.B!.status).toBe("pending");
      expect(dispatchesOf(worker.received, run.id, "B")).toEqual([]);
    });

    it("8.3/8.4/8.5 POST /complete stores the person's input as output and fires downstream", async () => {
      const run = await api.run(gated(), "in");
      await api.waitForStatus(run.id, "U", "waiting_for_user");
      const ada = await createPerson(env.server.people, "ada", "reviewer");
      // x-actor names no one any more: the decision is recorded as the account whose token made it.
      const answer = await api.as(ada.token).complete(run.id, "U", { choice: "yes" }, { "x-actor": "someone else" });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ duplicate: false, node: { status: "completed", output: { choice: "yes" } } });
      expect((await dispatched(run.id, "B"))[0]!.input).toEqual({ choice: "yes" });
      const events = (await api.get(`/api/stitch/runs/${run.id}/events`)).body as { type: string; actor: string | null }[];
      expect(events.find((e) => e.type === "complete")).toMatchObject({ actor: "ada" });
      // The same body again is a repeat (200 duplicate); a different one is refused (409), never silently dropped.
      expect(await api.complete(run.id, "U", { choice: "yes" })).toMatchObject({ status: 200, body: { duplicate: true } });
      const different = await api.complete(run.id, "U", { choice: "no" });
      expect(different).toMatchObject({ status: 409, body: { error: "conflict", message: expect.stringMatching(/already completed with another input/) } });
      expect((await api.getRun(run.id)).node_states.U!.output).toEqual({ choice: "yes" });
    });

    it("409 for completing a node that is not waiting (or not a UX node)", async () => {
      const run = await api.run(graphOf([workerNode("A", hold), uxNode("U")], chain("A", "U")));
      expect(await api.complete(run.id, "U", {})).toMatchObject({ status: 409, body: { error: "conflict", message: expect.stringMatching(/pending, not waiting_for_user/) } });
      expect(await api.complete(run.id, "A", {})).toMatchObject({ status: 409, body: { message: expect.stringMatching(/only UX nodes/) } });
    });
  });

  describe("node ids in URLs", () => {
    it("a node id with a space, slash, ? or # gets a callback URL that reaches that node", async () => {
      const ids = ["step 1/draft", "why?", "#2", "50% done"];
      const graph = graphOf(ids.map((id) => workerNode(id, echo)), [[ids[0]!, ids[1]!], [ids[1]!, ids[2]!], [ids[2]!, ids[3]!]]);
      const run = await api.run(graph, "x");
      const done = await api.waitForRun(run.id, (r) => r.status === "completed", "run of oddly named nodes completed");
      expect(Object.keys(done.node_states).sort()).toEqual([...ids].sort());
      const [first] = await dispatched(run.id, "step 1/draft");
      expect(first!.callbackUrl).toBe(`${env.server.url}/api/stitch/callback/${run.id}/step%201%2Fdraft`);
    });
  });

  describe("Requirement 9: edge-walking end to end", () => {
    it("9.1-9.7 fans out, joins once both branches completed with the merged input, and stops at the terminal node", async () => {
      const graph = graphOf(
        [workerNode("A", echo), workerNode("B", echo), workerNode("C", echo), workerNode("J", hold)],
        chain("A", "B", "J"), chain("A", "C", "J"),
      );
      const run = await api.run(graph, { seed: 1 });
      const [join] = await dispatched(run.id, "J");
      expect(join!.input).toEqual({ echoed: { echoed: { seed: 1 } } });
      expect(dispatchesOf(worker.received, run.id).map((p) => p.nodeId).sort()).toEqual(["A", "B", "C", "J"]);
      await api.callback(run.id, "J", { status: "completed", output: "end" });
      const done = await api.getRun(run.id);
      expect(done.status).toBe("completed");
      expect(Object.values(done.node_states).every((s) => s.status === "completed")).toBe(true);
    });
  });

  describe("Requirement 10: /retry", () => {
    it("10.1-10.4 resets a failed node, fires it again and the run goes on", async () => {
      const run = await api.run(graphOf([workerNode("A", hold), workerNode("B", hold)], chain("A", "B")), "in");
      await api.callback(run.id, "A", { status: "completed", output: "a" });
      await dispatched(run.id, "B");
      await api.callback(run.id, "B", { status: "failed", error: "flaky" });
      const answer = await api.retry(run.id, "B");
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ duplicate: false, node: { status: "running" }, runStatus: "running" });
      const [, second] = await dispatched(run.id, "B", 2);
      expect(second).toMatchObject({ input: "a", attempt: 2 });
      await api.callback(run.id, "B", { status: "completed", output: "b" });
      expect((await api.getRun(run.id)).status).toBe("completed");
    });

    it("10.5 answers 400 for a node that is not failed, 404 for an unknown one", async () => {
      const run = await api.run(graphOf([workerNode("A", hold), workerNode("B", hold)], chain("A", "B")));
      expect(await api.retry(run.id, "A")).toMatchObject({ status: 400, body: { error: "bad_request", message: expect.stringMatching(/"A" is running; only failed nodes/) } });
      expect(await api.retry(run.id, "B")).toMatchObject({ status: 400 });
      expect((await api.retry(run.id, "Nope")).status).toBe(404);
      expect((await api.retry("00000000-0000-4000-8000-000000000000", "A")).status).toBe(404);
    });
  });

  describe("review gates: POST /review/:runId/:nodeId", () => {
    const reviewed = () => graphOf([workerNode("Writer", hold), reviewGate("Review"), workerNode("Publish", hold)], chain("Writer", "Review", "Publish"));

    it("reject fires the worker again with feedback; the gate waits again for the new output; approve goes on", async () => {
      const run = await api.run(reviewed(), { brief: "b" });
      await api.callback(run.id, "Writer", { status: "completed", output: "draft 1" });
      expect((await api.getRun(run.id)).node_states.Review!.status).toBe("waiting_for_user");
      const rev = await createPerson(env.server.people, "rev", "reviewer");
      const rejected = await api.as(rev.token).review(run.id, "Review", { decision: "reject", feedback: "too long", actor: "not rev" });
      expect(rejected.status).toBe(200);
      const [, again] = await dispatched(run.id, "Writer", 2);
      expect(again).toMatchObject({ input: { brief: "b" }, attempt: 2, feedback: { text: "too long", previousOutput: "draft 1", round: 1 } });
      expect((await api.getRun(run.id)).node_states.Review!.status).toBe("pending");
      await api.callback(run.id, "Writer", { status: "completed", output: "draft 2" });
      expect((await api.getRun(run.id)).node_states.Review!.status).toBe("waiting_for_user");
      expect((await api.review(run.id, "Review", { decision: "approve" })).status).toBe(200);
      expect((await dispatched(run.id, "Publish"))[0]!.input).toBe("draft 2");
      expect(await api.review(run.id, "Review", { decision: "approve" })).toMatchObject({ status: 200, body: { duplicate: true } });
      const events = (await api.get(`/api/stitch/runs/${run.id}/events`)).body as { type: string; actor: string | null; payload: unknown }[];
      expect(events.filter((e) => e.type === "review").map((e) => [e.actor, e.payload])).toEqual([
        ["rev", { decision: "reject", feedback: "too long" }],
        ["bootstrap token", { decision: "approve" }],
      ]);
    });

    it("answers 400 naming the field for a bad decision or missing feedback, 409 when nothing waits for review", async () => {
      const run = await api.run(reviewed());
      expect(await api.review(run.id, "Review", { decision: "approve" })).toMatchObject({ status: 409, body: { message: expect.stringMatching(/no output waiting for review/) } });
      await api.callback(run.id, "Writer", { status: "completed", output: "d" });
      const badDecision = await api.review(run.id, "Review", { decision: "maybe" });
      expect(badDecision).toMatchObject({ status: 400, body: { error: "invalid_body", message: expect.stringContaining("decision") } });
      const noFeedback = await api.review(run.id, "Review", { decision: "reject" });
      expect(noFeedback).toMatchObject({ status: 400, body: { message: expect.stringContaining("feedback") } });
      const blank = await api.review(run.id, "Review", { decision: "reject", feedback: "   " });
      expect(blank).toMatchObject({ status: 400, body: { message: expect.stringContaining("feedback must not be empty") } });
      expect(await api.review(run.id, "Writer", { decision: "approve" })).toMatchObject({ status: 409, body: { message: expect.stringMatching(/not a review gate/) } });
    });
  });

  describe("flows", () => {
    it("stores a flow and reads it back; refuses an invalid graph with 400 naming the problem", async () => {
      const graph = graphOf([workerNode("A", hold)]);
      const flow = await api.createFlow(graph, "named");
      expect(flow).toMatchObject({ name: "named", graph });
      expect((await api.get(`/api/stitch/flows/${flow.id}`)).body).toEqual(flow);
      const list = (await api.get("/api/stitch/flows")).body as { id: string }[];
      expect(list.map((f) => f.id)).toContain(flow.id);
      const invalid = await api.post("/api/stitch/flows", { name: "bad", graph: graphOf([splitterNode("S")]) });
      expect(invalid).toMatchObject({ status: 400, body: { error: "invalid_graph", message: 'graph: Splitter node "S" has no outgoing edge' } });
      const missingName = await api.post("/api/stitch/flows", { graph });
      expect(missingName).toMatchObject({ status: 400, body: { message: expect.stringContaining("name") } });
      const nodeWithoutType = await api.post("/api/stitch/flows", { name: "n", graph: { nodes: [{ id: "A", position: { x: 0, y: 0 }, data: {} }], edges: [] } });
      expect(nodeWithoutType).toMatchObject({ status: 400, body: { message: expect.stringContaining("graph.nodes.0.type") } });
      expect((await api.get("/api/stitch/flows/00000000-0000-4000-8000-000000000000")).status).toBe(404);
      expect((await api.post("/api/stitch/flows/00000000-0000-4000-8000-000000000000/runs", {})).status).toBe(404);
    });
  });

  describe("bad input changes nothing", () => {
    /** A run in a known state: A completed, splitter paths W_0 running and W_1 failed, U not yet reached. */
    async function runInKnownState(): Promise<StitchRun> {
      const graph = graphOf(
        [workerNode("A", hold), splitterNode("S"), workerNode("W", hold), collectorNode("C"), reviewGate("G"), uxNode("U"), workerNode("P", hold)],
        chain("A", "S", "W", "C", "P"), chain("P", "G"), chain("G", "U"),
      );
      const run = await api.run(graph);
      await api.callback(run.id, "A", { status: "completed", output: { items: ["x", "y"] } });
      await api.callback(run.id, "W_1", { status: "failed", error: "bad" });
      return api.getRun(run.id);
    }

    it("every refused request leaves the run, its events and its outbox as they were", async () => {
      const run = await runInKnownState();
      const id = run.id;
      const eventsBefore = (await api.get(`/api/stitch/runs/${id}/events`)).body;
      const outbox = () => env.database.run((db) => rows(db, sql`SELECT node_id, node_attempt FROM stitch_dispatches WHERE run_id = ${id} ORDER BY node_id`));
      // Let the dispatcher empty the outbox first, so the comparison sees only what the requests could change.
      await eventually(async () => ((await outbox()).length === 0 ? true : undefined), 30_000, "outbox delivered");
      const bad: [string, () => Promise<{ status: number; body: any }>, number, RegExp][] = [
        ["callback: invalid JSON", () => api.post(`/api/stitch/callback/${id}/W_0`, "{not json"), 400, /not valid JSON/],
        ["callback: unknown status", () => api.callback(id, "W_0", { status: "done" }), 400, /status/],
        ["callback: error not a string", () => api.callback(id, "W_0", { status: "failed", error: 42 }), 400, /error/],
        ["callback: attempt not a number", () => api.callback(id, "W_0", { status: "completed", attempt: "one" }), 400, /attempt/],
        ["callback: output with a NUL character", () => api.callback(id, "W_0", { status: "completed", output: { text: "a\u0000b" } }), 400, /output\.text contains the NUL character/],
        ["callback: error with a NUL character", () => api.callback(id, "W_0", { status: "failed", error: "bad\u0000" }), 400, /^error contains the NUL character/],
        ["callback: empty body", () => api.post(`/api/stitch/callback/${id}/W_0`), 400, /status/],
        ["callback: JSON array body", () => api.callback(id, "W_0", [1]), 400, /body/],
        ["callback: unknown run", () => api.callback("00000000-0000-4000-8000-00000000000f", "W_0", { status: "completed" }), 404, /no run/],
        ["callback: unknown node", () => api.callback(id, "Q", { status: "completed" }), 404, /no node "Q"/],
        ["callback: graph-level key of a split node", () => api.callback(id, "W", { status: "completed" }), 409, /address one path/],
        ["callback: completed for a failed path", () => api.callback(id, "W_1", { status: "completed", output: 1 }), 409, /retry the node first/],
        ["callback: for a pending node", () => api.callback(id, "P", { status: "completed" }), 409, /pending/],
        ["callback: for a Splitter", () => api.callback(id, "S", { status: "completed" }), 409, /only Worker nodes/],
        ["complete: node not waiting", () => api.complete(id, "U", { a: 1 }), 409, /not waiting_for_user/],
        ["complete: invalid JSON", () => api.post(`/api/stitch/complete/${id}/U`, "{"), 400, /not valid JSON/],
        ["complete: a Worker", () => api.complete(id, "W_0", {}), 409, /only UX nodes/],
        ["retry: running node", () => api.retry(id, "W_0"), 400, /only failed nodes/],
        ["retry: completed node", () => api.retry(id, "A"), 400, /only failed nodes/],
        ["retry: unknown node", () => api.retry(id, "Nope"), 404, /no node/],
        ["review: gate not waiting", () => api.review(id, "G", { decision: "approve" }), 409, /no output waiting/],
        ["review: bad decision", () => api.review(id, "G", { decision: "ok" }), 400, /decision/],
        ["review: reject without feedback", () => api.review(id, "G", { decision: "reject" }), 400, /feedback/],
        ["review: not a gate", () => api.review(id, "U", { decision: "approve" }), 409, /not a review gate/],
        ["start: input with a NUL character", () => api.post(`/api/stitch/flows/${run.flow_id}/runs`, { input: ["\u0000"] }), 400, /^input\.0 contains the NUL character/],
        ["start: body not an object", () => api.post(`/api/stitch/flows/${run.flow_id}/runs`, "[1]"), 400, /body/],
        ["run: unknown id", () => api.get("/api/stitch/runs/nope"), 404, /no run/],
        ["events: unknown run", () => api.get("/api/stitch/runs/00000000-0000-4000-8000-00000000000f/events"), 404, /no run/],
        ["cancel: unknown run", () => api.post("/api/stitch/runs/00000000-0000-4000-8000-00000000000f/cancel", {}), 404, /no run/],
        ["cancel: reason not a string", () => api.post(`/api/stitch/runs/${id}/cancel`, { reason: 42 }), 400, /reason/],
      ];
      for (const [what, send, status, message] of bad) {
        const answer = await send();
        expect(answer.status, what).toBe(status);
        expect(answer.body.message, what).toMatch(message);
        expect(await api.getRun(id), what).toEqual(run);
        expect((await api.get(`/api/stitch/runs/${id}/events`)).body, what).toEqual(eventsBefore);
        expect(await outbox(), what).toEqual([]);
      }
      expect((await api.get(`/api/stitch/runs?flow_id=${run.flow_id}`)).body).toHaveLength(1);
    });
  });
  describe("automatic retry (Worker data.retry)", () => {
    it("a worker that fails twice is fired again after the backoff and its run completes; the events say what happened", async () => {
      const run = await api.run(graphOf([workerNode("W", `${worker.url}/third-time`, { retry: { maxAttempts: 3, backoffMs: 50 } }), workerNode("Next", echo)], chain("W", "Next")));
      const done = await api.waitForRun(run.id, (r) => r.status === "completed", "the run to complete");
      expect(done.node_states.W).toEqual({ status: "completed", output: { attempt: 3 } });
      expect(dispatchesOf(worker.received, run.id, "W").map((p) => p.attempt)).toEqual([1, 2, 3]);
      const events = (await api.get(`/api/stitch/runs/${run.id}/events`)).body as { type: string; node_id: string | null }[];
      expect(events.filter((e) => e.node_id === "W").map((e) => e.type)).toEqual(["callback", "retry_due", "callback", "retry_due", "callback"]);
    });

    it("a worker that keeps failing fails the node after its attempts, with the last error; a manual retry starts a fresh budget", async () => {
      const run = await api.run(graphOf([workerNode("W", `${worker.url}/third-time`, { retry: { maxAttempts: 2, backoffMs: 20 } })]));
      const failed = await api.waitForStatus(run.id, "W", "failed");
      expect(failed.node_states.W!.error).toBe("busy (attempt 2) (after 2 attempts)");
      expect(failed.status).toBe("failed");
      expect((await api.retry(run.id, "W")).status).toBe(200);
      const done = await api.waitForRun(run.id, (r) => r.status === "completed", "the run to complete after the manual retry");
      expect(done.node_states.W).toEqual({ status: "completed", output: { attempt: 3 } });
    });

    it("a graph with an invalid retry is refused with 400 naming the field", async () => {
      const answer = await api.post("/api/stitch/flows", { name: "bad retry", graph: graphOf([workerNode("W", echo, { retry: { maxAttempts: 0 } })]) });
      expect(answer.status).toBe(400);
      expect(answer.body.message).toMatch(/data\.retry\.maxAttempts/);
    });
  });

  describe("run cancellation", () => {
    const outboxOf = (runId: string) =>
      env.database.run((db) => rows<{ node_id: string; kind: string }>(db, sql`SELECT node_id, kind FROM stitch_dispatches WHERE run_id = ${runId} ORDER BY node_id, kind`));

    it("stops every unfinished node, splitter paths and their timers included, and nothing is sent afterwards", async () => {
      const graph = graphOf(
        [workerNode("In", `${worker.url}/items`), splitterNode("S"), workerNode("W", hold, { timeoutMs: 600_000 }), collectorNode("C"), workerNode("After", echo)],
        chain("In", "S", "W", "C", "After"),
      );
      const run = await api.run(graph, { items: ["a", "b", "c"] });
      await dispatched(run.id, "W_2");
      expect((await api.callback(run.id, "W_0", { status: "completed", output: "A" })).status).toBe(200);
      // The held paths' delivered rows go once their grace for a callback is over (deliveredRows.ts); their timers stay.
      await eventually(async () => ((await outboxOf(run.id)).every((row) => row.kind === "timeout") ? true : undefined), 10_000, "delivered rows deleted");
      expect(await outboxOf(run.id)).toEqual([
        { node_id: "W_1", kind: "timeout" },
        { node_id: "W_2", kind: "timeout" },
      ]);

      const ada = await createPerson(env.server.people, "Ada", "operator");
      const answer = await api.as(ada.token).post(`/api/stitch/runs/${run.id}/cancel`, { reason: "brief withdrawn" });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ runId: run.id, nodeId: null, duplicate: false, runStatus: "cancelled" });
      const after = await api.getRun(run.id);
      expect(after.status).toBe("cancelled");
      expect(after.node_states).toMatchObject({
        In: { status: "completed" },
        S: { status: "completed" },
        W_0: { status: "completed", output: "A" },
        W_1: { status: "cancelled", error: "cancelled: brief withdrawn" },
        W_2: { status: "cancelled", error: "cancelled: brief withdrawn" },
        C: { status: "cancelled" },
        After: { status: "cancelled" },
      });
      expect(await outboxOf(run.id)).toEqual([]);
      expect(await nodeStatesFromView(env.database, run.id)).toEqual(after.node_states);

      const late = await api.callback(run.id, "W_1", { status: "completed", output: "B" });
      expect(late.status).toBe(409);
      expect(late.body.message).toMatch(/cancelled/);
      expect((await api.retry(run.id, "W_1")).status).toBe(400);
      const again = await api.post(`/api/stitch/runs/${run.id}/cancel`, {});
      expect(again).toMatchObject({ status: 200, body: { duplicate: true, message: "the run is already cancelled" } });
      expect(await api.getRun(run.id)).toEqual(after);
      const events = (await api.get(`/api/stitch/runs/${run.id}/events`)).body as { type: string; actor: string | null; payload: unknown }[];
      expect(events.filter((e) => e.type === "cancel")).toEqual([expect.objectContaining({ actor: "Ada", payload: { reason: "brief withdrawn" } })]);
      expect(dispatchesOf(worker.received, run.id, "After")).toEqual([]);
    });

    it("a finished run has nothing to cancel (409), and a run with a failed node can be abandoned", async () => {
      const done = await api.run(graphOf([workerNode("A", echo)]), 1);
      await api.waitForRun(done.id, (r) => r.status === "completed", "completed");
      const refused = await api.post(`/api/stitch/runs/${done.id}/cancel`);
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe("the run has finished; there is nothing to cancel");

      const broken = await api.run(graphOf([workerNode("A", hold), workerNode("B", hold)], chain("A", "B")));
      await dispatched(broken.id, "A");
      await api.callback(broken.id, "A", { status: "failed", error: "worker down" });
      expect((await api.getRun(broken.id)).status).toBe("failed");
      expect((await api.post(`/api/stitch/runs/${broken.id}/cancel`)).status).toBe(200);
      expect(await api.getRun(broken.id)).toMatchObject({
        status: "cancelled",
        node_states: { A: { status: "cancelled", error: "cancelled (it had failed: worker down)" }, B: { status: "cancelled" } },
      });
    });
  });
});
