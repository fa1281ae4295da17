/**
 * Events applied without a transaction (Engine.applyUnlocked): an event that needs nothing but the engine's own rows is
 * read without a lock and written in one statement guarded by the run's version. What an observer projects still goes
 * in a transaction; a run changed between the read and the write is not written over: the event is decided again the
 * locked way, on what is then stored, and applied once.
 */
import { type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, rows } from "../../db/client";
import { testDatabases } from "../testing/databases";
import { chain, graphOf, uxNode, workerNode } from "../testing/flows";
import { dispatchesOf, holdWorker } from "../testing/stitchClient";
import { type ServerOnTestDatabase, serverOn } from "../testing/suite";
import { type WorkerServer, startWorkerServer } from "../testing/workerServer";
import * as store from "./store";
import { newRow } from "./transition";

describe.each(testDatabases)("events applied without a transaction on $name", (testDatabase) => {
  let env: ServerOnTestDatabase;
  let worker: WorkerServer;
  let database: Database;
  let transactions = 0;

  beforeAll(async () => {
    worker = await startWorkerServer(holdWorker);
    env = await serverOn(testDatabase);
    // The engine's database, counting the transactions it opens.
    database = env.server.engine.database;
    const transaction = database.transaction.bind(database);
    Object.assign(database, { transaction: (fn: Parameters<Database["transaction"]>[0]) => (transactions++, transaction(fn)) });
  });
  afterAll(async () => {
    await env?.close();
    await worker?.close();
  });

  const done = (key: string, output: unknown) => ({ type: "callback" as const, key, status: "completed" as const, output, attempt: 1 });
  const eventsOf = (runId: string) =>
    env.database.run((db) => rows<{ type: string; node_id: string | null }>(db, sql`SELECT type, node_id FROM stitch_run_events WHERE run_id = ${runId} ORDER BY id`));
  const outboxOf = (runId: string) => env.database.run((db) => rows<{ node_id: string }>(db, sql`SELECT node_id FROM stitch_dispatches WHERE run_id = ${runId} ORDER BY node_id`));
  const versionOf = async (runId: string) => (await env.database.run((db) => store.readRunUnlocked(db, runId, [])))!.version;

  it("a Worker moving on in a plain flow is written without a transaction: its row, the next one's, the outbox, the log", async () => {
    const run = await env.api.run(graphOf([workerNode("A", worker.url), workerNode("B", worker.url), workerNode("C", worker.url)], chain("A", "B", "C")));
    const before = transactions;
    const result = await env.server.engine.handle(run.id, done("A", { n: 1 }));
    expect(transactions - before).toBe(0);
    expect(result).toMatchObject({ runId: run.id, nodeId: "A", duplicate: false, node: { status: "completed", output: { n: 1 } }, runStatus: "running" });
    expect((await env.api.getRun(run.id)).node_states).toMatchObject({ A: { status: "completed", output: { n: 1 } }, B: { status: "running" }, C: { status: "pending" } });
    expect(await eventsOf(run.id)).toEqual([{ type: "start", node_id: null }, { type: "callback", node_id: "A" }]);
    // A's webhook went with it; B's was written (and is delivered by this process).
    expect((await outboxOf(run.id)).map((r) => r.node_id)).not.toContain("A");
    await expect.poll(() => dispatchesOf(worker.received, run.id, "B")).toHaveLength(1);

    // The same callback again is a duplicate, answered the locked way, and changes nothing.
    const again = await env.server.engine.handle(run.id, done("A", { n: 2 }));
    expect(again).toMatchObject({ duplicate: true });
    expect((await env.api.getRun(run.id)).node_states.A).toEqual({ status: "completed", output: { n: 1 } });
    expect(await eventsOf(run.id)).toHaveLength(2);
  });

  it("what an observer projects goes in a transaction: the run's end (its notification) and a wait for a person (its decision)", async () => {
    const ending = await env.api.run(graphOf([workerNode("A", worker.url)], []));
    let before = transactions;
    await env.server.engine.handle(ending.id, done("A", "last"));
    expect(transactions - before).toBe(1);
    expect((await env.api.getRun(ending.id)).status).toBe("completed");
    const told = await env.database.run((db) => rows<{ type: string }>(db, sql`SELECT type FROM notification_events WHERE payload->'run'->>'run_id' = ${ending.id}`));
    expect(told).toEqual([{ type: "run.completed" }]);

    const waiting = await env.api.run(graphOf([workerNode("A", worker.url), uxNode("U")], chain("A", "U")));
    before = transactions;
    await env.server.engine.handle(waiting.id, done("A", "for review"));
    expect(transactions - before).toBe(1);
    const decisions = await env.database.run((db) => rows<{ node_key: string }>(db, sql`SELECT node_key FROM decisions WHERE engine_run_id = ${waiting.id} AND state = 'open'`));
    expect(decisions).toEqual([{ node_key: "U" }]);
  });

  it("a refused event is refused the locked way and changes nothing", async () => {
    const run = await env.api.run(graphOf([workerNode("A", worker.url), uxNode("U")], chain("A", "U")));
    await expect(env.server.engine.handle(run.id, done("U", "not a worker"))).rejects.toMatchObject({ code: "conflict" });
    await expect(env.server.engine.handle("00000000-0000-4000-8000-000000000000", done("A", "nobody"))).rejects.toMatchObject({ code: "not_found" });
    expect(await eventsOf(run.id)).toEqual([{ type: "start", node_id: null }]);
  });

  it("the guarded write writes nothing once the run has moved from the version read, and everything while it has not", async () => {
    const run = await env.api.run(graphOf([workerNode("A", worker.url), workerNode("B", worker.url)], chain("A", "B")));
    const read = await versionOf(run.id);
    const writes = (output: string): store.RunWrites => ({
      runId: run.id, changed: [{ ...newRow("A"), status: "completed", output }], cancelled: ["A"], dispatches: [],
      counts: { running: 0, waiting: 0, failed: 0 }, status: "running", notify: false,
      logs: [{ nodeId: "A", type: "callback", payload: { status: "completed", output }, actor: null }],
    });
    // Another event commits first (B's row is untouched by it, but the run's version moves).
    await env.server.engine.cancel(run.id, "moved on");
    expect(await versionOf(run.id)).not.toBe(read);
    expect(await env.database.run((db) => store.writeEventsIfUnchanged(db, writes("stale"), read))).toBe(false);
    expect((await env.api.getRun(run.id)).node_states.A!.status).toBe("cancelled");
    expect((await eventsOf(run.id)).map((e) => e.type)).toEqual(["start", "cancel"]);

    const current = await versionOf(run.id);
    expect(await env.database.run((db) => store.writeEventsIfUnchanged(db, writes("fresh"), current))).toBe(true);
    expect((await env.api.getRun(run.id)).node_states.A).toEqual({ status: "completed", output: "fresh" });
    expect(await versionOf(run.id)).not.toBe(current);
  });

  it.runIf(testDatabase.name === "postgres")("a run changed between the read and the write: the event is decided again, locked, and applied once", async () => {
    const run = await env.api.run(graphOf([workerNode("A", worker.url), workerNode("B", worker.url)], chain("A", "B")));
    // Right after the event's unlocked read, the run is cancelled by another transaction.
    const run_ = database.run.bind(database);
    let raced = false;
    Object.assign(database, {
      run: <T>(fn: Parameters<Database["run"]>[0]) =>
        run_((db) => {
          const execute = db.execute.bind(db);
          const racing = Object.assign(Object.create(db) as typeof db, {
            execute: async (query: SQL) => {
              const answer = await execute(query);
              if (!raced && new PgDialect().sqlToQuery(query).sql.includes("AS version")) {
                raced = true;
                await env.server.engine.cancel(run.id, "raced");
              }
              return answer;
            },
          });
          return fn(racing) as Promise<T>;
        }),
    });
    const before = transactions;
    try {
      await expect(env.server.engine.handle(run.id, done("A", "late"))).rejects.toMatchObject({ code: "conflict" });
    } finally {
      Object.assign(database, { run: run_ });
    }
    expect(raced).toBe(true);
    // The cancellation's transaction, then the event's own, locked: it found A cancelled and refused the callback.
    expect(transactions - before).toBe(2);
    expect((await env.api.getRun(run.id)).node_states).toMatchObject({ A: { status: "cancelled" }, B: { status: "cancelled" } });
    expect((await eventsOf(run.id)).map((e) => e.type)).toEqual(["start", "cancel"]);
  });

  it.runIf(testDatabase.name === "postgres")("the same callback many times at once is applied once; the others are duplicates", async () => {
    const runs = await Promise.all(Array.from({ length: 6 }, () => env.api.run(graphOf([workerNode("A", worker.url), workerNode("B", worker.url)], chain("A", "B")))));
    const answers = await Promise.all(runs.flatMap((run) => Array.from({ length: 5 }, (_, i) => env.server.engine.handle(run.id, done("A", `copy ${i}`)))));
    expect(answers.filter((a) => !a.duplicate)).toHaveLength(6);
    for (const run of runs) {
      expect((await eventsOf(run.id)).map((e) => e.type)).toEqual(["start", "callback"]);
      expect((await env.api.getRun(run.id)).node_states.B!.status).toBe("running");
    }
  });
});
