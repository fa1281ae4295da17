/**
 * PIPELINE_CALLBACK_SECRET: the callback_url the pipeline gives an agent carries a token bound to the run, the agent
 * and the call, and `POST /callbacks/agent/{slug}` refuses (401, nothing stored) a callback without it, with another
 * run's or agent's token, or a forged one; an earlier call's token is stale (409). An agent that posts to the
 * callback_url it was given (n8n, the built-in agents) needs no change. The probe this answers: a forged callback
 * right after `POST /runs` was stored as version 1, even with STITCH_CALLBACK_SECRET set.
 * Also: the built-in agents call back only to this server's callback path for the agent called.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeN8n, startFakeN8n } from "../testing/fakeN8n";
import { testDatabases } from "../testing/databases";
import type { StitchClient } from "../testing/stitchClient";
import { type ServerOnTestDatabase, serverOn } from "../testing/suite";
import { eventually, postJson } from "../testing/workerServer";
import { agentCallbackToken } from "./protocol";

const SECRET = "a-pipeline-callback-secret-of-some-length";
const secrets = { PIPELINE_CALLBACK_SECRET: SECRET, STITCH_CALLBACK_SECRET: "an-engine-callback-secret-too" };
const brief = "A mobile wallet that lets street vendors accept QR payments and see daily totals.";
const output = (label: string) => ({ artifact: { problem_statement_refined: label }, changes_made: [], justification: label });

async function waitForStatus(api: StitchClient, runId: string, status: string): Promise<void> {
  await eventually(async () => ((await api.get(`/runs/${runId}`)).body.status === status ? true : undefined), 20_000, `run ${runId} to reach ${status}`);
}

describe.each(testDatabases)("agent callback tokens on $name", (testDatabase) => {
  describe("with n8n agents", () => {
    let env: ServerOnTestDatabase;
    let n8n: FakeN8n;
    let base: string;

    beforeAll(async () => {
      n8n = await startFakeN8n(() => base);
      env = await serverOn(testDatabase, { N8N_BASE_URL: n8n.url, ...secrets });
      base = env.server.url;
    });
    afterAll(async () => {
      await env?.close();
      await n8n?.close();
    });

    const callback = (slug: string, token: string | undefined, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${base}/callbacks/agent/${slug}${token === undefined ? "" : `?token=${token}`}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: typeof body === "string" ? body : JSON.stringify(body),
      }).then(async (response) => ({ status: response.status, body: (await response.json()) as { error?: string; message?: string; version?: number } }));

    it("the callback_url carries the token of the run, the agent and the call, and n8n posting to it completes the agent", async () => {
      const created = await env.api.post("/runs", { domain: "fintech", brief });
      const runId = created.body.run_id as string;
      const call = (await n8n.waitForCalls(1)).find((c) => c.body.run_id === runId)!;
      expect(call.body.callback_url).toBe(`${base}/callbacks/agent/requirements?call=1&token=${agentCallbackToken(SECRET, runId, "requirements", 1)}`);
      await waitForStatus(env.api, runId, "WAITING_APPROVAL_REQUIREMENTS");
    });

    it("refuses a forged callback sent right after POST /runs (401, nothing stored); the agent's own answer is version 1", async () => {
      n8n.style.requirements = "held";
      const calls = n8n.calls.length;
      const runId = (await env.api.post("/runs", { domain: "fintech", brief })).body.run_id as string;
      await n8n.waitForCalls(calls + 1);
      const forged = { run_id: runId, content: output("forged") };

      const missing = await callback("requirements", undefined, forged);
      expect(missing).toMatchObject({ status: 401, body: { error: "unauthorized", message: expect.stringContaining("token") } });
      expect((await callback("requirements", agentCallbackToken("not-the-secret-at-all", runId, "requirements", 1), forged)).status).toBe(401);
      expect((await callback("requirements", agentCallbackToken(SECRET, "RUN_1700000000000abcdef", "requirements", 1), forged)).status).toBe(401);
      expect((await callback("requirements", agentCallbackToken(SECRET, runId, "qa", 1), forged)).status).toBe(401);
      expect((await callback("qa", agentCallbackToken(SECRET, runId, "requirements", 1), { run_id: runId, content: output("qa") })).status).toBe(401);
      expect((await callback("requirements", agentCallbackToken(SECRET, runId, "requirements", 2), forged)).status).toBe(401);
      // A run that does not exist is not told apart from one whose token is wrong; a malformed body without a token is a 401 too.
      expect((await callback("requirements", "x".repeat(43), { run_id: "RUN_nope", content: output("x") })).status).toBe(401);
      expect((await callback("requirements", undefined, "{not json")).status).toBe(401);
      // A person's bearer token is no callback token.
      expect((await callback("requirements", undefined, forged, { authorization: `Bearer ${env.api.token}` })).status).toBe(401);

      expect((await env.api.get(`/runs/${runId}/artifacts`)).body).toEqual([]);
      expect((await env.api.get(`/runs/${runId}`)).body.status).toBe("IN_PROGRESS_REQUIREMENTS");

      n8n.style.requirements = "preferred";
      await n8n.release();
      await waitForStatus(env.api, runId, "WAITING_APPROVAL_REQUIREMENTS");
      const stored = (await env.api.get(`/runs/${runId}/artifacts`)).body as { version: number; content: { justification: string } }[];
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatchObject({ version: 1, content: { justification: expect.stringContaining("requirements round 1") } });
    });

    it("after a rejection the agent is called anew: the earlier call's token is stale (409), the new one is taken (also as a bearer token)", async () => {
      const calls = n8n.calls.length;
      const runId = (await env.api.post("/runs", { domain: "fintech", brief })).body.run_id as string;
      await n8n.waitForCalls(calls + 1);
      await waitForStatus(env.api, runId, "WAITING_APPROVAL_REQUIREMENTS");

      n8n.style.requirements = "none";
      expect((await env.api.post(`/runs/${runId}/reject`, { feedback: "Add offline payments" })).status).toBe(200);
      const again = (await n8n.waitForCalls(calls + 2)).at(-1)!;
      n8n.style.requirements = "preferred";
      expect(again.body).toMatchObject({ run_id: runId, is_feedback: true });
      expect(again.body.callback_url).toBe(`${base}/callbacks/agent/requirements?call=2&token=${agentCallbackToken(SECRET, runId, "requirements", 2)}`);

      const stale = await callback("requirements", agentCallbackToken(SECRET, runId, "requirements", 1), { run_id: runId, content: output("late") });
      expect(stale).toMatchObject({ status: 409, body: { message: expect.stringContaining("earlier call") } });
      const fresh = await callback("requirements", undefined, { run_id: runId, content: output("revised") }, { authorization: `Bearer ${agentCallbackToken(SECRET, runId, "requirements", 2)}` });
      expect(fresh).toMatchObject({ status: 200, body: { version: 2 } });
      await waitForStatus(env.api, runId, "WAITING_APPROVAL_REQUIREMENTS");
    });
  });

  describe("with the built-in agents", () => {
    let env: ServerOnTestDatabase;
    let base: string;
    beforeAll(async () => {
      env = await serverOn(testDatabase, secrets);
      base = env.server.url;
    });
    afterAll(async () => {
      await env?.close();
    });

    it("refuse (400, before any work) a callback_url that is not this server's callback path of the agent called", async () => {
      const callAt = (callback_url: string) =>
        postJson(`${base}/api/agents/builtin/requirements`, { run_id: "RUN_1700000000000abcdef", context: { domain: "fintech", brief }, is_feedback: false, feedback: "", callback_url });
      for (const url of [
        "http://127.0.0.1:9/collect",
        `${base}/callbacks/agent/qa`,
        `${base}/runs/RUN_1700000000000abcdef/cancel`,
        `${base}/callbacks/agent/requirements?token=abc&next=elsewhere`,
        `${base}/callbacks/agent/requirements#fragment`,
        `${base.replace("127.0.0.1", "localhost")}/callbacks/agent/requirements`,
        `http://someone@${base.slice("http://".length)}/callbacks/agent/requirements`,
      ]) {
        const answer = await callAt(url);
        expect(answer.status, url).toBe(400);
        expect((answer.body as { message: string }).message).toContain(`only to ${base}/callbacks/agent/requirements`);
      }
      // Accepted: its answer is refused by the callback route (no such run), while the next test runs.
      expect((await callAt(`${base}/callbacks/agent/requirements?token=abc`)).status).toBe(202);
    });

    it("they call back with the token of the callback_url they were given", async () => {
      const runId = (await env.api.post("/runs", { domain: "fintech", brief })).body.run_id as string;
      await waitForStatus(env.api, runId, "WAITING_APPROVAL_REQUIREMENTS");
      expect((await env.api.get(`/runs/${runId}/artifacts`)).body).toHaveLength(1);
    });
  });
});
