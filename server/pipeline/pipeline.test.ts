/**
 * The agent pipeline end to end over HTTP (agent-pipeline-backend.md sections 3-12): a real server on each test
 * database, a real HTTP stand-in for n8n, six agents, reject-with-feedback, approve to COMPLETED, export, bundle.
 */
import { unzipSync, strFromU8 } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { asTestOperator } from "../testing/credentials";
import { type FakeN8n, startFakeN8n } from "../testing/fakeN8n";
import { createPerson } from "../testing/people";
import { type TestServer, startTestServer } from "../testing/harness";
import { testDatabases } from "../testing/databases";
import { eventually, getJson, postJson } from "../testing/workerServer";

const brief = "A mobile wallet that lets street vendors accept QR payments and see daily totals.";
const order = ["requirements", "inception", "agile", "diagramacion", "pseudocodigo", "qa"];
/** Seed section 6: the context each agent receives. */
const expectedContext: Record<string, string[]> = {
  requirements: ["brief", "domain"],
  inception: ["brief", "domain", "requirements"],
  agile: ["inception", "requirements"],
  diagramacion: ["agile", "inception", "requirements"],
  pseudocodigo: ["agile", "diagramacion", "requirements"],
  qa: ["agile", "diagramacion", "inception", "pseudocodigo", "requirements"],
};

interface RunView { run_id: string; status: string; is_waiting_for_user: boolean; current_agent: { slug: string } | null; failure: string | null }

async function statusOf(base: string, runId: string): Promise<RunView> {
  return (await getJson(`${base}/runs/${runId}`)).body as RunView;
}

async function waitForStatus(base: string, runId: string, status: string): Promise<RunView> {
  return eventually(async () => {
    const run = await statusOf(base, runId);
    return run.status === status ? run : undefined;
  }, 20_000, `run ${runId} to reach ${status}`);
}

