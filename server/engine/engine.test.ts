/**
 * The engine against real storage (PGlite, and PostgreSQL whenever the run has one), without HTTP or a dispatcher:
 * the schema of Requirements 1 and 2, the single source of truth of Requirement 11 (persisted at once, atomic,
 * nothing kept in memory), the outbox written with the state change, and concurrent events on one run.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type Database, rows } from "../../db/client";
import { stitchFlows } from "../../db/schema";
import { parseOutboundAllow } from "../lib/outboundPolicy";
import { testDatabases } from "../testing/databases";
import { engineOn, engineOnTestDatabase, exampleBaseUrl } from "../testing/engineOnTestDatabase";
import { nodeStatesFromView } from "../testing/nodeStatesView";
import { chain, collectorNode, graphOf, reviewGate, splitterNode, uxNode, workerNode } from "../testing/flows";
import { startWorkerServer } from "../testing/workerServer";
import { Dispatcher } from "./dispatcher";
import { type Engine, EngineError } from "./engine";
import type { StitchRun } from "./schemas";

const hook = "https://worker.example.test/hook";

describe.each(testDatabases)("engine storage on $name", (testDatabase) => {
  let database: Database;
  let engine: Engine;
  engineOnTestDatabase(testDatabase, (storage) => ({ database, engine } = storage));

  const query = <T = Record<string, unknown>>(statement: ReturnType<typeof sql>) => database.run((db) => rows<T>(db, statement));
  const columns = (table: string) =>
    query<{ column_name: string; data_type: string; is_nullable: string }>(sql`
      SELECT column_name, data_type, is_nullable FROM information_schema.columns WHERE table_name = ${table} ORDER BY column_name`);
  const column = async (table: string, name: string) => (await columns(table)).find((c) => c.column_name === name);
  const outbox = (runId: string) =>
    query<{ node_id: string; node_attempt: number; url: string; payload: Record<string, unknown> }>(sql`
      SELECT node_id, node_attempt, url, payload FROM stitch_dispatches WHERE run_id = ${runId} ORDER BY node_id, node_attempt`);
  const start = async (graph: ReturnType<typeof graphOf>, input?: unknown) => engine.startRun((await engine.createFlow("f", graph)).id, input);
  /** The run's status as the seed would derive it from node_states alone. */
  const derivedStatus = (run: StitchRun) => {
    const statuses = Object.values(run.node_states).map((s) => s.status);
    if (statuses.includes("running")) return "running";
    if (statuses.includes("waiting_for_user")) return "waiting_for_user";
    if (statuses.includes("failed")) return "failed";
    return "completed";
  };

  describe("Requirement 1: the stitch_flows table", () => {
    it("1.1/1.2/1.5 exists with id (uuid), name (text), graph (jsonb), created_at and updated_at (timestamps)", async () => {
      expect(await column("stitch_flows", "id")).toMatchObject({ data_type: "uuid", is_nullable: "NO" });
      expect(await column("stitch_flows", "name")).toMatchObject({ data_type: "text" });
      expect(await column("stitch_flows", "graph")).toMatchObject({ data_type: "jsonb", is_nullable: "NO" });
      expect(await column("stitch_flows", "created_at")).toMatchObject({ data_type: "timestamp with time zone" });
      expect(await column("stitch_flows", "updated_at")).toMatchObject({ data_type: "timestamp with time zone" });
      const [pk] = await query<{ column_name: string }>(sql`
        SELECT k.column_name FROM information_schema.table_constraints c
        JOIN information_schema.key_column_usage k ON k.constraint_name = c.constraint_name
        WHERE c.table_name = 'stitch_flows' AND c.constraint_type = 'PRIMARY KEY'`);
      expect(pk!.column_name).toBe("id");
    });

    it("1.3/1.4 stores the graph's nodes and edges as JSONB that SQL can read", async () => {
      const graph = graphOf([workerNode("A", hook, { prompt: "p" }), uxNode("B")], chain("A", "B"));
      graph.edges[0]!.sourceHandle = "out";
      const flow = await engine.createFlow("stored", graph);
      expect(flow.id).toMatch(/^[0-9a-f-]{36}$/);
      expect((await engine.getFlow(flow.id)).graph).toEqual(graph);
      const [row] = await query<{ first_node: string; edge_target: string; handle: string; position_x: string }>(sql`
        SELECT graph->'nodes'->0->>'id' AS first_node, graph->'edges'->0->>'target' AS edge_target,
               graph->'edges'->0->>'sourceHandle' AS handle, graph->'nodes'->0->'position'->>'x' AS position_x
        FROM stitch_flows WHERE id = ${flow.id}`);
      expect(row).toEqual({ first_node: "A", edge_target: "B", handle: "out", position_x: "0" });
    });

    it("refuses to store a graph that cannot run", async () => {
      const bad = engine.createFlow("bad", graphOf([uxNode("A")], [["A", "Z"]]));
      await expect(bad).rejects.toThrow(EngineError);
      await expect(bad).rejects.toMatchObject({ code: "invalid_graph", message: 'graph: edge "A->Z" ends at unknown node "Z"' });
    });
  });

  describe("Requirement 2: the stitch_runs table and node_states", () => {
    it("2.1/2.2/2.5 exists with id (uuid), flow_id referencing stitch_flows.id, created_at and updated_at", async () => {
      expect(await column("stitch_runs", "id")).toMatchObject({ data_type: "uuid" });
      expect(await column("stitch_runs", "flow_id")).toMatchObject({ data_type: "uuid", is_nullable: "NO" });
      expect(await column("stitch_runs", "created_at")).toMatchObject({ data_type: "timestamp with time zone" });
      expect(await column("stitch_runs", "updated_at")).toMatchObject({ data_type: "timestamp with time zone" });
      const [fk] = await query<{ target_table: string; target_column: string }>(sql`
        SELECT ccu.table_name AS target_table, ccu.column_name AS target_column
        FROM information_schema.table_constraints tc
        JOIN information_schema.key_column_usage kcu ON kcu.constraint_name = tc.constraint_name
        JOIN information_schema.constraint_column_usage ccu ON ccu.constraint_name = tc.constraint_name
        WHERE tc.table_name = 'stitch_runs' AND tc.constraint_type = 'FOREIGN KEY' AND kcu.column_name = 'flow_id'`);
      expect(fk).toEqual({ target_table: "stitch_flows", target_column: "id" });
      await expect(
        database.run((db) => db.execute(sql`INSERT INTO stitch_runs (flow_id) VALUES ('00000000-0000-4000-8000-000000000000')`)),
      ).rejects.toThrow();
    });

    it("answers a start with the run exactly as it is then stored, without reading it back", async () => {
      const graphs = [
        graphOf([workerNode("A", hook, { prompt: "p" }), uxNode("B")], chain("A", "B")),
        graphOf([uxNode("U")], []),
        graphOf([splitterNode("S"), workerNode("W", hook), collectorNode("C")], chain("S", "W", "C")),
      ];
      for (const [i, graph] of graphs.entries()) {
        const started = await start(graph, i === 2 ? { items: [1, 2] } : { n: i });
        expect(started).toEqual(await engine.getRun(started.id));
        expect(started.created_at).toBe(started.updated_at);
      }
    });

    it("2.3/2.4 node_states is a JSONB object mapping nodeId to {status, output[, error]} (the view stitch_runs_with_node_states)", async () => {
      const [viewColumn] = await query<{ data_type: string }>(sql`
        SELECT data_type FROM information_schema.columns WHERE table_name = 'stitch_runs_with_node_states' AND column_name = 'node_states'`);
      expect(viewColumn!.data_type).toBe("jsonb");
      const run = await start(graphOf([splitterNode("S"), workerNode("W", hook), collectorNode("C")], chain("S", "W", "C")), { items: [1, 2] });
      await engine.handle(run.id, { type: "callback", key: "W_0", status: "completed", output: { n: 0, nested: [null] } });
      await engine.handle(run.id, { type: "callback", key: "W_1", status: "failed", error: "broken" });
      const fromApi = (await engine.getRun(run.id)).node_states;
      const fromView = await nodeStatesFromView(database, run.id);
      expect(fromView).toEqual(fromApi);
      expect(fromView).toEqual({
        S: { status: "completed", output: [1, 2] },
        W: { status: "split", output: null },
        W_0: { status: "completed", output: { n: 0, nested: [null] } },
        W_1: { status: "failed", output: null, error: "broken" },
        C: { status: "failed", output: null, error: 'path "W_1" failed' },
      });
      const [jsonPath] = await query<{ status: string }>(sql`SELECT node_states->'W_0'->>'status' AS status FROM stitch_runs_with_node_states WHERE id = ${run.id}`);
      expect(jsonPath!.status).toBe("completed");
    });

    it("2.6 a new run has every node pending, except what its start has already fired", async () => {
      const run = await start(graphOf([uxNode("Ask"), workerNode("W", hook), uxNode("End")], chain("Ask", "W", "End")), "hello");
      expect(run.node_states).toEqual({
        Ask: { status: "waiting_for_user", output: null },
        W: { status: "pending", output: null },
        End: { status: "pending", output: null },
      });
      expect(run).toMatchObject({ status: "waiting_for_user", input: "hello" });
      const events = await engine.runEvents(run.id);
      expect(events.map((e) => e.type)).toEqual(["start"]);
    });

    it("the run's status follows its node states through every kind of event", async () => {
      const graph = graphOf([workerNode("A", hook), reviewGate("G"), splitterNode("S"), workerNode("W", hook), collectorNode("C"), uxNode("U")], chain("A", "G", "S", "W", "C", "U"));
      let run = await start(graph);
      const steps: [string, Parameters<Engine["handle"]>[1]][] = [
        ["A completes", { type: "callback", key: "A", status: "completed", output: { items: ["a", "b"] } }],
        ["G rejected", { type: "review", key: "G", decision: "reject", feedback: "again" }],
        ["A completes again", { type: "callback", key: "A", status: "completed", output: { items: ["a", "b"] } }],
        ["G approved", { type: "review", key: "G", decision: "approve" }],
        ["W_0 fails", { type: "callback", key: "W_0", status: "failed", error: "x" }],
        ["W_1 completes", { type: "callback", key: "W_1", status: "completed", output: 1 }],
        ["W_0 retried", { type: "retry", key: "W_0" }],
        ["W_0 delivery fails", { type: "delivery_failed", key: "W_0", attempt: 2, error: "HTTP 503" }],
        ["W_0 retried again", { type: "retry", key: "W_0" }],
        ["W_0 completes", { type: "callback", key: "W_0", status: "completed", output: 0 }],
        ["U completed", { type: "complete", key: "U", output: "ok" }],
      ];
      const seen: string[] = [run.status];
      for (const [what, event] of steps) {
        await engine.handle(run.id, event);
        run = await engine.getRun(run.id);
        expect(run.status, what).toBe(derivedStatus(run));
        seen.push(run.status);
      }
      expect(seen).toEqual([
        "running", "waiting_for_user", "running", "waiting_for_user", "running", "running", "failed", "running", "failed", "running", "waiting_for_user", "completed",
      ]);
      expect(run.node_states.C).toEqual({ status: "completed", output: [0, 1] });
    });
  });

  describe("Requirement 11: the database is the single source of truth", () => {
    it("11.1/11.4 a second engine, sharing no memory with the first, carries on the first one's run", async () => {
      const run = await start(graphOf([workerNode("A", hook), splitterNode("S"), workerNode("W", hook), collectorNode("C")], chain("A", "S", "W", "C")));
      await engine.handle(run.id, { type: "callback", key: "A", status: "completed", output: { items: ["x", "y"] } });
      const other = engineOn(database);
      await other.handle(run.id, { type: "callback", key: "W_1", status: "completed", output: "Y" });
      await engine.handle(run.id, { type: "callback", key: "W_0", status: "completed", output: "X" });
      expect((await other.getRun(run.id)).node_states.C).toEqual({ status: "completed", output: ["X", "Y"] });
    });

    it("11.2 a node's change is in stitch_node_states as soon as the event returns", async () => {
      const run = await start(graphOf([workerNode("A", hook)]));
      await engine.handle(run.id, { type: "callback", key: "A", status: "completed", output: { saved: true } });
      const [row] = await query<{ status: string; output: unknown }>(sql`SELECT status, output FROM stitch_node_states WHERE run_id = ${run.id} AND node_id = 'A'`);
      expect(row).toEqual({ status: "completed", output: { saved: true } });
      const [runRow] = await query<{ status: string }>(sql`SELECT status FROM stitch_runs WHERE id = ${run.id}`);
      expect(runRow!.status).toBe("completed");
    });

    it("11.5 an event is atomic: when its transaction fails, no state, outbox row, event or caller write remains", async () => {
      const run = await start(graphOf([workerNode("A", hook), workerNode("B", hook)], chain("A", "B")));
      const before = await engine.getRun(run.id);
      const failing = engine.onRun(run.id, async (ops, tx) => {
        await tx.insert(stitchFlows).values({ name: "written by the caller", graph: graphOf([uxNode("X")]) });
        const result = await ops.handle({ type: "callback", key: "A", status: "completed", output: "a" });
        expect(result.node).toEqual({ status: "completed", output: "a" });
        throw new Error("the caller's own step failed");
      });
      await expect(failing).rejects.toThrow("the caller's own step failed");
      expect(await engine.getRun(run.id)).toEqual(before);
      expect((await outbox(run.id)).map((d) => d.node_id)).toEqual(["A"]);
      expect((await engine.runEvents(run.id)).map((e) => e.type)).toEqual(["start"]);
      expect(await query(sql`SELECT id FROM stitch_flows WHERE name = 'written by the caller'`)).toEqual([]);
    });

    it("11.5 events and a caller's writes in one Engine.onRun transaction commit together", async () => {
      const run = await start(graphOf([workerNode("A", hook), workerNode("B", hook)], chain("A", "B")));
      const flowName = `committed with the event ${run.id}`;
      await engine.onRun(run.id, async (ops, tx) => {
        await ops.handle({ type: "callback", key: "A", status: "completed", output: "a" }, "tester");
        await tx.insert(stitchFlows).values({ name: flowName, graph: graphOf([uxNode("X")]) });
      });
      expect((await engine.getRun(run.id)).node_states.B!.status).toBe("running");
      expect(await query(sql`SELECT id FROM stitch_flows WHERE name = ${flowName}`)).toHaveLength(1);
      expect((await engine.runEvents(run.id)).map((e) => [e.type, e.node_id, e.actor])).toEqual([["start", null, null], ["callback", "A", "tester"]]);
    });

    it("a refused event throws a typed EngineError and changes nothing", async () => {
      const run = await start(graphOf([workerNode("A", hook)]));
      const before = await engine.getRun(run.id);
      await expect(engine.handle(run.id, { type: "retry", key: "A" })).rejects.toMatchObject({ name: "EngineError", code: "bad_request" });
      await expect(engine.handle(run.id, { type: "complete", key: "A", output: 1 })).rejects.toMatchObject({ code: "conflict" });
      await expect(engine.handle(run.id, { type: "callback", key: "B", status: "completed" })).rejects.toMatchObject({ code: "not_found" });
      await expect(engine.handle("00000000-0000-4000-8000-000000000000", { type: "retry", key: "A" })).rejects.toMatchObject({ code: "not_found" });
      await expect(engine.getRun("nope")).rejects.toMatchObject({ code: "not_found" });
      // PostgreSQL cannot store U+0000: refused up front as a bad request naming where it is, not a database error.
      await expect(engine.handle(run.id, { type: "callback", key: "A", status: "completed", output: [{ note: "\u0000" }] })).rejects.toMatchObject({
        code: "bad_request",
        message: "output.0.note contains the NUL character (\\u0000), which cannot be stored; remove it",
      });
      await expect(engine.startRun(run.flow_id, { "k\u0000": 1 })).rejects.toMatchObject({ code: "bad_request", message: expect.stringMatching(/^input\.k/) });
      expect(await engine.getRun(run.id)).toEqual(before);
    });
  });

  describe("the outbox (stitch_dispatches)", () => {
    it("is written in the transaction that fires a Worker, with the payload of Requirement 4.2", async () => {
      const run = await start(graphOf([workerNode("A", hook, { model: "m" })]), { q: 1 });
      expect(await outbox(run.id)).toEqual([
        {
          node_id: "A", node_attempt: 1, url: hook,
          payload: { runId: run.id, nodeId: "A", config: { model: "m" }, input: { q: 1 }, callbackUrl: `${exampleBaseUrl}/api/stitch/callback/${run.id}/A`, attempt: 1 },
        },
      ]);
    });

    it("a callback that arrives before delivery removes the node's pending delivery", async () => {
      const run = await start(graphOf([workerNode("A", hook), workerNode("B", hook)], chain("A", "B")));
      await engine.handle(run.id, { type: "callback", key: "A", status: "completed", output: 1 });
      expect((await outbox(run.id)).map((d) => d.node_id)).toEqual(["B"]);
    });

    it("a retry writes a new delivery for the new attempt", async () => {
      const run = await start(graphOf([workerNode("A", hook)]));
      await engine.handle(run.id, { type: "delivery_failed", key: "A", attempt: 1, error: "could not deliver" });
      expect(await outbox(run.id)).toEqual([]);
      await engine.handle(run.id, { type: "retry", key: "A" });
      expect((await outbox(run.id)).map((d) => [d.node_id, d.node_attempt])).toEqual([["A", 2]]);
    });
  });

  describe("Dispatcher.stop", () => {
    it("returns once the delivery in flight settles, even when a pump ends first (a server's close must not hang)", async () => {
      // The worker answers after 300 ms, so stop() starts with one delivery in flight and a pump running.
      const slow = await startWorkerServer((_dispatch, res) => void setTimeout(() => res.writeHead(200).end("{}"), 300));
      const dispatcher = new Dispatcher(database, engine, { maxAttempts: 3, backoffMs: 50, timeoutMs: 5000, concurrency: 4, pollMs: 60_000, outbound: { policy: parseOutboundAllow("127.0.0.0/8") } });
      try {
        await dispatcher.start();
        const run = await start(graphOf([workerNode("A", slow.url)]));
        dispatcher.wake();
        await slow.waitFor(1);
        dispatcher.wake();
        const outcome = await Promise.race([
          dispatcher.stop().then(() => "stopped"),
          new Promise((resolve) => setTimeout(() => resolve("stop() still waiting after 10 s"), 10_000)),
        ]);
        expect(outcome).toBe("stopped");
        expect(await outbox(run.id)).toEqual([]);
      } finally {
        await slow.close();
      }
    });
  });

  describe("concurrent events on one run (the run row is locked per event)", () => {
    it("40 paths completing at once, each twice, lose no update: one completion each, the collector once, its successor once", async () => {
      const paths = 40;
      const run = await start(
        graphOf([splitterNode("S"), workerNode("W", hook), collectorNode("C"), workerNode("After", hook)], chain("S", "W", "C", "After")),
        { items: Array.from({ length: paths }, (_, i) => i) },
      );
      const callbacks = Array.from({ length: paths }, (_, i) => i).flatMap((i) => [i, i]).sort(() => Math.random() - 0.5);
      const results = await Promise.all(
        callbacks.map((i) => engine.handle(run.id, { type: "callback", key: `W_${i}`, status: "completed", output: i * 10 })),
      );
      for (let i = 0; i < paths; i++) {
        const forPath = results.filter((r) => r.nodeId === `W_${i}`);
        expect(forPath.map((r) => r.duplicate).sort()).toEqual([false, true]);
      }
      const after = await engine.getRun(run.id);
      expect(after.node_states.C).toEqual({ status: "completed", output: Array.from({ length: paths }, (_, i) => i * 10) });
      expect((await outbox(run.id)).filter((d) => d.node_id === "After")).toHaveLength(1);
      expect(after.status).toBe("running");
      const [counts] = await query<{ running_count: number }>(sql`SELECT running_count FROM stitch_runs WHERE id = ${run.id}`);
      expect(counts!.running_count).toBe(1);
      const events = await engine.runEvents(run.id);
      expect(events.filter((e) => e.type === "callback")).toHaveLength(paths);
    });

    it("different runs proceed independently and concurrently", async () => {
      const flow = await engine.createFlow("parallel runs", graphOf([workerNode("A", hook), workerNode("B", hook)], chain("A", "B")));
      const runs = await Promise.all(Array.from({ length: 12 }, (_, i) => engine.startRun(flow.id, i)));
      await Promise.all(runs.map((r) => engine.handle(r.id, { type: "callback", key: "A", status: "completed", output: r.input })));
      for (const r of runs) {
        const stored = await outbox(r.id);
        expect(stored.find((d) => d.node_id === "B")!.payload.input).toBe(r.input);
      }
    });
  });
});
