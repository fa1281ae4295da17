/**
 * Issue 42, flows have versions: versions are immutable and saving never overwrites; a save on a stale base is refused
 * with 409, in words, with the diff; restoring adds a version; a run keeps the version it started on to its end, even
 * when a later version removes the node it waits at; the list of flows says who saved what and how its runs stand;
 * roles and the audit trail answer the same through REST and tRPC.
 */
import { TRPCError } from "@trpc/server";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rows } from "../../db/client";
import type { StitchGraph } from "../engine/schemas";
import type { Identity } from "../people/schemas";
import { callerContext } from "../testing/callerContext";
import { testDatabases } from "../testing/databases";
import { chain, graphOf, uxNode } from "../testing/flows";
import { type TestPerson, createPerson } from "../testing/people";
import { type ServerOnTestDatabase, serverOn } from "../testing/suite";
import { createCaller } from "../trpc/router";

const HTTP_OF: Record<string, number> = { CONFLICT: 409, NOT_FOUND: 404, BAD_REQUEST: 400, FORBIDDEN: 403, UNAUTHORIZED: 401 };

describe.each(testDatabases)("flow versions on $name", (testDatabase) => {
  let env: ServerOnTestDatabase;
  let olga: TestPerson;
  let otto: TestPerson;
  let ann: TestPerson;
  let rita: TestPerson;

  const identityOf = (person: TestPerson): Identity => ({ kind: "token", accountId: person.accountId, name: person.name, role: person.role, tokenId: "00000000-0000-4000-8000-000000000001" });
  const trpcAs = (person: TestPerson) => createCaller(callerContext(env.server, identityOf(person)));
  const rest = (person: TestPerson) => env.api.as(person.token);
  const trpcStatus = async (call: Promise<unknown>) => {
    const error = await call.then(() => undefined, (e: unknown) => e);
    if (error === undefined) return 200;
    expect(error).toBeInstanceOf(TRPCError);
    return HTTP_OF[(error as TRPCError).code] ?? 500;
  };
  const audit = (action: string) =>
    env.database.run((db) =>
      rows<{ actor_name: string; outcome: string; target_kind: string; target_id: string }>(db, sql`
        SELECT actor_name, outcome, target_kind, target_id FROM audit_log WHERE action = ${action} ORDER BY id`),
    );
  const twoGates = graphOf([uxNode("A", { label: "Ask the customer" }), uxNode("B")], chain("A", "B"));

  beforeAll(async () => {
    env = await serverOn(testDatabase);
    [olga, otto, ann, rita] = await Promise.all([
      createPerson(env.server.people, "Olga Operator", "operator"),
      createPerson(env.server.people, "Otto Operator", "operator"),
      createPerson(env.server.people, "Ann Analyst", "analyst"),
      createPerson(env.server.people, "Rita Reviewer", "reviewer"),
    ]);
  });
  afterAll(async () => {
    await env?.close();
  });

  it("POST /api/stitch/flows still creates the flow, now as its version 1 by its author; saving adds version 2 and version 1 stays as it was", async () => {
    const created = await rest(olga).post("/api/stitch/flows", { name: "immutable", graph: twoGates });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "immutable", graph: twoGates, version: 1 });
    const id = created.body.id as string;
    const next = graphOf([uxNode("A", { label: "Ask the customer politely" })]);
    const saved = await rest(olga).post(`/api/stitch/flows/${id}/versions`, { graph: next, message: "Only one gate", base_version: 1 });
    expect(saved).toMatchObject({ status: 201, body: { flow_id: id, version: 2, message: "Only one gate", origin: "save", author: { id: olga.accountId, name: "Olga Operator" }, graph: next } });
    expect((await env.api.get(`/api/stitch/flows/${id}/versions/1`)).body).toMatchObject({ version: 1, graph: twoGates, origin: "create", author: { name: "Olga Operator" } });
    expect((await env.api.get(`/api/stitch/flows/${id}`)).body).toMatchObject({ version: 2, graph: next });
    expect((await env.api.get(`/api/stitch/flows/${id}/versions`)).body.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    // Nothing in the API changes a version; restoring version 1 adds version 3 with its graph.
    const restored = await rest(otto).post(`/api/stitch/flows/${id}/versions/1/restore`, { base_version: 2 });
    expect(restored.body).toMatchObject({ version: 3, origin: "restore", restored_from: 1, message: "Restored version 1", graph: twoGates, author: { name: "Otto Operator" } });
    expect((await env.api.get(`/api/stitch/flows/${id}/versions/2`)).body.graph).toEqual(next);
    expect((await env.api.get(`/api/stitch/flows/${id}/versions/4`)).status).toBe(404);
  });

  it("a save whose base is no longer the latest is refused with 409, in words, with the diff; saving on top of the latest then succeeds (REST and tRPC alike)", async () => {
    const id = (await rest(olga).post("/api/stitch/flows", { name: "two tabs", graph: twoGates })).body.id as string;
    const olgas = graphOf([uxNode("A", { label: "Ask the customer kindly" }), uxNode("B"), uxNode("C")], chain("A", "B", "C"));
    expect((await rest(olga).post(`/api/stitch/flows/${id}/versions`, { graph: olgas, message: "Add C", base_version: 1 })).status).toBe(201);

    const ottos = graphOf([uxNode("A"), uxNode("B")], chain("A", "B"));
    const stale = await rest(otto).post(`/api/stitch/flows/${id}/versions`, { graph: ottos, message: "Mine", base_version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toMatch(/^Version 2 was saved by Olga Operator at \d\d:\d\d UTC since you opened version 1/);
    expect(stale.body.latest).toMatchObject({ version: 2, author: { name: "Olga Operator" }, message: "Add C" });
    expect(stale.body.diff.nodes.added).toEqual([{ id: "C", type: "UX", label: "C" }]);
    expect(stale.body.diff.edges.added).toEqual([{ id: "B->C", source: "B", target: "C" }]);
    const label = stale.body.diff.nodes.changed[0];
    expect(label).toMatchObject({ id: "A", fields: [{ field: "label", change: "changed", before: "Ask the customer", after: "Ask the customer kindly" }] });
    expect(label.fields[0].pieces).toContainEqual({ op: "insert", text: " kindly" });
    // The same rule through tRPC: CONFLICT, and nothing was saved either way.
    expect(await trpcStatus(trpcAs(otto).engine.flows.saveVersion({ flowId: id, graph: ottos, message: "Mine", base_version: 1 }))).toBe(409);
    expect((await env.api.get(`/api/stitch/flows/${id}/versions`)).body).toHaveLength(2);
    // Having looked, he saves on top of version 2.
    expect((await trpcAs(otto).engine.flows.saveVersion({ flowId: id, graph: ottos, message: "Mine, after reading Olga's", base_version: 2 })).version).toBe(3);
    // A base that is no version of the flow is a bad request, not a conflict.
    expect((await rest(otto).post(`/api/stitch/flows/${id}/versions`, { graph: ottos, message: "x", base_version: 9 })).status).toBe(400);
  });

  it("a run keeps the version it started on: a save that removes the node it waits at changes nothing for it, and it finishes on its own graph", async () => {
    const id = (await rest(olga).post("/api/stitch/flows", { name: "pinned", graph: twoGates })).body.id as string;
    const run = (await rest(ann).post(`/api/stitch/flows/${id}/runs`, { input: { n: 1 } })).body;
    expect(run).toMatchObject({ flow_version: 1, node_states: { A: { status: "waiting_for_user" }, B: { status: "pending" } } });
    const withoutA = graphOf([uxNode("C")]);
    expect((await rest(olga).post(`/api/stitch/flows/${id}/versions`, { graph: withoutA, message: "A is gone", base_version: 1 })).status).toBe(201);

    expect((await rest(rita).post(`/api/stitch/complete/${run.id}/A`, { answer: "yes" })).status).toBe(200);
    expect((await env.api.getRun(run.id)).node_states.B!.status).toBe("waiting_for_user");
    expect((await rest(rita).post(`/api/stitch/complete/${run.id}/B`, { answer: "done" })).status).toBe(200);
    const finished = await env.api.getRun(run.id);
    expect(finished).toMatchObject({ status: "completed", flow_version: 1 });
    expect(Object.keys(finished.node_states).sort()).toEqual(["A", "B"]);
    // Its conversation is told on its own graph too.
    expect(Object.keys((await env.api.get(`/api/stitch/runs/${run.id}/conversation`)).body.nodes).sort()).toEqual(["A", "B"]);

    // A new run takes the latest version, or the one asked for; a version the flow does not have is refused.
    expect((await rest(ann).post(`/api/stitch/flows/${id}/runs`, {})).body).toMatchObject({ flow_version: 2, node_states: { C: { status: "waiting_for_user" } } });
    expect((await trpcAs(ann).engine.runs.start({ flowId: id, version: 1 })).flow_version).toBe(1);
    expect((await rest(ann).post(`/api/stitch/flows/${id}/runs`, { version: 7 })).status).toBe(404);
    expect(await trpcStatus(trpcAs(ann).engine.runs.start({ flowId: id, version: 7 }))).toBe(404);

    const listed = ((await env.api.get("/api/stitch/flows")).body as { id: string }[]).find((f) => f.id === id);
    expect(listed).toMatchObject({ name: "pinned", version: 2, saved_by: { name: "Olga Operator" }, registered: false, runs_in_progress: 2, last_run: { status: "waiting_for_user", flow_version: 1 } });
  });

  it("operators save, restore and import; analysts and reviewers start runs and read: REST and tRPC answer the same, and each change is audited with the flow's version as its target", async () => {
    const id = (await trpcAs(olga).engine.flows.create({ name: "roles", graph: twoGates })).id;
    const body = (graph: StitchGraph, base: number) => ({ graph, message: "try", base_version: base });
    for (const person of [ann, rita]) {
      expect((await rest(person).post(`/api/stitch/flows/${id}/versions`, body(twoGates, 1))).status).toBe(403);
      expect(await trpcStatus(trpcAs(person).engine.flows.saveVersion({ flowId: id, ...body(twoGates, 1) }))).toBe(403);
      expect((await rest(person).post(`/api/stitch/flows/${id}/versions/1/restore`, { base_version: 1 })).status).toBe(403);
      expect(await trpcStatus(trpcAs(person).engine.flows.restoreVersion({ flowId: id, version: 1, base_version: 1 }))).toBe(403);
      expect((await rest(person).post("/api/stitch/flows", { name: "no", graph: twoGates })).status).toBe(403);
      expect((await rest(person).get(`/api/stitch/flows/${id}/versions`)).status).toBe(200);
      expect(await trpcStatus(trpcAs(person).engine.flows.diff({ flowId: id, from: 0, to: 1 }))).toBe(200);
    }
    // Roles are ranked (a reviewer may do all an analyst may, docs/people.md "Roles"): both start runs, by both doors.
    for (const person of [ann, rita]) {
      expect((await rest(person).post(`/api/stitch/flows/${id}/runs`, {})).status).toBe(201);
      expect(await trpcStatus(trpcAs(person).engine.runs.start({ flowId: id }))).toBe(200);
    }

    expect((await rest(olga).post(`/api/stitch/flows/${id}/versions`, body(graphOf([uxNode("X")]), 1))).status).toBe(201);
    await trpcAs(otto).engine.flows.saveVersion({ flowId: id, ...body(graphOf([uxNode("Y")]), 2), origin: "import" });
    await trpcAs(olga).engine.flows.restoreVersion({ flowId: id, version: 1, base_version: 3 });
    expect((await rest(otto).post(`/api/stitch/flows/${id}/versions/2/restore`, { base_version: 4, message: "X again" })).status).toBe(201);
    expect((await env.api.get(`/api/stitch/flows/${id}/versions/3`)).body).toMatchObject({ origin: "import", author: { name: "Otto Operator" } });

    const accepted = (entries: { outcome: string; target_id: string }[]) => entries.filter((e) => e.outcome === "accepted" && e.target_id.startsWith(id));
    expect(accepted(await audit("engine.flows.saveVersion"))).toEqual([
      { actor_name: "Olga Operator", outcome: "accepted", target_kind: "flow_version", target_id: `${id}@2` },
      { actor_name: "Otto Operator", outcome: "accepted", target_kind: "flow_version", target_id: `${id}@3` },
    ]);
    expect(accepted(await audit("engine.flows.restoreVersion"))).toEqual([
      { actor_name: "Olga Operator", outcome: "accepted", target_kind: "flow_version", target_id: `${id}@4` },
      { actor_name: "Otto Operator", outcome: "accepted", target_kind: "flow_version", target_id: `${id}@5` },
    ]);
    // The refusals are in the trail too, from both doors.
    const refused = (await audit("engine.flows.saveVersion")).filter((e) => e.outcome === "refused" && e.target_id === id);
    expect(refused.map((e) => e.actor_name).sort()).toEqual(["Ann Analyst", "Ann Analyst", "Rita Reviewer", "Rita Reviewer"]);
  });

  it("a flow a front door registered is not the designer's: saving a version of it is refused", async () => {
    const registered = ((await env.api.get("/api/stitch/flows")).body as { id: string; registered: boolean }[]).find((f) => f.registered);
    expect(registered).toBeDefined();
    const refused = await rest(olga).post(`/api/stitch/flows/${registered!.id}/versions`, { graph: twoGates, message: "mine now", base_version: 1 });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/registered by a front door/);
  });

  it("a graph with problems is refused as a version, each problem listed on its node; the flow keeps its versions", async () => {
    const id = (await rest(olga).post("/api/stitch/flows", { name: "problems", graph: twoGates })).body.id as string;
    const bad = graphOf([uxNode("A"), { id: "S", type: "Splitter", position: { x: 0, y: 0 }, data: {} }], chain("A", "S"));
    const refused = await rest(olga).post(`/api/stitch/flows/${id}/versions`, { graph: bad, message: "bad", base_version: 1 });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: "invalid_graph", problems: [{ node_id: "S", field: "arrayPath" }] });
    expect((await env.api.get(`/api/stitch/flows/${id}/versions`)).body).toHaveLength(1);
  });
});
