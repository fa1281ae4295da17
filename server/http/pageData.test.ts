/**
 * The answers an app page carries (server/trpc/pageQueries.ts, embedded by webAppRoutes.ts): a run's page, asked for
 * by a signed-in reviewer (session cookie or bearer token), carries who is signed in and that run's conversation,
 * change marker and agents, each exactly what the same person's own tRPC call answers; the session's CSRF token only
 * masked, anew each time. Nothing for someone not signed in, nothing of a run that cannot be read, text written by
 * people kept inert inside the page, and the page kept by no shared cache. Drawn on the server from those answers
 * (web/src/serverRender.tsx) when the app is given its drawing. On the real app (createApp) over a build
 * of its own.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import type { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../app";
import { testDatabases } from "../testing/databases";
import { type TestPerson, createPerson } from "../testing/people";
import { type ServerOnTestDatabase, serverOn } from "../testing/suite";
import { eventually } from "../testing/workerServer";
import type { GuardEnv } from "./guard";
import { SESSION_COOKIE } from "./guard";
import { pageDataElementId } from "./webAppRoutes";
import { renderApp } from "../../web/src/serverRender";

const index = `<!doctype html><html><head><script type="module" src="/assets/index-Ab12.js"></script></head><body><div id="root"></div></body></html>`;
/** A brief that would end the element and run a script, were it not escaped. */
const brief = "A lending library for tools </script><script>alert('owned')</script> <!-- and a \u2028 line separator & more.";

interface Embedded {
  queries: { path: string; input?: unknown; data: unknown }[];
  csrf: string | null;
}

/** The element's JSON in a page, or null without one. */
function embedded(html: string): Embedded | null {
  const found = new RegExp(`<script type="application/json" id="${pageDataElementId}">(.*?)</script>`, "s").exec(html);
  return found ? (JSON.parse(found[1]!) as Embedded) : null;
}

function unmask(csrf: string): string {
  const [pad, masked] = csrf.split(".").map((hex) => Buffer.from(hex, "hex"));
  return Buffer.from(masked!.map((byte, i) => byte ^ pad![i]!)).toString("utf8");
}

