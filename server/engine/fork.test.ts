/**
 * Engine.fork against real storage (PGlite, and PostgreSQL whenever the run has one): the fork is made whole in one
 * transaction (its row, its copied and fresh rows, its first event and its webhooks), the original is left as it was
 * and goes on, both are linked, a fork of a fork works, a later version is used or refused, and forks racing each
 * other and the original's own events each apply whole.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type Database, rows } from "../../db/client";
import { testDatabases } from "../testing/databases";
import { engineOnTestDatabase } from "../testing/engineOnTestDatabase";
import { chain, graphOf, uxNode, workerNode } from "../testing/flows";
import { type Engine, EngineError } from "./engine";
import type { StitchGraph } from "./schemas";

const hook = "https://worker.example.test/hook";
const rita = { id: "00000000-0000-4000-8000-0000000000aa", name: "Rita Ramos" };

describe.each(testDatabases)("forks on $name", (testDatabase) => {
  let database: Database;
  let engine: Engine;
  engineOnTestDatabase(testDatabase, (storage) => ({ database, engine } = storage));

  const outbox = (runId: string) =>
    database.run((db) => rows<{ node_id: string; payload: { input: unknown } }>(db, sql`SELECT node_id, payload FROM stitch_dispatches WHERE run_id = ${runId} AND kind = 'webhook' ORDER BY node_id`));
  const storedRows = (runId: string) =>
    database.run((db) => rows<{ node_id: string; output_text: string | null; status: string }>(db, sql`SELECT node_id, output::text AS output_text, status FROM stitch_node_states WHERE run_id = ${runId} ORDER BY node_id`));
  const threeWorkers = () => graphOf([workerNode("A", hook), workerNode("B", hook), workerNode("C", hook), uxNode("U")], chain("A", "B", "C", "U"));
  const callback = (runId: string, key: string, output: unknown) => engine.handle(runId, { type: "callback", key, status: "completed", output });

  /** A run of A -> B -> C -> U with A and B done (B's output nested, so byte-identity is meaningful) and C running. */
  async function runningAtC(graph: StitchGraph = threeWorkers()) {
    const flow = await engine.createFlow("forked", graph);
    const run = await engine.startRun(flow.id, { topic: "bikes" });
    await callback(run.id, "A", { a: [1, 2, { deep: "ü" }] });
    await callback(run.id, "B", { b: "two", n: 2.5 });
    return { flow, run: await engine.getRun(run.id) };
  }

  it("copies the nodes before the chosen one byte for byte, calls only the chosen one with its edited input, and links both runs", async () => {
    const { run } = await runningAtC();
    const before = await storedRows(run.id);
    const fork = await engine.fork({ runId: run.id, nodeId: "B", input: { a: "edited" }, version: "original", by: rita });
    expect(fork.id).not.toBe(run.id);
    expect(fork.forked_from).toMatchObject({ run_id: run.id, node_id: "B", by: rita, version: "original", flow_version: 1 });
    expect(fork.node_states).toMatchObject({ A: { status: "completed" }, B: { status: "running" }, C: { status: "pending" }, U: { status: "pending" } });
    const forkRows = await storedRows(fork.id);
    expect(forkRows.find((r) => r.node_id === "A")).toEqual(before.find((r) => r.node_id === "A"));
    expect(await outbox(fork.id)).toEqual([expect.objectContaining({ node_id: "B", payload: expect.objectContaining({ input: { a: "edited" } }) })]);
    // The original is as it was, and still goes on.
    expect(await storedRows(run.id)).toEqual(before);
    const parent = await engine.getRun(run.id);
    expect(parent.forks).toEqual([expect.objectContaining({ run_id: fork.id, node_id: "B", by: rita, status: "running" })]);
    await callback(run.id, "C", "c");
    expect((await engine.getRun(run.id)).node_states.U!.status).toBe("waiting_for_user");
    expect((await engine.getRun(fork.id)).node_states.C!.status).toBe("pending");
  });

  it("tells the fork's history from its first event, the copied rows included", async () => {
    const { run } = await runningAtC();
    const fork = await engine.fork({ runId: run.id, nodeId: "C", version: "original", by: rita });
    await callback(fork.id, "C", "c2");
    const history = await engine.history(fork.id);
    expect(history.steps[0]!.event).toMatchObject({ type: "fork", key: "C", from: { run_id: run.id, node_id: "C" } });
    const replayed = Object.fromEntries(history.steps.flatMap((s) => s.changes).map((c) => [c.key, c.after.status]));
    expect(replayed).toMatchObject({ A: "completed", B: "completed", C: "completed", U: "waiting_for_user" });
    expect((await engine.runEvents(fork.id))[0]).toMatchObject({ type: "fork", node_id: "C", actor: "Rita Ramos" });
  });

  it("forks a fork, and lists each run's parent and forks", async () => {
    const { run } = await runningAtC();
    const first = await engine.fork({ runId: run.id, nodeId: "B", version: "original", by: rita });
    await callback(first.id, "B", { b: "three" });
    const second = await engine.fork({ runId: first.id, nodeId: "C", version: "original", by: null });
    expect(second.forked_from).toMatchObject({ run_id: first.id, node_id: "C", by: null });
    expect((await engine.getRun(second.id)).node_states.B).toEqual({ status: "completed", output: { b: "three" } });
    expect(await engine.lineage(first.id)).toMatchObject({ forked_from: { run_id: run.id }, forks: [{ run_id: second.id }] });
  });

  it("runs the latest version when asked, matching nodes by id, and refuses with 409 naming copied nodes it lacks", async () => {
    const { flow, run } = await runningAtC();
    const v2 = graphOf([workerNode("A", hook), workerNode("B", hook), workerNode("C", hook, { prompt: "v2" })], chain("A", "B", "C"));
    await engine.appendVersion(flow.id, 1, { graph: v2, message: "no gate", origin: "save", author: null });
    const latest = await engine.fork({ runId: run.id, nodeId: "C", version: "latest", by: rita });
    expect(latest.flow_version).toBe(2);
    expect(latest.forked_from).toMatchObject({ version: "latest", flow_version: 2 });
    expect(Object.keys(latest.node_states).sort()).toEqual(["A", "B", "C"]);
    const v3 = graphOf([workerNode("A", hook), workerNode("B2", hook), workerNode("C", hook)], chain("A", "B2", "C"));
    await engine.appendVersion(flow.id, 2, { graph: v3, message: "renamed B", origin: "save", author: null });
    const refused = await engine.fork({ runId: run.id, nodeId: "C", version: "latest", by: rita }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(EngineError);
    expect(refused).toMatchObject({ code: "conflict", message: expect.stringContaining('no node "B"') });
    expect((await engine.getRun(run.id)).forks).toHaveLength(1);
  });

  it("refuses an unknown run, an unknown node and a node that never ran, writing nothing", async () => {
    const { run } = await runningAtC();
    await expect(engine.fork({ runId: "00000000-0000-4000-8000-000000000000", nodeId: "A", version: "original", by: null })).rejects.toMatchObject({ code: "not_found" });
    await expect(engine.fork({ runId: run.id, nodeId: "Z", version: "original", by: null })).rejects.toMatchObject({ code: "not_found" });
    await expect(engine.fork({ runId: run.id, nodeId: "U", version: "original", by: null })).rejects.toMatchObject({ code: "conflict" });
    await expect(engine.fork({ runId: run.id, nodeId: "A", input: "nul \u0000", version: "original", by: null })).rejects.toMatchObject({ code: "bad_request" });
    expect((await engine.getRun(run.id)).forks).toEqual([]);
  });

  it("three forks of one run at once: three forks, each whole", async () => {
    const { run } = await runningAtC();
    const forks = await Promise.all([1, 2, 3].map((n) => engine.fork({ runId: run.id, nodeId: "B", input: { n }, version: "original", by: rita })));
    expect(new Set(forks.map((f) => f.id)).size).toBe(3);
    for (const [i, fork] of forks.entries()) {
      expect(Object.keys(fork.node_states).sort()).toEqual(["A", "B", "C", "U"]);
      expect(await outbox(fork.id)).toEqual([expect.objectContaining({ node_id: "B", payload: expect.objectContaining({ input: { n: i + 1 } }) })]);
    }
    expect((await engine.lineage(run.id)).forks).toHaveLength(3);
  });

  it("a fork racing the original's next events: both apply whole, the fork copying the original as one event left it", async () => {
    const { run } = await runningAtC();
    const [fork] = await Promise.all([engine.fork({ runId: run.id, nodeId: "C", version: "original", by: rita }), callback(run.id, "C", "done")]);
    const original = await engine.getRun(run.id);
    expect(original.node_states.C).toEqual({ status: "completed", output: "done" });
    expect(original.node_states.U!.status).toBe("waiting_for_user");
    expect(fork.node_states).toMatchObject({ C: { status: "running" }, U: { status: "pending" } });
    expect(await outbox(fork.id)).toEqual([expect.objectContaining({ node_id: "C" })]);
  });
});
