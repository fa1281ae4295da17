/**
 * Who may do what, over both doors, on every test database: for every REST operation and every tRPC procedure a
 * person calls, no credentials is 401 and a role that may not is 403 (each naming the role needed), the role that may
 * gets past the door, and no refusal changes anything but the audit trail, which records each refused change.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rows } from "../../db/client";
import { roleAllows } from "../people/roles";
import type { Role } from "../people/schemas";
import { appRouter } from "../trpc/router";
import { testDatabases } from "../testing/databases";
import { type TestPerson, createPerson } from "../testing/people";
import { type ServerOnTestDatabase, serverOn } from "../testing/suite";
import { accessRules } from "./access";
import { trpcEndpoint } from "./paths";

const roles: Role[] = ["analyst", "reviewer", "operator"];
const placeholder = "00000000-0000-4000-8000-000000000000";
/** What each tRPC procedure needs, read from the procedures' own doors by calling them (see below). */
const openProcedures = new Set(["auth.status", "auth.setup", "auth.signIn", "auth.acceptInvitation", "auth.invitation", "auth.signOut"]);

const watchedTables = [
  "stitch_flows",
  "stitch_runs",
  "stitch_node_states",
  "stitch_run_events",
  "stitch_dispatches",
  "pipeline_runs",
  "pipeline_artifacts",
  "pipeline_events",
  "workflow_definitions",
  "workflow_runs",
  "workflow_turns",
  "accounts",
  "api_tokens",
  "invitations",
  "notification_subscriptions",
  "notification_events",
  "webhook_deliveries",
  "email_outbox",
];

describe.each(testDatabases)("roles at every door on $name", (testDatabase) => {
  let env: ServerOnTestDatabase;
  const people = {} as Record<Role, TestPerson>;

  beforeAll(async () => {
    env = await serverOn(testDatabase);
    for (const role of roles) people[role] = await createPerson(env.server.people, `${role} person`, role);
  });
  afterAll(async () => {
    await env?.close();
  });

  /** Row counts of every table a refusal could touch (the audit trail aside), and the newest row of each run table. */
  const snapshot = async () => {
    const existing = await env.database.run((db) => rows<{ table_name: string }>(db, sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`));
    const names = new Set(existing.map((r) => r.table_name));
    const counts: Record<string, number> = {};
    for (const table of watchedTables.filter((t) => names.has(t))) {
      const [row] = await env.database.run((db) => rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)}`));
      counts[table] = row!.n;
    }
    const [runs] = await env.database.run((db) => rows<{ s: string }>(db, sql`SELECT coalesce(string_agg(id::text || status || updated_at::text, ',' ORDER BY id), '') AS s FROM stitch_runs`));
    return { counts, runs: runs!.s };
  };
  const refusedEntries = async () => {
    const [row] = await env.database.run((db) => rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM audit_log WHERE outcome = 'refused'`));
    return row!.n;
  };

  const send = (method: string, path: string, token: string | null, body?: unknown) =>
    fetch(`${env.server.url}${path}`, {
      method,
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: method === "GET" ? undefined : JSON.stringify(body ?? {}),
    });
  const urlOf = (pattern: string) => pattern.replace(/:(\w+)/g, placeholder);

  it("REST: no credentials 401, a lesser role 403, each naming the role; nothing changes but the audit trail", async () => {
    const before = await snapshot();
    const refusedBefore = await refusedEntries();
    let changes = 0;
    for (const rule of accessRules) {
      const admits = rule.admits;
      if (typeof admits !== "object" || !("role" in admits)) continue;
      const path = urlOf(rule.path.pattern);
      const anonymous = await send(rule.method, path, null);
      expect(anonymous.status, `${rule.method} ${path} without credentials`).toBe(401);
      expect(await anonymous.json()).toMatchObject({ error: "unauthorized", required_role: admits.role });
      for (const role of roles.filter((r) => !roleAllows(r, admits.role))) {
        const refused = await send(rule.method, path, people[role].token);
        expect(refused.status, `${rule.method} ${path} as ${role}`).toBe(403);
        expect(await refused.json()).toMatchObject({ error: "forbidden", required_role: admits.role, role });
      }
      if (rule.action) changes += 1 + roles.filter((r) => !roleAllows(r, admits.role)).length;
    }
    expect(await snapshot()).toEqual(before);
    expect((await refusedEntries()) - refusedBefore).toBe(changes);
  });

  it("REST: the role that may gets past the door (the route then answers for itself)", async () => {
    for (const rule of accessRules) {
      const admits = rule.admits;
      if (typeof admits !== "object" || !("role" in admits)) continue;
      const answer = await send(rule.method, urlOf(rule.path.pattern), people[admits.role].token);
      expect([401, 403], `${rule.method} ${rule.path.pattern} as ${admits.role}`).not.toContain(answer.status);
    }
  });

  it("REST: open doors and callback doors need no person", async () => {
    expect((await send("GET", "/health", null)).status).toBe(200);
    expect((await send("GET", "/openapi.json", null)).status).toBe(200);
    // A worker's callback is judged by the engine (an unknown run here), not refused for want of a session.
    expect((await send("POST", `/api/stitch/callback/${placeholder}/A`, null, { status: "completed", output: 1 })).status).toBe(404);
  });

  const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { type: "query" | "mutation" | "subscription" } }>);

  /** Calls a procedure over HTTP as tRPC's client does, with an input no procedure accepts, so a pass changes nothing. */
  const callProcedure = (path: string, type: string, token: string | null) =>
    type === "query"
      ? send("GET", `${trpcEndpoint}/${path}?input=${encodeURIComponent(JSON.stringify({ runId: placeholder, id: placeholder }))}`, token)
      : send("POST", `${trpcEndpoint}/${path}`, token, { runId: placeholder, nodeId: "A", accountId: placeholder, tokenId: placeholder });

  it("tRPC: every procedure but signing in needs a caller, and the ones past an analyst's role answer 403 to an analyst", async () => {
    const before = await snapshot();
    const needs: Record<string, Role> = {};
    for (const [path, procedure] of procedures) {
      const anonymous = await callProcedure(path, procedure._def.type, null);
      if (openProcedures.has(path)) {
        expect(anonymous.status, path).not.toBe(401);
        continue;
      }
      expect(anonymous.status, `${path} without credentials`).toBe(401);
      const body = (await anonymous.json()) as { error: { data: { refusalDetails: { required_role: Role } } } };
      needs[path] = body.error.data.refusalDetails.required_role;
      for (const role of roles.filter((r) => !roleAllows(r, needs[path]!))) {
        expect((await callProcedure(path, procedure._def.type, people[role].token)).status, `${path} as ${role}`).toBe(403);
      }
      expect([401, 403], `${path} as ${needs[path]}`).not.toContain((await callProcedure(path, procedure._def.type, people[needs[path]!].token)).status);
    }
    expect(await snapshot()).toEqual(before);
    // The roles the issue names, at the procedures that carry them.
    expect(needs).toMatchObject({
      "pipeline.createRun": "analyst",
      "pipeline.approve": "reviewer",
      "pipeline.reject": "reviewer",
      "pipeline.retry": "operator",
      "pipeline.cancel": "analyst",
      "pipeline.editBrief": "analyst",
      "pipeline.export": "analyst",
      "engine.flows.create": "operator",
      "engine.runs.completeNode": "reviewer",
      "workflows.register": "operator",
      "workflows.start": "analyst",
      "workflows.approve": "reviewer",
      "steps.register": "operator",
      "steps.start": "analyst",
      "accounts.invite": "operator",
      "audit.list": "operator",
      "tokens.create": "analyst",
    });
  });
});
