/**
 * The instance's policy through both doors: REST (`GET`/`PUT /api/policy`) and tRPC (`policy.get`/`policy.change`)
 * answer the same, with the same rules (anyone signed in reads it, operators change it); a change is audited with what
 * it was and what it became; a bad body is refused with 400 and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerContext, personAs } from "../testing/callerContext";
import { testDatabases } from "../testing/databases";
import { createPerson } from "../testing/people";
import { type ServerOnTestDatabase, serverOn } from "../testing/suite";
import { createCaller } from "../trpc/router";

describe.each(testDatabases)("the instance's policy over REST and tRPC, on $name", (testDatabase) => {
  let env: ServerOnTestDatabase;

  beforeAll(async () => {
    env = await serverOn(testDatabase);
  });
  afterAll(async () => {
    await env?.close();
  });

  it("anyone signed in reads it, through either door alike; a fresh install allows self-approval", async () => {
    const analyst = await createPerson(env.server.people, "Ana Lyst", "analyst");
    const rest = await env.api.as(analyst.token).get("/api/policy");
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({ self_approval: true });
    expect(await createCaller(callerContext(env.server, personAs("Ana Lyst", "analyst"))).policy.get()).toEqual(rest.body);
    expect((await env.api.as(null).get("/api/policy")).status).toBe(401);
  });

  it("only operators change it: a reviewer is refused with 403 naming the role, through either door, and nothing changes", async () => {
    const reviewer = await createPerson(env.server.people, "Rita Ramos", "reviewer");
    const refused = await env.api.as(reviewer.token).request("PUT", "/api/policy", { self_approval: false });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: "forbidden", required_role: "operator", role: "reviewer" });
    await expect(createCaller(callerContext(env.server, personAs("Rita Ramos", "reviewer"))).policy.change({ self_approval: false })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect((await env.api.get("/api/policy")).body).toMatchObject({ self_approval: true });
  });

  it("a body that is not { self_approval: boolean } is refused with 400 and changes nothing", async () => {
    for (const bad of [{ self_approval: "no" }, {}, { self_approval: false, extra: 1 }]) {
      const answer = await env.api.request("PUT", "/api/policy", bad);
      expect(answer.status, JSON.stringify(bad)).toBe(400);
      expect(answer.body).toHaveProperty("error");
    }
    expect((await env.api.get("/api/policy")).body).toMatchObject({ self_approval: true, updated_at: null });
  });

  it("an operator's change is answered as tRPC answers it, recorded in the audit trail with before and after, and changed back the same", async () => {
    const changed = await env.api.request("PUT", "/api/policy", { self_approval: false });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ self_approval: false, updated_by: "bootstrap token" });
    expect(changed.body.updated_at).toEqual(expect.any(String));
    expect(await createCaller(callerContext(env.server, personAs("Olga Operator", "operator"))).policy.get()).toEqual(changed.body);

    const audit = (await env.api.get("/api/audit?action=policy.change&outcome=accepted")).body.entries as { message: string | null }[];
    expect(audit[0]?.message).toContain("true to false");

    const back = await createCaller(callerContext(env.server, personAs("Olga Operator", "operator"))).policy.change({ self_approval: true });
    expect(back).toMatchObject({ self_approval: true, updated_by: "Olga Operator" });
    expect((await env.api.get("/api/policy")).body).toEqual(back);
  });
});
