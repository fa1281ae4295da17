/**
 * Starts of plain flows asked for together are created in one transaction (FlowCommands.startRun, Engine.startRuns):
 * each is answered as if it had gone alone, each request's audit entry names its own run and is written in that
 * transaction, a refused start is refused alone, and a batch that cannot be written together keeps nothing and is
 * started again one by one, each start in its own request's context.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rows } from "../../db/client";
import { type AuditScope, newAuditScope, withAuditScope } from "../audit/scope";
import type { AuditSubject } from "../audit/schemas";
import { EngineError } from "../engine/errors";
import type { StitchRun } from "../engine/schemas";
import { testDatabases } from "../testing/databases";
import { chain, graphOf, uxNode, workerNode } from "../testing/flows";
import { holdWorker } from "../testing/stitchClient";
import { type ServerOnTestDatabase, serverOn } from "../testing/suite";
import { type WorkerServer, startWorkerServer } from "../testing/workerServer";

const NO_FLOW = "00000000-0000-4000-8000-000000000000";

describe.each(testDatabases)("starting plain flows' runs together on $name", (testDatabase) => {
  let env: ServerOnTestDatabase;
  let worker: WorkerServer;
  let flowId: string;

  beforeAll(async () => {
    worker = await startWorkerServer(holdWorker);
    env = await serverOn(testDatabase);
    flowId = (await env.api.createFlow(graphOf([workerNode("A", worker.url), uxNode("U")], chain("A", "U")), "started together")).id;
  });
  afterAll(async () => {
    await env?.close();
    await worker?.close();
  });

  const subject = (name: string): AuditSubject => ({
    actorKind: "account", accountId: null, actorName: name, tokenId: null, action: "engine.runs.start", targetKind: "flow", targetId: flowId, address: "127.0.0.1", userAgent: "test",
  });
  /** A start as a request makes it: in its own audit scope, which the test keeps to look at afterwards. */
  const startAs = (name: string, flow: string, input: unknown) => {
    let scope!: AuditScope;
    const answer = withAuditScope(subject(name), (s) => {
      scope = s;
      return env.server.flows.startRun(flow, input, { id: null, name }).then((run) => run, (error: unknown) => error as Error);
    });
    return { scope, answer };
  };
  const auditOf = (name: string) =>
    env.database.run((db) => rows<{ outcome: string; target_kind: string; target_id: string }>(db, sql`
      SELECT outcome, target_kind, target_id FROM audit_log WHERE actor_name = ${name} ORDER BY id`));
  const createdAt = (ids: readonly string[]) =>
    env.database.run((db) => rows<{ at: string }>(db, sql`SELECT DISTINCT created_at::text AS at FROM stitch_runs WHERE id::text IN (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`));
  const runsStartedBy = (name: string) => env.database.run((db) => rows<{ id: string }>(db, sql`SELECT id::text FROM stitch_runs WHERE started_by_name = ${name}`));

  it("answers each start as alone, refuses the bad ones in their place, and audits each accepted start with its own run, in one transaction", async () => {
    // Starts made in one turn go into one batch (the coalescer starts it once the event loop has had its turn).
    const names = Array.from({ length: 6 }, (_, i) => `together-${testDatabase.name}-${i}`);
    const good = names.map((name, i) => startAs(name, flowId, { n: i }));
    const missing = startAs(`missing-${testDatabase.name}`, NO_FLOW, {});
    const notAFlowId = startAs(`not-uuid-${testDatabase.name}`, "not-a-flow", {});
    const unstorable = startAs(`nul-${testDatabase.name}`, flowId, { text: "bad \u0000 text" });
    const runs = (await Promise.all(good.map((g) => g.answer))) as StitchRun[];

    for (const [i, run] of runs.entries()) {
      expect(run).toMatchObject({ flow_id: flowId, owner: null, status: "running", input: { n: i }, node_states: { A: { status: "running" }, U: { status: "pending" } } });
      expect(run.created_at).toBe(run.updated_at);
      // The answer is the run as stored.
      expect(await env.api.getRun(run.id)).toEqual(run);
      expect(await auditOf(names[i]!)).toEqual([{ outcome: "accepted", target_kind: "run", target_id: run.id }]);
      expect(good[i]!.scope.recorded).toBe(true);
    }
    expect(new Set(runs.map((r) => r.id)).size).toBe(runs.length);
    // One transaction created them all: its now() is every run's created_at.
    expect(await createdAt(runs.map((r) => r.id))).toHaveLength(1);

    for (const [refused, code, pattern] of [[missing, "not_found", /no flow with id/], [notAFlowId, "not_found", /no flow with id "not-a-flow"/], [unstorable, "bad_request", /NUL character/]] as const) {
      const error = await refused.answer;
      expect(error).toBeInstanceOf(EngineError);
      expect((error as EngineError).code).toBe(code);
      expect((error as EngineError).message).toMatch(pattern);
      // Nothing was recorded for it: the door records the refusal once the request ends.
      expect(refused.scope.recorded).toBe(false);
      expect(refused.scope.subject.targetKind).toBe("flow");
    }
    expect(await runsStartedBy(`nul-${testDatabase.name}`)).toEqual([]);
  });

  /** A start as the REST door makes it: its scope handed to the command, outside any audit scope's async context. */
  const startHanded = (name: string, flow: string, input: unknown) => {
    const scope = newAuditScope(subject(name));
    const answer = env.server.flows.startRun(flow, input, { id: null, name }, scope).then((run) => run, (error: unknown) => error as Error);
    return { scope, answer };
  };

  it.each([
    ["in its request's audit scope", "scoped", startAs],
    ["with its scope handed over, as the REST door does", "handed", startHanded],
  ])("a batch that cannot be written together keeps nothing, and each start then goes alone (%s): the faulty one fails, the others start and are audited once", async (_, variant, startAs) => {
    const broken = `broken-${variant}-${testDatabase.name}`;
    let faults = 0;
    // A projection that fails for one start only: its run cannot commit, with or without the others.
    env.server.engine.observe({
      concerns: (t) => t.event.type === "start" && t.startedBy?.name === broken,
      project: async () => {
        faults++;
        throw new Error("projection broke");
      },
    });
    const names = [`kept-${variant}-${testDatabase.name}-0`, broken, `kept-${variant}-${testDatabase.name}-1`];
    const starts = names.map((name) => startAs(name, flowId, { who: name }));
    const answers = await Promise.all(starts.map((s) => s.answer));

    // Tried together first, then each alone.
    expect(faults).toBe(2);
    expect(String(answers[1])).toContain("projection broke");
    expect(answers[1]).not.toBeInstanceOf(EngineError);
    expect(await runsStartedBy(broken)).toEqual([]);
    expect(starts[1]!.scope.recorded).toBe(false);
    expect(starts[1]!.scope.subject.targetKind).toBe("flow");
    for (const i of [0, 2]) {
      const run = answers[i] as StitchRun;
      expect(run).toMatchObject({ status: "running", input: { who: names[i] } });
      expect(await runsStartedBy(names[i]!)).toEqual([{ id: run.id }]);
      // Audited once, by its own transaction, naming its run.
      expect(await auditOf(names[i]!)).toEqual([{ outcome: "accepted", target_kind: "run", target_id: run.id }]);
    }
  });

  it("starts sent together over HTTP are each answered and audited as alone", async () => {
    const answers = await Promise.all([
      ...Array.from({ length: 8 }, (_, i) => env.api.post<StitchRun>(`/api/stitch/flows/${flowId}/runs`, { input: { http: i } })),
      env.api.post(`/api/stitch/flows/${NO_FLOW}/runs`, { input: {} }),
    ]);
    const started = answers.slice(0, 8);
    expect(started.map((a) => a.status)).toEqual(Array(8).fill(201));
    expect(started.map((a) => (a.body as StitchRun).input)).toEqual(Array.from({ length: 8 }, (_, i) => ({ http: i })));
    expect(answers[8]!.status).toBe(404);
    const entries = await env.database.run((db) => rows<{ outcome: string; status: number | null; target_kind: string; target_id: string }>(db, sql`
      SELECT outcome, status, target_kind, target_id FROM audit_log WHERE action = 'engine.runs.start' AND (target_id = ${NO_FLOW} OR target_id IN (${sql.join(started.map((a) => sql`${(a.body as StitchRun).id}`), sql`, `)}))`));
    expect(entries.filter((e) => e.outcome === "accepted").map((e) => e.target_id).sort()).toEqual(started.map((a) => (a.body as StitchRun).id).sort());
    expect(entries.filter((e) => e.outcome === "refused")).toEqual([{ outcome: "refused", status: 404, target_kind: "flow", target_id: NO_FLOW }]);
  });
});
