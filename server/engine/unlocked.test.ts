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

/** The engine's unlocked read of a run (`store.readRunUnlocked`), told from its text. */
const isUnlockedRead = (query: SQL) => /xmin::text AS version[\s\S]*JOIN stitch_flows/.test(new PgDialect().sqlToQuery(query).sql);

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
    expect(await env.database.run((db) => store.writeEventsIfUnchanged(db, writes("stale"), read))).toBeUndefined();
    expect((await env.api.getRun(run.id)).node_states.A!.status).toBe("cancelled");
    expect((await eventsOf(run.id)).map((e) => e.type)).toEqual(["start", "cancel"]);

    const current = await versionOf(run.id);
    // Rows ahead are read in the same statement, as they were: B is there, Z is not.
    const written = await env.database.run((db) => store.writeEventsIfUnchanged(db, writes("fresh"), current, ["B", "Z"]));
    expect(written?.version).toBe(await versionOf(run.id));
    expect(written?.version).not.toBe(current);
    expect(written?.ahead.map((row) => [row.key, row.status])).toEqual([["B", "cancelled"]]);
    expect((await env.api.getRun(run.id)).node_states.A).toEqual({ status: "completed", output: "fresh" });
  });

  /** Counts the engine's unlocked reads (`store.readRunUnlocked`) while `fn` runs. */
  async function countingReads<T>(fn: () => Promise<T>): Promise<{ result: T; reads: number }> {
    const run_ = database.run.bind(database);
    let reads = 0;
    Object.assign(database, {
      run: <R>(body: Parameters<Database["run"]>[0]) =>
        run_((db) => {
          const execute = db.execute.bind(db);
          const counting = Object.assign(Object.create(db) as typeof db, {
            execute: (query: SQL) => {
              if (isUnlockedRead(query)) reads++;
              return execute(query);
            },
          });
          return body(counting) as Promise<R>;
        }),
    });
    try {
      return { result: await fn(), reads };
    } finally {
      Object.assign(database, { run: run_ });
    }
  }

  it("a chain's next callback reads nothing: the last write left the run and the rows it wants, current while the run's version holds", async () => {
    const run = await env.api.run(graphOf(["A", "B", "C", "D"].map((id) => workerNode(id, worker.url)), chain("A", "B", "C", "D")));
    const before = transactions;
    const { reads } = await countingReads(async () => {
      for (const key of ["A", "B", "C"]) await env.server.engine.handle(run.id, done(key, `${key} done`));
    });
    // The first callback read the run; the next two used what the write before them left.
    expect(reads).toBe(1);
    expect(transactions - before).toBe(0);
    expect((await env.api.getRun(run.id)).node_states).toMatchObject({
      A: { status: "completed", output: "A done" }, B: { status: "completed", output: "B done" }, C: { status: "completed", output: "C done" }, D: { status: "running" },
    });
    expect((await eventsOf(run.id)).map((e) => e.node_id)).toEqual([null, "A", "B", "C"]);
  });

  it("what this process holds of a run is not written over once the run has moved (another process wrote it): the event goes the locked way", async () => {
    const run = await env.api.run(graphOf(["A", "B", "C"].map((id) => workerNode(id, worker.url)), chain("A", "B", "C")));
    await env.server.engine.handle(run.id, done("A", "a"));
    // Another process's write moves the run's version (here, its row written behind this process's back).
    await env.database.run((db) => db.execute(sql`UPDATE stitch_runs SET updated_at = now() WHERE id = ${run.id}`));
    const before = transactions;
    const { reads } = await countingReads(() => env.server.engine.handle(run.id, done("B", "b")));
    expect(reads).toBe(0);
    expect(transactions - before).toBe(1);
    expect((await env.api.getRun(run.id)).node_states).toMatchObject({ B: { status: "completed", output: "b" }, C: { status: "running" } });
    expect((await eventsOf(run.id)).map((e) => e.node_id)).toEqual([null, "A", "B"]);
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
              if (!raced && isUnlockedRead(query)) {
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
