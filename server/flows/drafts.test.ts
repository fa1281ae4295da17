/**
 * Issue 42, nothing typed is lost: each person's draft of a flow is kept server-side as it changes, problems and all,
 * survives a restart, and is hers alone; a new flow's draft is kept under the id its first save creates the flow
 * with; a save that holds exactly the draft's graph discards it, and "Discard draft" removes it.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabases } from "../testing/databases";
import { chain, graphOf, uxNode, workerNode } from "../testing/flows";
import { type TestServer, startTestServer } from "../testing/harness";
import { type TestPerson, createPerson } from "../testing/people";
import { type ReopenableDatabase, createReopenableDatabase } from "../testing/reopenableDatabase";
import { StitchClient } from "../testing/stitchClient";

describe.each(testDatabases)("flow drafts on $name", (testDatabase) => {
  let store: ReopenableDatabase;
  let server: TestServer | undefined;
  let olga: TestPerson;
  let otto: TestPerson;
  let ann: TestPerson;
  const as = (person: TestPerson) => new StitchClient(server!.url, person.token);

  beforeAll(async () => {
    store = await createReopenableDatabase(testDatabase.name);
    server = await startTestServer(await store.open());
    [olga, otto, ann] = await Promise.all([
      createPerson(server.people, "Olga Operator", "operator"),
      createPerson(server.people, "Otto Operator", "operator"),
      createPerson(server.people, "Ann Analyst", "analyst"),
    ]);
  });
  afterAll(async () => {
    await server?.close();
    await store?.destroy();
  });

  it("a draft with problems is kept per person and survives a restart; a new flow's draft becomes the flow at its first save", async () => {
    const flow = (await as(olga).post("/api/stitch/flows", { name: "drafted", graph: graphOf([uxNode("A")]) })).body;
    // A Worker with no webhook yet: a problem, which a draft may have.
    const unfinished = graphOf([uxNode("A"), workerNode("W", "")], chain("A", "W"));
    expect((await as(olga).request("PUT", `/api/stitch/flows/${flow.id}/draft`, { graph: unfinished, base_version: 1 })).body).toMatchObject({
      flow_id: flow.id, name: "drafted", base_version: 1, new_flow: false, graph: unfinished,
    });
    const newId = randomUUID();
    const sketch = graphOf([uxNode("Start")]);
    expect((await as(olga).request("PUT", `/api/stitch/flows/${newId}/draft`, { graph: sketch, base_version: 0 })).status).toBe(400);
    expect((await as(olga).request("PUT", `/api/stitch/flows/${newId}/draft`, { graph: sketch, base_version: 0, name: "Brand new" })).body).toMatchObject({ new_flow: true, name: "Brand new" });
    // Hers alone: Otto has none, and an analyst may keep none.
    expect((await as(otto).get(`/api/stitch/flows/${flow.id}/draft`)).status).toBe(404);
    expect((await as(ann).request("PUT", `/api/stitch/flows/${flow.id}/draft`, { graph: unfinished, base_version: 1 })).status).toBe(403);

    await server!.close();
    server = await startTestServer(await store.open());

    expect((await as(olga).get(`/api/stitch/flows/${flow.id}/draft`)).body).toMatchObject({ graph: unfinished, base_version: 1 });
    expect((await as(olga).get("/api/stitch/drafts")).body.map((d: { flow_id: string }) => d.flow_id).sort()).toEqual([flow.id, newId].sort());

    // The new flow's first save creates it under the draft's id and name, and discards the draft it holds.
    const first = await as(olga).post(`/api/stitch/flows/${newId}/versions`, { graph: sketch, message: "First cut", base_version: 0 });
    expect(first.body).toMatchObject({ flow_id: newId, version: 1, message: "First cut" });
    expect((await as(olga).get(`/api/stitch/flows/${newId}`)).body).toMatchObject({ name: "Brand new", version: 1 });
    expect((await as(olga).get(`/api/stitch/flows/${newId}/draft`)).status).toBe(404);
    // Another person's first save of the same id now finds version 1 there: a conflict, not a second flow.
    expect((await as(otto).post(`/api/stitch/flows/${newId}/versions`, { graph: sketch, message: "Mine", base_version: 0, name: "Also new" })).status).toBe(409);

    // A save of another graph keeps the draft as typed; discarding removes it.
    expect((await as(olga).post(`/api/stitch/flows/${flow.id}/versions`, { graph: graphOf([uxNode("B")]), message: "B", base_version: 1 })).status).toBe(201);
    expect((await as(olga).get(`/api/stitch/flows/${flow.id}/draft`)).body.graph).toEqual(unfinished);
    expect((await as(olga).request("DELETE", `/api/stitch/flows/${flow.id}/draft`)).body).toEqual({ discarded: true });
    expect((await as(olga).request("DELETE", `/api/stitch/flows/${flow.id}/draft`)).body).toEqual({ discarded: false });
    expect((await as(olga).get(`/api/stitch/flows/${flow.id}/draft`)).status).toBe(404);
  });
});