describe.each(testDatabases)("agent pipeline on $name", (db) => {
  /** Each server gets its own fresh database (closing a server closes its database). */
  const drops: (() => Promise<void>)[] = [];
  async function freshDatabase(): Promise<Database> {
    const opened = await db.open();
    drops.push(opened.drop);
    return opened.database;
  }
  afterAll(async () => {
    for (const drop of drops) await drop();
  });

  describe("with n8n agents (sections 3-12 over HTTP)", () => {
    let server: TestServer;
    let n8n: FakeN8n;

    beforeAll(async () => {
      let base = "";
      n8n = await startFakeN8n(() => base);
      server = await startTestServer(await freshDatabase(), { N8N_BASE_URL: n8n.url });
      base = server.url;
    });
    afterAll(async () => {
      await server.close().catch(() => undefined);
      await n8n.close();
    });

    it("runs six agents with a reject-and-feedback round, approves to COMPLETED and exports", async () => {
      const base = server.url;

      // 7.4: the pipeline in order, with the seed's webhook paths appended to N8N_BASE_URL.
      const agents = (await getJson(`${base}/agents`)).body as { slug: string; webhook_url: string; order: number }[];
      expect(agents.map((a) => a.slug)).toEqual(order);
      expect(agents[0]!.webhook_url).toBe(`${n8n.url}/webhook/brief-to-requirements`);
      expect(agents[2]!.webhook_url).toBe(`${n8n.url}/webhook/HU`);
      // The seed's `{status: "ok"}`, and whether the database answers.
      expect((await getJson(`${base}/health`)).body).toEqual({ status: "ok", database: "up" });

      // Bad input is refused and creates nothing.
      const before = ((await getJson(`${base}/runs`)).body as unknown[]).length;
      const short = await postJson(`${base}/runs`, { domain: "fintech", brief: "too short" });
      expect(short.status).toBe(422);
      expect(JSON.stringify(short.body)).toContain("brief");
      expect(((await getJson(`${base}/runs`)).body as unknown[]).length).toBe(before);

      // 7.2: create; the first agent is triggered.
      n8n.style.requirements = "wrapped"; // 7.5: the `{ body: {...} }` wrapper some n8n set-ups send
      const created = await postJson(`${base}/runs`, { domain: "fintech", brief });
      expect(created.status).toBe(200);
      const runId = (created.body as RunView).run_id;
      expect(runId).toMatch(/^RUN_/);
      expect(["IN_PROGRESS_REQUIREMENTS", "WAITING_APPROVAL_REQUIREMENTS"]).toContain((created.body as RunView).status);

      const [first] = await n8n.waitForCalls(1);
      expect(first!.path).toBe("/webhook/brief-to-requirements");
      expect(first!.body).toMatchObject({ run_id: runId, context: { domain: "fintech", brief }, is_feedback: false, feedback: "" });
      expect(first!.body.callback_url).toBe(`${base}/callbacks/agent/requirements?call=1`);

      let run = await waitForStatus(base, runId, "WAITING_APPROVAL_REQUIREMENTS");
      expect(run.is_waiting_for_user).toBe(true);

      // Bad input while waiting: empty feedback, a callback from another agent, an unknown run.
      expect((await postJson(`${base}/runs/${runId}/reject`, { feedback: "  " })).status).toBe(422);
      const intruder = await postJson(`${base}/callbacks/agent/qa`, { run_id: runId, content: { artifact: { test_suites: [] } } });
      expect(intruder.status).toBe(409);
      expect((await postJson(`${base}/callbacks/agent/requirements`, { run_id: "RUN_nope", content: { artifact: {} } })).status).toBe(404);
      expect((await postJson(`${base}/callbacks/agent/nobody`, { run_id: runId, content: { artifact: {} } })).status).toBe(404);
      expect((await statusOf(base, runId)).status).toBe("WAITING_APPROVAL_REQUIREMENTS");

      // 7.7 / 12: reject with feedback; the same agent runs again with its last output as context. Its answer is
      // held back until the run has been seen in RETRYING, where nothing waits for approval.
      n8n.style.requirements = "held";
      const rejected = await postJson(`${base}/runs/${runId}/reject`, { feedback: "Add offline payments" });
      expect(rejected.status).toBe(200);
      expect((rejected.body as RunView).status).toBe("RETRYING_REQUIREMENTS");
      expect((await postJson(`${base}/runs/${runId}/approve`, {})).status).toBe(409);
      const [, retryCall] = await n8n.waitForCalls(2);
      n8n.style.requirements = "preferred";
      await n8n.release();
      const versions = (await getJson(`${base}/runs/${runId}/artifacts`)).body as { artifact_type: string; version: number; content: unknown }[];
      const v1 = versions.find((a) => a.artifact_type === "requirements" && a.version === 1)!;
      expect(v1).toBeDefined();
      expect(retryCall!.body).toMatchObject({ run_id: runId, is_feedback: true, feedback: "Add offline payments" });
      expect(retryCall!.body.context).toEqual(v1.content);

      await waitForStatus(base, runId, "WAITING_APPROVAL_REQUIREMENTS");
      const v2 = (await getJson(`${base}/runs/${runId}/artifacts/latest?artifact_type=requirements`)).body as { version: number; content: { artifact: { core_capabilities: string[] } } };
      expect(v2.version).toBe(2);
      expect(v2.content.artifact.core_capabilities).toContain("Feedback: Add offline payments");

      // A decision on an output the reviewer did not see (they read v1, v2 is waiting) is refused and changes nothing.
      const stale = await postJson(`${base}/runs/${runId}/approve`, { expected: { agent: "requirements", version: 1 } });
      expect(stale.status).toBe(409);
      expect(JSON.stringify(stale.body)).toContain("v2");
      expect((await statusOf(base, runId)).status).toBe("WAITING_APPROVAL_REQUIREMENTS");

      // 7.6: approve through the rest; a repeated callback (n8n retry) creates no second version.
      n8n.style.inception = "twice";
      n8n.style.agile = "fallback"; // 7.5: content missing, the remaining fields are the content
      for (let i = 1; i < order.length; i++) {
        const slug = order[i]!;
        const approved = await postJson(`${base}/runs/${runId}/approve`, {});
        expect(approved.status).toBe(200);
        expect(["IN_PROGRESS_" + slug.toUpperCase(), "WAITING_APPROVAL_" + slug.toUpperCase()]).toContain((approved.body as RunView).status);
        const calls = await n8n.waitForCalls(2 + i);
        const call = calls[1 + i]!;
        expect(call.slug).toBe(slug);
        expect(Object.keys(call.body.context).sort()).toEqual(expectedContext[slug]);
        if (slug === "inception") expect((call.body.context.requirements as { artifact: unknown }).artifact).toEqual(v2.content.artifact);
        run = await waitForStatus(base, runId, `WAITING_APPROVAL_${slug.toUpperCase()}`);
        expect(run.current_agent?.slug).toBe(slug);
      }
      await new Promise((r) => setTimeout(r, 100));
      const inceptionVersions = ((await getJson(`${base}/runs/${runId}/artifacts`)).body as { artifact_type: string }[]).filter((a) => a.artifact_type === "inception");
      expect(inceptionVersions).toHaveLength(1);

      const done = await postJson(`${base}/runs/${runId}/approve`, {});
      expect((done.body as RunView).status).toBe("COMPLETED");
      expect((done.body as RunView).current_agent).toBeNull();
      expect((await postJson(`${base}/runs/${runId}/approve`, {})).status).toBe(409);
      expect(n8n.calls.filter((c) => c.body.run_id === runId)).toHaveLength(7);

      // 7.10: latest artifact per type, artifact-only.
      const exported = (await getJson(`${base}/runs/${runId}/artifacts/export`)).body as { run_id: string; artifacts: { artifact_type: string; version: number; artifact: Record<string, unknown> }[] };
      expect(exported.run_id).toBe(runId);
      expect(exported.artifacts.map((a) => a.artifact_type)).toEqual(order);
      expect(exported.artifacts[0]!.version).toBe(2);
      expect(exported.artifacts[0]!.artifact).toEqual(v2.content.artifact);
      expect(exported.artifacts[3]!.artifact).toHaveProperty("mermaid_sequence_diagram");

      // The bundle: export JSON, the brief and one Markdown file per step in pipeline order, a manifest.
      const response = await fetch(`${base}/runs/${runId}/artifacts/bundle`, { headers: asTestOperator });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/zip");
      const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
      const names = Object.keys(files);
      expect(names).toContain("export.json");
      expect(names).toContain("manifest.json");
      for (const file of ["00-brief.md", "01-requirements.md", "02-inception.md", "03-user-stories.md", "04-diagrams.md", "05-pseudocode.md", "06-test-cases.md"]) expect(names).toContain(file);
      expect(JSON.parse(strFromU8(files["export.json"]!)).artifacts).toHaveLength(6);
      const diagram = strFromU8(files["04-diagrams.md"]!);
      expect(diagram).toContain("```mermaid");
      expect(diagram).toContain("sequenceDiagram");
    });

    it("fails the run with the reason when an agent cannot be reached, and retries it", async () => {
      const unreachable = await startTestServer(await freshDatabase(), { AGENT_WEBHOOK_REQUIREMENTS: "http://127.0.0.1:9/webhook/x", DISPATCH_MAX_ATTEMPTS: "2" });
      try {
        const created = await postJson(`${unreachable.url}/runs`, { domain: "ops", brief });
        const runId = (created.body as RunView).run_id;
        const failed = await waitForStatus(unreachable.url, runId, "FAILED_REQUIREMENTS");
        expect(failed.failure).toMatch(/127\.0\.0\.1:9.*(ECONNREFUSED|network)/);
        expect((await postJson(`${unreachable.url}/runs/${runId}/approve`, {})).status).toBe(409);
        const retried = await postJson(`${unreachable.url}/runs/${runId}/retry`, {});
        expect(retried.status).toBe(200);
        expect((retried.body as RunView).status).toBe("IN_PROGRESS_REQUIREMENTS");
      } finally {
        await unreachable.close();
      }
    });
  });

  describe("an agent that accepts the call but never calls back", () => {
    it("fails the run after AGENT_TIMEOUT_MS with the reason, instead of leaving it in progress forever", async () => {
      let base = "";
      const silent = await startFakeN8n(() => base);
      silent.style.requirements = "none";
      const server = await startTestServer(await freshDatabase(), { N8N_BASE_URL: silent.url, AGENT_TIMEOUT_MS: "1500" });
      base = server.url;
      try {
        const runId = ((await postJson(`${base}/runs`, { domain: "ops", brief })).body as RunView).run_id;
        const failed = await waitForStatus(base, runId, "FAILED_REQUIREMENTS");
        expect(failed.failure).toBe("the worker did not call back within 1500 ms (attempt 1)");
        silent.style.requirements = "preferred";
        await postJson(`${base}/runs/${runId}/retry`, {});
        await waitForStatus(base, runId, "WAITING_APPROVAL_REQUIREMENTS");
      } finally {
        await server.close();
        await silent.close();
      }
    });
  });

  describe("cancelling a run", () => {
    it("stops the agent at work or the output waiting for review; late callbacks, decisions and retries are refused", async () => {
      let base = "";
      const n8n = await startFakeN8n(() => base);
      const server = await startTestServer(await freshDatabase(), { N8N_BASE_URL: n8n.url });
      base = server.url;
      try {
        // Cancelled while the output waits for review.
        const waiting = ((await postJson(`${base}/runs`, { domain: "ops", brief })).body as RunView).run_id;
        await waitForStatus(base, waiting, "WAITING_APPROVAL_REQUIREMENTS");
        // Cancelled by Dana, an operator, with her own token: the conversation names her account.
        const dana = await createPerson(server.people, "Dana", "operator");
        const cancelled = await fetch(`${base}/runs/${waiting}/cancel`, {
          method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${dana.token}` }, body: JSON.stringify({ reason: "brief withdrawn" }),
        });
        expect(cancelled.status).toBe(200);
        expect(await cancelled.json()).toMatchObject({ status: "CANCELLED", current_agent: null, is_waiting_for_user: false });
        expect((await postJson(`${base}/runs/${waiting}/approve`, {})).status).toBe(409);
        expect((await postJson(`${base}/runs/${waiting}/reject`, { feedback: "more" })).status).toBe(409);
        expect((await postJson(`${base}/runs/${waiting}/retry`, {})).status).toBe(409);
        expect((await postJson(`${base}/runs/${waiting}/cancel`, {})).body).toMatchObject({ status: "CANCELLED" });
        expect((await postJson(`${base}/runs/${waiting}/cancel`, { reason: 5 })).status).toBe(422);
        expect((await postJson(`${base}/runs/RUN_nope/cancel`, {})).status).toBe(404);

        // Cancelled while the agent works: its late callback is refused and stores nothing.
        n8n.style.requirements = "none";
        const working = ((await postJson(`${base}/runs`, { domain: "ops", brief })).body as RunView).run_id;
        await eventually(async () => n8n.calls.find((c) => c.body.run_id === working), 20_000, "the requirements call");
        expect(((await postJson(`${base}/runs/${working}/cancel`, {})).body as RunView).status).toBe("CANCELLED");
        const late = await postJson(`${base}/callbacks/agent/requirements`, { run_id: working, content: { artifact: {}, changes_made: [], justification: "late" } });
        expect(late.status).toBe(409);
        expect((await getJson(`${base}/runs/${working}/artifacts`)).body).toEqual([]);
        const stitchRun = (await getJson(`${base}/api/stitch/runs`)).body as { id: string; status: string }[];
        expect(stitchRun.filter((r) => r.status === "cancelled")).toHaveLength(2);

        // The conversation ends with the cancellation, who did it and why.
        const conversation = await server.pipeline.queries.conversation(waiting);
        expect(conversation.turns.at(-1)).toMatchObject({ kind: "outcome", who: "Dana", body: { status: "cancelled", reason: "brief withdrawn" } });

        // A completed run has nothing to cancel.
        n8n.style.requirements = "preferred";
        const done = ((await postJson(`${base}/runs`, { domain: "ops", brief })).body as RunView).run_id;
        for (const slug of order) {
          await waitForStatus(base, done, `WAITING_APPROVAL_${slug.toUpperCase()}`);
          await postJson(`${base}/runs/${done}/approve`, {});
        }
        await waitForStatus(base, done, "COMPLETED");
        const refused = await postJson(`${base}/runs/${done}/cancel`, {});
        expect(refused.status).toBe(409);
        expect(JSON.stringify(refused.body)).toContain("nothing to cancel");
      } finally {
        await server.close();
        await n8n.close();
      }
    });
  });

  describe("with the built-in agents", () => {
    it("runs the whole pipeline with no network, answering feedback visibly", async () => {
      const server = await startTestServer(await freshDatabase());
      try {
        const base = server.url;
        const agents = (await getJson(`${base}/agents`)).body as { webhook_url: string; builtin: boolean }[];
        expect(agents.every((a) => a.builtin && a.webhook_url.startsWith(`${base}/api/agents/builtin/`))).toBe(true);
        const runId = ((await postJson(`${base}/runs`, { domain: "retail", brief })).body as RunView).run_id;
        await waitForStatus(base, runId, "WAITING_APPROVAL_REQUIREMENTS");
        await postJson(`${base}/runs/${runId}/reject`, { feedback: "Cover refunds to customers" });
        await waitForStatus(base, runId, "WAITING_APPROVAL_REQUIREMENTS");
        const v2 = (await getJson(`${base}/runs/${runId}/artifacts/latest?artifact_type=requirements`)).body as { version: number; content: Record<string, unknown>; metadata: Record<string, unknown> };
        expect(v2.version).toBe(2);
        expect(JSON.stringify(v2.content.artifact).toLowerCase()).toContain("refund");
        expect(JSON.stringify(v2.content.changes_made).toLowerCase()).toContain("refund");
        expect(String(v2.content.justification)).toContain("Cover refunds to customers");
        expect(v2.metadata.generator).toBe("deterministic");
        for (const slug of order.slice(1)) {
          await postJson(`${base}/runs/${runId}/approve`, {});
          await waitForStatus(base, runId, `WAITING_APPROVAL_${slug.toUpperCase()}`);
        }
        expect(((await postJson(`${base}/runs/${runId}/approve`, {})).body as RunView).status).toBe("COMPLETED");
        const exported = (await getJson(`${base}/runs/${runId}/artifacts/export`)).body as { artifacts: { artifact_type: string }[] };
        expect(exported.artifacts.map((a) => a.artifact_type)).toEqual(order);
      } finally {
        await server.close();
      }
    });
  });
});