describe.each(testDatabases)("the answers an app page carries on $name", (testDatabase) => {
  let env: ServerOnTestDatabase;
  let app: Hono<GuardEnv>;
  let root: string;
  let reviewer: TestPerson;
  let session: { cookie: string; csrfToken: string };
  let runId: string;

  beforeAll(async () => {
    env = await serverOn(testDatabase);
    root = mkdtempSync(join(tmpdir(), "stitch-page-data-"));
    writeFileSync(join(root, "index.html"), index);
    app = createApp(env.server, { webRoot: root });
    reviewer = await createPerson(env.server.people, "Rita Ramos", "reviewer");
    const signedIn = await env.server.people.commands.signIn({ email: reviewer.email, password: reviewer.password }, { address: "127.0.0.1", userAgent: "test" });
    session = { cookie: `${SESSION_COOKIE}=${signedIn.token}`, csrfToken: signedIn.csrfToken };
    runId = (await env.api.post("/runs", { domain: "tools", brief })).body.run_id;
    // Read once the output waits, so nothing moves between the page's reads and the ones compared with them.
    await eventually(async () => ((await env.api.get(`/runs/${runId}`)).body.is_waiting_for_user ? true : undefined), 30_000, "the requirements output");
  });
  afterAll(async () => {
    await env?.api.post(`/runs/${runId}/cancel`, {});
    await env?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  const page = (path: string, headers: Record<string, string> = {}) => app.request(path, { headers });
  /** What the person's own tRPC query answers (the app's GET), as JSON. */
  const own = async (path: string, input: unknown, headers: Record<string, string>) => {
    const answer = await app.request(`/trpc/${path}${input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`}`, { headers });
    expect(answer.status, path).toBe(200);
    return ((await answer.json()) as { result: { data: unknown } }).result.data;
  };

  it("a run's page carries, for a reviewer signed in with a session, exactly what their own reads answer", async () => {
    const headers = { cookie: session.cookie };
    const answer = await page(`/app/runs/${encodeURIComponent(runId)}`, headers);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("private, no-cache");
    expect(answer.headers.get("vary")).toMatch(/Cookie, Authorization/);
    const html = await answer.text();
    const data = embedded(html)!;
    expect(data.queries.map((q) => q.path).sort()).toEqual(["auth.status", "pipeline.agents", "pipeline.changes", "pipeline.conversation"]);
    for (const query of data.queries) {
      const expected = await own(query.path, query.input, headers);
      // The CSRF token is not in the page as it is: auth.status is carried without it, and the token masked beside.
      if (query.path === "auth.status") expect(query.data).toEqual({ ...(expected as object), csrfToken: null });
      else expect(query.data, query.path).toEqual(expected);
    }
    expect(data.queries.find((q) => q.path === "pipeline.conversation")!.input).toEqual({ runId });
    expect(data.queries.find((q) => q.path === "auth.status")!.data).toMatchObject({ me: { name: "Rita Ramos", role: "reviewer", via: "session" } });
    expect(unmask(data.csrf!)).toBe(session.csrfToken);
    expect(html).not.toContain(session.csrfToken);
    // Masked anew for each page: the same secret never stands twice in a compressed answer.
    const again = embedded(await (await page(`/app/runs/${encodeURIComponent(runId)}`, headers)).text())!;
    expect(again.csrf).not.toBe(data.csrf);
    expect(unmask(again.csrf!)).toBe(session.csrfToken);
  });

  it("text people wrote stays inert inside the page, and reads back as written", async () => {
    const html = await (await page(`/app/runs/${encodeURIComponent(runId)}`, { cookie: session.cookie })).text();
    const element = html.slice(html.indexOf(`id="${pageDataElementId}"`));
    // One </script>, the element's own; no <script> or <!-- opened inside it.
    expect(element.match(/<\/script/gi)).toHaveLength(1);
    expect(element).not.toMatch(/<script|<!--|\u2028/i);
    const conversation = embedded(html)!.queries.find((q) => q.path === "pipeline.conversation")!.data as { turns: { kind: string; body: { value?: unknown } }[] };
    expect(conversation.turns.find((t) => t.kind === "input")!.body.value).toBe(brief);
  });

  it("with a bearer token, the page carries the same answers, and no CSRF token (none is needed)", async () => {
    const headers = { authorization: `Bearer ${reviewer.token}` };
    const data = embedded(await (await page(`/app/runs/${encodeURIComponent(runId)}`, headers)).text())!;
    expect(data.csrf).toBeNull();
    expect(data.queries.find((q) => q.path === "pipeline.conversation")!.data).toEqual(await own("pipeline.conversation", { runId }, headers));
    expect(data.queries.find((q) => q.path === "auth.status")!.data).toMatchObject({ me: { name: "Rita Ramos", via: "token" }, csrfToken: null });
  });

  it("carries nothing for someone not signed in, nor for a session that ended or a token that is not one", async () => {
    const ended = await env.server.people.commands.signIn({ email: reviewer.email, password: reviewer.password }, { address: "127.0.0.1", userAgent: "test" });
    await env.server.people.commands.signOut(await env.server.people.queries.identify({ session: ended.token, bearer: undefined }));
    for (const headers of [{}, { cookie: `${SESSION_COOKIE}=${ended.token}` }, { cookie: `${SESSION_COOKIE}=not-a-session` }, { authorization: "Bearer not-a-token" }] as Record<string, string>[]) {
      const answer = await page(`/app/runs/${encodeURIComponent(runId)}`, headers);
      expect(answer.status).toBe(200);
      const html = await answer.text();
      expect(html, JSON.stringify(headers)).toBe(index);
      expect(answer.headers.get("cache-control")).toBe("private, no-cache");
      expect(answer.headers.get("vary")).toMatch(/Cookie, Authorization/);
    }
  });

  it("carries nothing of a run that cannot be read: the app asks, and shows that answer", async () => {
    const data = embedded(await (await page("/app/runs/RUN_nothing_here", { cookie: session.cookie })).text())!;
    // Who is signed in and the pipeline's agents (no run's), but neither a conversation nor a marker.
    expect(data.queries.map((q) => q.path)).toEqual(["auth.status", "pipeline.agents"]);
    // Only the route's own reads: another page carries who is signed in only.
    const people = embedded(await (await page("/app/people", { cookie: session.cookie })).text())!;
    expect(people.queries.map((q) => q.path)).toEqual(["auth.status"]);
  });

  it("is drawn on the server from the answers it carries: the conversation in #root, inert, the brief escaped", async () => {
    const drawn = createApp(env.server, { webRoot: root, drawing: Promise.resolve(renderApp) });
    const html = await (await drawn.request(`/app/runs/${encodeURIComponent(runId)}`, { headers: { cookie: session.cookie } })).text();
    const at = html.indexOf('<div id="root"><div class="server-drawn" inert>');
    expect(at).toBeGreaterThan(0);
    const picture = html.slice(at, html.indexOf(`<script type="application/json" id="${pageDataElementId}">`));
    // The brief as written, as text: its "</script><script>" escaped, so nothing in it runs or ends an element.
    expect(picture).toContain("A lending library for tools &lt;/script&gt;&lt;script&gt;alert(&#x27;owned&#x27;)&lt;/script&gt;");
    expect(picture).not.toMatch(/<script/i);
    expect(picture).toContain('aria-label="Requirements output, version 1"');
    expect(picture).toContain("Rita Ramos");
    // The answers it was drawn from are carried as before, for the app's own first render.
    expect(embedded(html)!.queries).toHaveLength(4);
    // No one signed in: neither answers nor a drawing.
    expect(await (await drawn.request(`/app/runs/${encodeURIComponent(runId)}`)).text()).toBe(index);
  });

  it("is compressed for a browser that accepts gzip", async () => {
    const answer = await page(`/app/runs/${encodeURIComponent(runId)}`, { cookie: session.cookie, "accept-encoding": "gzip, br" });
    expect(answer.headers.get("content-encoding")).toBe("gzip");
    expect(answer.headers.get("vary")).toMatch(/Accept-Encoding/);
    const html = gunzipSync(Buffer.from(await answer.arrayBuffer())).toString("utf8");
    expect(embedded(html)!.queries).toHaveLength(4);
  });
});
