/**
 * Engine.handleAll: events on many runs in one transaction (what the dispatcher does with workers' answers that
 * came back together). Each event is applied as `handle` would apply it alone; a refused one is answered with its
 * refusal and changes nothing while the others are applied; a fault while writing rolls the batch back and each event
 * is applied alone; and batches that lock the same runs in any order never deadlock (PostgreSQL, where transactions
 * really run side by side).
 */
import { type SQL, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, type Executor, rows } from "../../db/client";
import { testDatabases } from "../testing/databases";
import { chain, collectorNode, graphOf, splitterNode, uxNode, workerNode } from "../testing/flows";
import { holdWorker } from "../testing/stitchClient";
import { type ServerOnTestDatabase, serverOn } from "../testing/suite";
import { type WorkerServer, startWorkerServer } from "../testing/workerServer";
import { Engine } from "./engine";
import { EngineError } from "./errors";
import * as store from "./store";

describe.each(testDatabases)("Engine.handleAll on $name", (testDatabase) => {
  let env: ServerOnTestDatabase;
  let worker: WorkerServer;

  beforeAll(async () => {
    worker = await startWorkerServer(holdWorker);
    env = await serverOn(testDatabase);
  });
  afterAll(async () => {
    await env?.close();
    await worker?.close();
  });

  const flow = () => graphOf([workerNode("A", worker.url), workerNode("B", worker.url), uxNode("U")], chain("A", "B"));
  const startRuns = (n: number) => Promise.all(Array.from({ length: n }, () => env.api.run(flow())));
  const done = (runId: string, key: string, output: unknown) => ({ runId, event: { type: "callback" as const, key, status: "completed" as const, output, attempt: 1 } });
  const eventsOf = (runId: string) =>
    env.database.run((db) => rows<{ type: string; node_id: string | null }>(db, sql`SELECT type, node_id FROM stitch_run_events WHERE run_id = ${runId} ORDER BY id`));

  it("applies each event as alone, answers a refusal in its place, and leaves the refused event's run untouched", async () => {
    const [r1, r2, r3] = await startRuns(3);
    const answers = await env.server.engine.handleAll([
      done(r1!.id, "A", "one"),
      { runId: r2!.id, event: { type: "callback", key: "U", status: "completed", output: "not a worker" } },
      done(r3!.id, "A", "three"),
      done("00000000-0000-4000-8000-000000000000", "A", "nobody"),
      done(r1!.id, "A", "one again"),
    ]);
    expect(answers[0]).toMatchObject({ runId: r1!.id, nodeId: "A", duplicate: false, node: { status: "completed", output: "one" } });
    expect(answers[1]).toBeInstanceOf(EngineError);
    expect((answers[1] as EngineError).code).toBe("conflict");
    expect((answers[1] as EngineError).message).toMatch(/only Worker nodes take callbacks/);
    expect(answers[2]).toMatchObject({ runId: r3!.id, duplicate: false, node: { status: "completed", output: "three" } });
    expect(answers[3]).toBeInstanceOf(EngineError);
    expect((answers[3] as EngineError).code).toBe("not_found");
    // A second event on a run in the same batch sees what the first one did.
    expect(answers[4]).toMatchObject({ runId: r1!.id, duplicate: true });
    expect((await env.api.getRun(r1!.id)).node_states).toMatchObject({ A: { status: "completed", output: "one" }, B: { status: "running" } });
    expect((await env.api.getRun(r2!.id)).node_states.A!.status).toBe("running");
    expect(await eventsOf(r2!.id)).toEqual([{ type: "start", node_id: null }]);
    expect(await eventsOf(r1!.id)).toEqual([{ type: "start", node_id: null }, { type: "callback", node_id: "A" }]);
  });

  it("many events on one run (a fan-out's paths) are decided in turn on what the earlier ones changed, and written once", async () => {
    const graph = graphOf([splitterNode("S"), workerNode("W", worker.url), collectorNode("C"), workerNode("After", worker.url)], chain("S", "W", "C", "After"));
    const run = await env.api.run(graph, { items: [0, 1, 2, 3, 4] });
    const path = (k: number, output: unknown) => done(run.id, `W_${k}`, output);
    // The last path completes the Collector, which fires After in the same batch; a repeated path is a duplicate.
    const answers = await env.server.engine.handleAll([path(3, "d"), path(0, "a"), path(1, "b"), path(1, "b again"), path(4, "e"), path(2, "c")]);
    expect(answers.map((a) => (a instanceof Error ? String(a) : a.duplicate))).toEqual([false, false, false, true, false, false]);
    const after = await env.api.getRun(run.id);
    expect(after.node_states.C).toEqual({ status: "completed", output: ["a", "b", "c", "d", "e"] });
    expect(after.node_states.After!.status).toBe("running");
    expect((await eventsOf(run.id)).filter((e) => e.type === "callback").map((e) => e.node_id)).toEqual(["W_3", "W_0", "W_1", "W_4", "W_2"]);
    // After's webhook was written once and is delivered; the paths' own webhooks are gone.
    const outbox = await env.database.run((db) => rows<{ node_id: string }>(db, sql`SELECT node_id FROM stitch_dispatches WHERE run_id = ${run.id} AND kind = 'webhook'`));
    expect(outbox.map((r) => r.node_id).filter((id) => id !== "After")).toEqual([]);
  });

  it("a fan-out's paths answered together are read in one statement, whichever path comes first", async () => {
    const graph = graphOf([splitterNode("S"), workerNode("W", worker.url), collectorNode("C"), workerNode("After", worker.url)], chain("S", "W", "C", "After"));
    const run = await env.api.run(graph, { items: [0, 1, 2, 3, 4, 5, 6, 7] });
    // An engine over the same database whose transactions count the statements they send through `execute`.
    let statements = 0;
    const counting: Database = {
      ...env.database,
      transaction: (fn) =>
        env.database.transaction((tx) =>
          fn(new Proxy(tx, { get: (target, prop, receiver) => (prop === "execute" ? (query: SQL) => (statements++, target.execute(query)) : Reflect.get(target, prop, receiver)) })),
        ),
    };
    const engine = new Engine(counting, { callbackUrl: (runId, key) => `${env.server.url}/api/stitch/callback/${runId}/${key}` });
    const answers = await engine.handleAll([5, 2, 7, 0, 1].map((k) => done(run.id, `W_${k}`, k)));
    expect(answers.map((a) => (a instanceof Error ? String(a) : a.duplicate))).toEqual([false, false, false, false, false]);
    // The lock, the flow's graph (this engine has not read it yet), one read for every path's rows and their
    // Collector's, the write: not a read per path.
    expect(statements).toBe(4);
    const states = (await env.api.getRun(run.id)).node_states;
    for (const k of [5, 2, 7, 0, 1]) expect(states[`W_${k}`]).toEqual({ status: "completed", output: k });
    for (const k of [3, 4, 6]) expect(states[`W_${k}`]!.status).toBe("running");
  });

  it("the reads of a batch and of a lone event look each row up through the primary key: a run's other rows are never read", async () => {
    const graph = graphOf([splitterNode("S"), workerNode("W", worker.url), collectorNode("C")], chain("S", "W", "C"));
    const run = await env.api.run(graph, { items: Array.from({ length: 300 }, (_, i) => i) });
    const keys = ["W_3", "W_150", "W_299", "C", "no such node"];
    // The statements as the store sends them, planned and run by the database itself.
    const captured: SQL[] = [];
    const capturing = new Proxy({} as Executor, { get: (_t, prop) => (prop === "execute" ? async (q: SQL) => (captured.push(q), []) : undefined) });
    await store.loadNodeRowsOfRuns(capturing, [{ runId: run.id, keys }]);
    await store.loadNodeRows(capturing, run.id, keys);
    expect(captured).toHaveLength(2);
    for (const query of captured) {
      const [plan] = await env.database.run((db) => rows<{ "QUERY PLAN": unknown }>(db, sql`EXPLAIN (ANALYZE, FORMAT JSON) ${query}`));
      const nodes: { "Relation Name"?: string; "Index Cond"?: string; "Actual Rows"?: number; Plans?: unknown[] }[] = [];
      const visit = (node: (typeof nodes)[number]) => (nodes.push(node), node.Plans?.forEach((child) => visit(child as (typeof nodes)[number])));
      const parsed = plan!["QUERY PLAN"];
      visit((typeof parsed === "string" ? JSON.parse(parsed) : parsed)[0].Plan);
      const scans = nodes.filter((n) => n["Relation Name"] === "stitch_node_states");
      expect(scans.length).toBeGreaterThan(0);
      for (const scan of scans) {
        expect(scan["Index Cond"]).toMatch(/node_id/);
        // Each lookup finds at most its one row, not the run's 300 paths.
        expect(scan["Actual Rows"]!).toBeLessThanOrEqual(1);
      }
    }
    const found = await env.database.transaction((tx) => store.loadNodeRowsOfRuns(tx, [{ runId: run.id, keys }]));
    expect(found.get(run.id)!.map((row) => row.key).sort()).toEqual(["C", "W_150", "W_299", "W_3"]);
    const alone = await env.database.transaction((tx) => store.loadNodeRows(tx, run.id, keys));
    expect(alone.map((row) => row.key).sort()).toEqual(["C", "W_150", "W_299", "W_3"]);
  });

  it("a value that cannot be stored is refused as a bad request, alone", async () => {
    const [r1, r2] = await startRuns(2);
    const answers = await env.server.engine.handleAll([done(r1!.id, "A", "bad \u0000 text"), done(r2!.id, "A", "fine")]);
    expect((answers[0] as EngineError).code).toBe("bad_request");
    expect(answers[1]).toMatchObject({ duplicate: false });
    expect((await env.api.getRun(r1!.id)).node_states.A!.status).toBe("running");
  });

  it("a fault while writing rolls the batch back, and each event is then applied alone: the faulty one fails, the others hold", async () => {
    const [r1, r2] = await startRuns(2);
    let faults = 0;
    // An observer that fails for one run only, as a broken projection would: its event cannot commit, with or without the others.
    env.server.engine.observe({
      concerns: (t) => t.runId === r2!.id,
      project: async () => {
        faults++;
        throw new Error("projection broke");
      },
    });
    const answers = await env.server.engine.handleAll([done(r1!.id, "A", "kept"), done(r2!.id, "A", "lost")]);
    // The batch was tried first, then each event alone: the faulty one answers its error, the other its result.
    expect(faults).toBe(2);
    expect(answers[0]).toMatchObject({ runId: r1!.id, duplicate: false });
    expect(answers[1]).toBeInstanceOf(Error);
    expect(answers[1]).not.toBeInstanceOf(EngineError);
    expect(String(answers[1])).toContain("projection broke");
    expect((await env.api.getRun(r1!.id)).node_states.A).toEqual({ status: "completed", output: "kept" });
    expect((await env.api.getRun(r2!.id)).node_states.A!.status).toBe("running");
  });

  it.runIf(testDatabase.name === "postgres")("batches that lock the same runs in opposite orders, side by side, all commit (no deadlock)", async () => {
    const runs = await startRuns(12);
    const ids = runs.map((r) => r.id);
    const rounds = await Promise.all(
      Array.from({ length: 8 }, (_, b) => {
        const order = b % 2 === 0 ? ids : [...ids].reverse();
        return env.server.engine.handleAll(order.map((id) => done(id, "A", `from batch ${b}`)));
      }),
    );
    for (const answers of rounds) for (const answer of answers) expect(answer).not.toBeInstanceOf(Error);
    // Each run's callback was applied exactly once; the other batches found it done (duplicates).
    const applied = rounds.flat().filter((a) => !(a instanceof Error) && !a.duplicate);
    expect(applied).toHaveLength(12);
    for (const id of ids) expect((await env.api.getRun(id)).node_states.B!.status).toBe("running");
  });
});
