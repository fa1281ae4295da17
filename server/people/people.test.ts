/**
 * People over HTTP on every test database: the first account, sessions as cookies (HTTP-only, SameSite=Lax, revoked
 * on sign-out), CSRF and cross-site refusals, invitations, roles changed and accounts disabled, personal tokens,
 * sign-in rate limits, the bootstrap token, and the audit trail (in the change's transaction; refusals too; append-only).
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, rows } from "../../db/client";
import { callbackToken } from "../engine/callbackToken";
import { testBootstrapToken } from "../testing/credentials";
import { PeopleQueries } from "./queries";
import { PERSONAL_TOKEN_PREFIX } from "./secrets";
import { testDatabases } from "../testing/databases";
import { type ServerOnTestDatabase, serverOn } from "../testing/suite";

interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

describe.each(testDatabases)("people on $name", (testDatabase) => {
  let env: ServerOnTestDatabase;
  beforeAll(async () => {
    env = await serverOn(testDatabase);
  });
  afterAll(async () => {
    await env?.close();
  });

  /** A browser: keeps the session cookie it is given and sends the CSRF token it was told, like the app. */
  class Browser {
    cookie: string | null = null;
    csrf: string | null = null;
    async call(method: "GET" | "POST", path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
      const response = await fetch(`${env.server.url}${path}`, {
        method,
        headers: {
          ...(method === "POST" ? { "content-type": "application/json" } : {}),
          ...(this.cookie ? { cookie: this.cookie } : {}),
          ...(this.csrf && method === "POST" ? { "x-csrf-token": this.csrf } : {}),
          ...headers,
        },
        body: method === "POST" ? JSON.stringify(body ?? {}) : undefined,
      });
      const setCookie = response.headers.get("set-cookie");
      if (setCookie) this.cookie = setCookie.split(";")[0]!.endsWith("=") ? null : setCookie.split(";")[0]!;
      const text = await response.text();
      const parsed = text ? JSON.parse(text) : null;
      if (parsed && typeof parsed.csrf_token === "string") this.csrf = parsed.csrf_token;
      return { status: response.status, body: parsed, headers: response.headers };
    }
    async trpc(kind: "query" | "mutation", path: string, input?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
      const answer =
        kind === "query"
          ? await this.call("GET", `/trpc/${path}${input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`}`, undefined, headers)
          : await this.call("POST", `/trpc/${path}`, input ?? {}, headers);
      if (answer.status === 200) {
        const data = answer.body.result.data;
        if (data && typeof data === "object" && "csrfToken" in data) this.csrf = data.csrfToken;
        return { ...answer, body: data };
      }
      return answer;
    }
  }

  const audit = (where = sql`true`) =>
    env.database.run((db) => rows<{ action: string; outcome: string; status: number | null; actor_name: string | null; actor_kind: string; target_id: string | null }>(db, sql`
      SELECT action, outcome, status, actor_name, actor_kind, target_id FROM audit_log WHERE ${where} ORDER BY id`));

  let operator: Browser;
  let operatorEmail: string;

  it("first start: the app is told to create the first account, which is an operator; a second is refused", async () => {
    const visitor = new Browser();
    expect((await visitor.trpc("query", "auth.status")).body).toEqual({ needsSetup: true, me: null, csrfToken: null });
    operator = new Browser();
    operatorEmail = "Olga@Example.test";
    const created = await operator.trpc("mutation", "auth.setup", { name: "Olga", email: operatorEmail, password: "correct horse battery" });
    expect(created.status).toBe(200);
    expect(created.body.account).toMatchObject({ name: "Olga", email: "olga@example.test", role: "operator", active: true });
    const cookie = created.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^stitch_session=[\w-]{40,};/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i); // plain http here; https sets Secure
    expect((await operator.trpc("query", "auth.status")).body).toMatchObject({ needsSetup: false, me: { name: "Olga", role: "operator", via: "session" } });
    const again = await new Browser().trpc("mutation", "auth.setup", { name: "Mallory", email: "m@example.test", password: "another long one" });
    expect(again.status).toBe(409);
    expect((await visitor.trpc("query", "auth.status")).body.needsSetup).toBe(false);
  });

  it("a cookie-authenticated change needs the session's CSRF token and this site's origin; JSON only", async () => {
    const brief = { domain: "ops", brief: "A small tool to track on-call handovers between teams." };
    const noCsrf = await operator.call("POST", "/runs", brief, { "x-csrf-token": "" });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.message).toMatch(/x-csrf-token/);
    const crossSite = await operator.call("POST", "/runs", brief, { origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);
    const form = await fetch(`${env.server.url}/runs`, { method: "POST", headers: { cookie: operator.cookie!, "x-csrf-token": operator.csrf!, "content-type": "text/plain" }, body: JSON.stringify(brief) });
    expect(form.status).toBe(415);
    const [runs] = await env.database.run((db) => rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM pipeline_runs`));
    expect(runs!.n).toBe(0);
    const accepted = await operator.call("POST", "/runs", brief);
    expect(accepted.status).toBe(200);
    // Reads need no CSRF token.
    expect((await operator.call("GET", "/runs", undefined, { "x-csrf-token": "" })).status).toBe(200);
  });

  it("invitations: an operator invites with a role; the link sets a password once; the account then signs in", async () => {
    const invited = await operator.trpc("mutation", "accounts.invite", { name: "Ravi", email: "ravi@example.test", role: "reviewer" });
    expect(invited.status).toBe(200);
    expect(invited.body.account).toMatchObject({ role: "reviewer", active: false });
    const token = invited.body.invitationPath.split("/").pop();
    expect((await new Browser().call("POST", "/api/auth/sign-in", { email: "ravi@example.test", password: "whatever it is" })).status).toBe(401);
    const ravi = new Browser();
    const accepted = await ravi.trpc("mutation", "auth.acceptInvitation", { token, password: "ravi's long password" });
    expect(accepted.status).toBe(200);
    expect((await ravi.trpc("query", "auth.status")).body.me).toMatchObject({ name: "Ravi", role: "reviewer" });
    expect((await new Browser().trpc("mutation", "auth.acceptInvitation", { token, password: "hijacked password" })).status).toBe(404);
    const duplicate = await operator.trpc("mutation", "accounts.invite", { name: "Ravi 2", email: "RAVI@example.test", role: "analyst" });
    expect(duplicate.status).toBe(409);
    // An invitation is an operator's: a reviewer is refused, naming the role.
    const refused = await ravi.trpc("mutation", "accounts.invite", { name: "Eve", email: "eve@example.test", role: "operator" });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/operator role/);
  });

  it("invitations: the page reads whom a link invites and whether it works; an operator re-issues a lost one and the old link stops working", async () => {
    const invited = await operator.trpc("mutation", "accounts.invite", { name: "Lena", email: "lena@example.test", role: "analyst" });
    const first = invited.body.invitationPath.split("/").pop();
    const visitor = new Browser();
    expect((await visitor.trpc("query", "auth.invitation", { token: first })).body).toMatchObject({ state: "open", name: "Lena", email: "lena@example.test", role: "analyst" });
    const listed = (await operator.trpc("query", "accounts.list")).body.find((a: { name: string }) => a.name === "Lena");
    expect(listed.invitation_expires_at).toBe(invited.body.expiresAt);

    const reissued = await operator.trpc("mutation", "accounts.reissueInvitation", { accountId: invited.body.account.id });
    expect(reissued.status).toBe(200);
    const second = reissued.body.invitationPath.split("/").pop();
    expect(second).not.toBe(first);
    expect((await visitor.trpc("query", "auth.invitation", { token: first })).status).toBe(404);
    expect((await visitor.trpc("mutation", "auth.acceptInvitation", { token: first, password: "lena's long password" })).status).toBe(404);
    expect((await visitor.trpc("mutation", "auth.acceptInvitation", { token: second, password: "lena's long password" })).status).toBe(200);
    expect((await new Browser().trpc("query", "auth.invitation", { token: second })).body).toMatchObject({ state: "used", name: "Lena" });
    // Active now: nothing to re-issue; and a reviewer may not.
    expect((await operator.trpc("mutation", "accounts.reissueInvitation", { accountId: invited.body.account.id })).status).toBe(409);
    expect((await operator.trpc("query", "accounts.list")).body.find((a: { name: string }) => a.name === "Lena").invitation_expires_at).toBeNull();
    expect((await visitor.trpc("mutation", "accounts.reissueInvitation", { accountId: invited.body.account.id })).status).toBe(403);
  });

  it("signing out ends the session on the server: the same cookie signs no one in again", async () => {
    const ravi = new Browser();
    expect((await ravi.call("POST", "/api/auth/sign-in", { email: "ravi@example.test", password: "ravi's long password" })).status).toBe(200);
    const copied = ravi.cookie!;
    expect((await ravi.call("GET", "/runs")).status).toBe(200);
    ravi.csrf = (await ravi.call("GET", "/api/auth/session")).body.csrfToken;
    expect((await ravi.call("POST", "/api/auth/sign-out")).status).toBe(200);
    const replay = await fetch(`${env.server.url}/runs`, { headers: { cookie: copied } });
    expect(replay.status).toBe(401);
  });

  it("roles change and accounts are disabled by operators; the last operator cannot be demoted or disabled", async () => {
    const accounts = (await operator.trpc("query", "accounts.list")).body as { id: string; name: string }[];
    const ravi = accounts.find((a) => a.name === "Ravi")!;
    const olga = accounts.find((a) => a.name === "Olga")!;
    expect((await operator.trpc("mutation", "accounts.changeRole", { accountId: ravi.id, role: "analyst" })).body).toMatchObject({ role: "analyst" });
    expect((await operator.trpc("mutation", "accounts.changeRole", { accountId: olga.id, role: "analyst" })).status).toBe(409);
    expect((await operator.trpc("mutation", "accounts.disable", { accountId: olga.id })).status).toBe(409);
    const raviBrowser = new Browser();
    await raviBrowser.call("POST", "/api/auth/sign-in", { email: "ravi@example.test", password: "ravi's long password" });
    const token = (await raviBrowser.trpc("mutation", "tokens.create", { name: "ci" })).body.token as string;
    expect(token).toMatch(/^stk_/);
    expect((await fetch(`${env.server.url}/runs`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect((await operator.trpc("mutation", "accounts.disable", { accountId: ravi.id })).body).toMatchObject({ disabled_at: expect.any(String) });
    expect((await raviBrowser.call("GET", "/runs")).status).toBe(401);
    expect((await fetch(`${env.server.url}/runs`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    expect((await new Browser().call("POST", "/api/auth/sign-in", { email: "ravi@example.test", password: "ravi's long password" })).status).toBe(401);
    await operator.trpc("mutation", "accounts.enable", { accountId: ravi.id });
    expect((await fetch(`${env.server.url}/runs`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });

  it("personal tokens: shown once, stored hashed, revocable, acting as their owner", async () => {
    const created = (await operator.trpc("mutation", "tokens.create", { name: "deploy script" })).body as { id: string; token: string };
    const [stored] = await env.database.run((db) => rows<{ token_hash: string }>(db, sql`SELECT token_hash FROM api_tokens WHERE id = ${created.id}`));
    expect(stored!.token_hash).not.toContain(created.token);
    const listed = (await operator.trpc("query", "tokens.list")).body as Record<string, unknown>[];
    expect(JSON.stringify(listed)).not.toContain(created.token);
    const asToken = await fetch(`${env.server.url}/api/auth/session`, { headers: { authorization: `Bearer ${created.token}` } });
    expect(await asToken.json()).toMatchObject({ me: { name: "Olga", role: "operator", via: "token" } });
    await operator.trpc("mutation", "tokens.revoke", { tokenId: created.id });
    const revoked = await fetch(`${env.server.url}/runs`, { headers: { authorization: `Bearer ${created.token}` } });
    expect(revoked.status).toBe(401);
    expect((await revoked.json()).message).toMatch(/not valid/);
    // The token without its prefix is no token: refused the same way.
    const unprefixed = await fetch(`${env.server.url}/runs`, { headers: { authorization: `Bearer ${created.token.slice(PERSONAL_TOKEN_PREFIX.length)}` } });
    expect(unprefixed.status).toBe(401);
    expect((await unprefixed.json()).message).toMatch(/not valid/);
  });

  it("a bearer that is no personal token (a worker's callback token, say) is judged without reading the database", async () => {
    const unreachable = { run: () => Promise.reject(new Error("the database was read")) } as unknown as Database;
    const queries = new PeopleQueries(unreachable, testBootstrapToken);
    expect(await queries.identify({ bearer: callbackToken("a-callback-secret", "run", "node"), session: undefined })).toMatchObject({ kind: "anonymous", problem: expect.stringMatching(/not valid/) });
    expect(await queries.identify({ bearer: testBootstrapToken, session: undefined })).toMatchObject({ kind: "bootstrap" });
    await expect(queries.identify({ bearer: `${PERSONAL_TOKEN_PREFIX}whatever`, session: undefined })).rejects.toThrow("the database was read");
  });

  it("the bootstrap token acts as an operator", async () => {
    const answer = await fetch(`${env.server.url}/api/auth/session`, { headers: { authorization: `Bearer ${testBootstrapToken}` } });
    expect(await answer.json()).toMatchObject({ me: { name: "bootstrap token", role: "operator", via: "bootstrap" } });
  });

  it("sign-in attempts are rate-limited per account: the 11th failure within the window is 429, even with the right password", async () => {
    const target = "olga@example.test";
    for (let i = 0; i < 10; i++) expect((await new Browser().call("POST", "/api/auth/sign-in", { email: target, password: `wrong ${i}` })).status).toBe(401);
    const limited = await new Browser().call("POST", "/api/auth/sign-in", { email: target, password: "correct horse battery" });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ error: "rate_limited", retry_after_seconds: 900 });
    // Another account is not locked out by Olga's attackers (the per-address limit is higher).
    expect((await new Browser().call("POST", "/api/auth/sign-in", { email: "nobody@example.test", password: "x" })).status).toBe(401);
  });

  it("audit: accepted changes in their own transaction, refusals with their status, readable by operators only, append-only", async () => {
    const entries = await audit();
    expect(entries).toContainEqual(expect.objectContaining({ action: "auth.setup", outcome: "accepted", actor_kind: "anonymous" }));
    expect(entries).toContainEqual(expect.objectContaining({ action: "pipeline.createRun", outcome: "accepted", actor_name: "Olga", actor_kind: "account" }));
    expect(entries).toContainEqual(expect.objectContaining({ action: "pipeline.createRun", outcome: "refused", status: 403, actor_name: "Olga" }));
    expect(entries).toContainEqual(expect.objectContaining({ action: "pipeline.createRun", outcome: "refused", status: 415 }));
    expect(entries).toContainEqual(expect.objectContaining({ action: "accounts.invite", outcome: "refused", status: 403, actor_name: "Ravi" }));
    expect(entries).toContainEqual(expect.objectContaining({ action: "auth.signIn", outcome: "refused", status: 429 }));
    expect(entries).toContainEqual(expect.objectContaining({ action: "accounts.disable", outcome: "accepted", actor_name: "Olga" }));
    const page = await fetch(`${env.server.url}/api/audit?action=pipeline.&limit=2`, { headers: { authorization: `Bearer ${testBootstrapToken}` } });
    const body = (await page.json()) as { entries: { action: string }[]; next_before: number | null };
    expect(body.entries).toHaveLength(2);
    expect(body.entries.every((e) => e.action.startsWith("pipeline."))).toBe(true);
    expect(body.next_before).toEqual(expect.any(Number));
    const analystToken = (await operator.trpc("mutation", "accounts.invite", { name: "Ann", email: "ann@example.test", role: "analyst" })).body;
    expect(analystToken.account.role).toBe("analyst");
    const refusalOf = (statement: ReturnType<typeof sql>) => env.database.run((db) => db.execute(statement)).then(() => "applied", (error: Error) => String((error.cause as Error | undefined)?.message ?? error.message));
    expect(await refusalOf(sql`UPDATE audit_log SET outcome = 'accepted'`)).toMatch(/append-only/);
    expect(await refusalOf(sql`DELETE FROM audit_log`)).toMatch(/append-only/);
  });

  it("an accepted change and its audit entry are applied together: a failing write leaves neither", async () => {
    const before = (await audit()).length;
    const [runsBefore] = await env.database.run((db) => rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM stitch_flows`));
    // A graph that does not validate is refused inside the engine: nothing is stored, and the refusal is recorded.
    const refused = await fetch(`${env.server.url}/api/stitch/flows`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${testBootstrapToken}` },
      body: JSON.stringify({ name: "bad", graph: { nodes: [{ id: "A", type: "Nope", data: {} }], edges: [] } }),
    });
    expect(refused.status).toBe(400);
    const [runsAfter] = await env.database.run((db) => rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM stitch_flows`));
    expect(runsAfter!.n).toBe(runsBefore!.n);
    const added = (await audit()).slice(before);
    expect(added).toEqual([expect.objectContaining({ action: "engine.flows.create", outcome: "refused", status: 400, actor_kind: "bootstrap" })]);
  });
});
