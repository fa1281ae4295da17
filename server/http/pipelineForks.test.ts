/**
 * Forks of pipeline runs through the one fork door (`POST /api/runs/{run_id}/fork` with a pipeline's RUN_... id, and
 * tRPC engine.runs.fork with its engine run), on every test database, with real HTTP agents (the n8n stand-in): the
 * agents before the chosen one keep their versions (byte-identical, "copied from RUN_... vN") and their approvals
 * ("decided in RUN_..."), and are not called again; the chosen agent is called once, with the edited brief or its first
 * feedback; its review and the later ones are asked anew; the parent is untouched and lists its fork; the rule (403
 * naming it, through both transports), the audit entry, and the refusals, which make nothing.
 */
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabases } from "../testing/databases";
import { callerContext } from "../testing/callerContext";
import { type FakeN8n, startFakeN8n } from "../testing/fakeN8n";
import { type TestPerson, createPerson } from "../testing/people";
import { type ServerOnTestDatabase, serverOn } from "../testing/suite";
import { eventually } from "../testing/workerServer";
import { createCaller } from "../trpc/router";
import type { Forked } from "../forks/schemas";
import type { Identity } from "../people/schemas";
import type { ArtifactVersion, PipelineRunView } from "../pipeline/schemas";

/** A person's identity as the doors see her token. */
const identityOf = (person: TestPerson): Identity => ({ kind: "token", accountId: person.accountId, name: person.name, role: person.role, tokenId: "00000000-0000-4000-8000-000000000001" });

const BRIEF = "A mobile wallet that lets street vendors accept QR payments and see daily totals.";

describe.each(testDatabases)("forks of pipeline runs on $name", (testDatabase) => {
  let env: ServerOnTestDatabase;
  let n8n: FakeN8n;
  let alan: TestPerson;
  let amy: TestPerson;
  let rita: TestPerson;

  beforeAll(async () => {
    let base = "";
    n8n = await startFakeN8n(() => base);
    env = await serverOn(testDatabase, { N8N_BASE_URL: n8n.url });
    base = env.server.url;
    [alan, amy, rita] = await Promise.all([
      createPerson(env.server.people, "Alan Analyst", "analyst"), createPerson(env.server.people, "Amy Other", "analyst"), createPerson(env.server.people, "Rita Ramos", "reviewer"),
    ]);
  });
  afterAll(async () => {
    await env?.close();
    await n8n?.close();
  });

  const getRun = async (runId: string) => (await env.api.get<PipelineRunView>(`/runs/${runId}`)).body;
  const waitingAt = (runId: string, agent: string) =>
    eventually(async () => {
      const run = await getRun(runId);
      return run.state.phase === "waiting_approval" && run.state.agent === agent ? run : undefined;
    }, 30_000, `run ${runId} waiting for the review of ${agent}`);
  const callsOf = (runId: string, slug?: string) => n8n.calls.filter((c) => c.body.run_id === runId && (slug === undefined || c.slug === slug));
  const artifacts = async (runId: string, type: string) => (await env.api.get<ArtifactVersion[]>(`/runs/${runId}/artifacts`)).body.filter((a) => a.artifact_type === type);
  const conversation = (runId: string) => createCaller(callerContext(env.server, identityOf(alan))).pipeline.conversation({ runId });
  const fork = (token: string, runId: string, body: unknown) => env.api.as(token).post<Forked & { message?: string }>(`/api/runs/${runId}/fork`, body);

  /** A run of Alan's whose requirements were approved (after one request for changes) and whose inception waits for review. */
  async function runAtInception(): Promise<string> {
    const runId = (await env.api.as(alan.token).post<PipelineRunView>("/runs", { domain: "fintech", brief: BRIEF })).body.run_id;
    await waitingAt(runId, "requirements");
    expect((await env.api.post(`/runs/${runId}/reject`, { feedback: "name the card processor" })).status).toBe(200);
    await eventually(async () => ((await artifacts(runId, "requirements")).length === 2 ? true : undefined), 30_000, "requirements v2");
    await waitingAt(runId, "requirements");
    expect((await env.api.post(`/runs/${runId}/approve`, { comment: "good scope" })).status).toBe(200);
    await waitingAt(runId, "inception");
    return runId;
  }

  it("forks at Inception with a first feedback: the requirements are copied with their approval, Inception alone is called, and its review is asked anew", async () => {
    const parentId = await runAtInception();
    const parentRequirements = await artifacts(parentId, "requirements");
    const parentInception = await artifacts(parentId, "inception");

    const made = await fork(alan.token, parentId, { node_id: "agent_inception", feedback: "try a mobile-first scope" });
    expect(made.status).toBe(201);
    const forkId = made.body.path.replace("/app/runs/", "");
    expect(forkId).toMatch(/^RUN_/);
    expect(made.body.run.owner).toEqual({ front_door: "pipeline", run_id: forkId });

    const waiting = await waitingAt(forkId, "inception");
    expect(waiting.forked_from).toMatchObject({ run_id: parentId, node_id: "agent_inception", agent: "inception", by: "Alan Analyst", version: "original" });
    // The requirements are the parent's, byte for byte, each version saying where it came from; nobody drafted them again.
    const copied = await artifacts(forkId, "requirements");
    expect(copied.map((a) => [a.version, a.content])).toEqual(parentRequirements.map((a) => [a.version, a.content]));
    expect(copied.map((a) => a.metadata?.copied_from)).toEqual(parentRequirements.map((a) => ({ run_id: parentId, version: a.version })));
    expect(callsOf(forkId, "requirements")).toEqual([]);
    // Inception was called once, revising the parent's latest with the first feedback.
    const [call, ...more] = callsOf(forkId, "inception");
    expect(more).toEqual([]);
    expect(call!.body).toMatchObject({ is_feedback: true, feedback: "try a mobile-first scope", context: parentInception.at(-1)!.content });
    const inception = await artifacts(forkId, "inception");
    expect(inception.map((a) => a.version)).toEqual([1, 2]);
    expect(JSON.stringify(inception[1]!.content)).toContain("after feedback: try a mobile-first scope");

    // The fork's conversation: where it came from, the copied output and its approval (decided in the parent), then Inception at work.
    const { turns } = await conversation(forkId);
    expect(turns.map((t) => (t.kind === "system" ? t.body.event : t.kind))).toEqual(["input", "forked", "output", "decided", "output", "started", "output"]);
    expect(turns[1]).toMatchObject({ kind: "system", node: { id: "agent_inception" }, who: "Alan Analyst", body: { event: "forked", from_run_id: parentId, feedback: "try a mobile-first scope" } });
    expect(turns[2]).toMatchObject({ kind: "output", body: { artifact_type: "requirements", version: 2, copied_from: { run_id: parentId, version: 2 } } });
    expect(turns[3]).toMatchObject({ kind: "decided", body: { decision: "approve", text: "good scope", decided_in: parentId } });
    // Only Inception's review waits, in the fork; the requirements' was decided in the parent and is not asked again.
    const decisions = (await env.api.get<{ items: { node_id: string; state: string }[] }>(`/api/decisions?view=all&run_id=${forkId}`)).body.items;
    expect(decisions.map((d) => [d.node_id, d.state])).toEqual([["review_inception", "open"]]);

    // The parent is untouched: still at Inception's review, with the same outputs, and it names its fork.
    const parent = await getRun(parentId);
    expect(parent.state).toEqual({ phase: "waiting_approval", agent: "inception" });
    expect(parent.forks).toEqual([expect.objectContaining({ run_id: forkId, node_id: "agent_inception", agent: "inception", by: "Alan Analyst" })]);
    expect(await artifacts(parentId, "inception")).toEqual(parentInception);
    expect((await conversation(parentId)).turns.at(-1)).toMatchObject({ kind: "system", node: { id: "agent_inception" }, who: "Alan Analyst", body: { event: "forked_into", fork_run_id: forkId } });

    // Approving the fork's Inception moves the fork alone.
    expect((await env.api.post(`/runs/${forkId}/approve`, {})).status).toBe(200);
    await waitingAt(forkId, "agile");
    expect((await getRun(parentId)).state).toEqual({ phase: "waiting_approval", agent: "inception" });

    // The audit entry: the fork as its target, with its parent and node.
    const audit = await env.api.get<{ entries: { target_id: string | null; outcome: string; message: string | null }[] }>("/api/audit?action=engine.runs.fork&limit=50");
    expect(audit.body.entries).toContainEqual(expect.objectContaining({ target_id: forkId, outcome: "accepted", message: expect.stringContaining(`forked from: run ${parentId} at agent_inception`) }));
  });

  it("forks at the first agent with an edited brief, keeping the original: the agent drafts from the new brief", async () => {
    const parentId = (await env.api.as(alan.token).post<PipelineRunView>("/runs", { domain: "fintech", brief: BRIEF })).body.run_id;
    await waitingAt(parentId, "requirements");
    const edited = "A marketplace where neighbours lend tools to each other, with deposits and reminders.";
    const made = await fork(alan.token, parentId, { node_id: "requirements", input: { brief: edited } });
    expect(made.status).toBe(201);
    const forkId = made.body.path.replace("/app/runs/", "");
    await waitingAt(forkId, "requirements");
    expect(callsOf(forkId, "requirements").map((c) => c.body.context.brief)).toEqual([edited]);
    expect((await getRun(forkId)).brief).toBe(edited);
    expect((await getRun(parentId)).brief).toBe(BRIEF);
    const kinds = (await conversation(forkId)).turns.map((t) => (t.kind === "system" ? t.body.event : t.kind));
    expect(kinds.slice(0, 3)).toEqual(["input", "forked", "input"]);
  });

  it("forks at a review: the agent's output is copied and reviewed anew, never drafted again", async () => {
    const parentId = await runAtInception();
    const made = await fork(alan.token, parentId, { node_id: "review_inception" });
    expect(made.status).toBe(201);
    const forkId = made.body.path.replace("/app/runs/", "");
    await waitingAt(forkId, "inception");
    expect(callsOf(forkId)).toEqual([]);
    expect((await artifacts(forkId, "inception")).map((a) => a.content)).toEqual((await artifacts(parentId, "inception")).map((a) => a.content));
  });

  it("forks at a failed agent: it is called again, the parent stays failed", async () => {
    const parentId = await runAtInception();
    // Agile is called and gives up: its failure is the run's.
    n8n.style.agile = "none";
    expect((await env.api.post(`/runs/${parentId}/approve`, {})).status).toBe(200);
    const [call] = await eventually(async () => (callsOf(parentId, "agile").length === 1 ? callsOf(parentId, "agile") : undefined), 30_000, "agile called");
    n8n.style.agile = "preferred";
    const failed = await fetch(call!.body.callback_url!, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ run_id: parentId, status: "failed", error: "the model timed out" }) });
    expect(failed.status).toBe(200);
    await eventually(async () => ((await getRun(parentId)).state.phase === "failed" ? true : undefined), 30_000, "the parent failed");

    const made = await fork(alan.token, parentId, { node_id: "agent_agile" });
    expect(made.status).toBe(201);
    const forkId = made.body.path.replace("/app/runs/", "");
    await waitingAt(forkId, "agile");
    expect(callsOf(forkId).map((c) => c.slug)).toEqual(["agile"]);
    expect(callsOf(forkId, "agile")[0]!.body).toMatchObject({ is_feedback: false });
    expect(Object.keys(callsOf(forkId, "agile")[0]!.body.context).sort()).toEqual(["inception", "requirements"]);
    expect((await getRun(parentId)).state.phase).toBe("failed");
  });

  it("forks at an agent with an earlier agent's output edited: a new version made by the person forking is what the agent reads", async () => {
    const parentId = await runAtInception();
    expect((await env.api.post(`/runs/${parentId}/approve`, {})).status).toBe(200);
    await waitingAt(parentId, "agile");
    const inception = (await artifacts(parentId, "inception")).at(-1)!;
    const edited = { ...(inception.content.artifact as Record<string, unknown>), product_vision: "A vendor-first wallet that works offline." };
    const made = await fork(alan.token, parentId, { node_id: "agent_agile", input: { context: { inception: edited } } });
    expect(made.status, made.body.message).toBe(201);
    const forkId = made.body.path.replace("/app/runs/", "");
    await waitingAt(forkId, "agile");
    const versions = await artifacts(forkId, "inception");
    expect(versions.map((v) => v.version)).toEqual([1, 2]);
    expect(versions[1]!.metadata).toMatchObject({ edited_by: { name: "Alan Analyst" }, note: "edited when forking" });
    expect(callsOf(forkId, "agile")[0]!.body.context.inception).toMatchObject({ artifact: { product_vision: "A vendor-first wallet that works offline." } });
    expect(callsOf(forkId, "inception")).toEqual([]);
  });

  it("forks at an agent still at work: it is called again in the fork while the parent's call goes on, each answer its own run's", async () => {
    const parentId = (await env.api.as(alan.token).post<PipelineRunView>("/runs", { domain: "fintech", brief: BRIEF })).body.run_id;
    await waitingAt(parentId, "requirements");
    n8n.style.inception = "held";
    try {
      expect((await env.api.post(`/runs/${parentId}/approve`, {})).status).toBe(200);
      await eventually(async () => (callsOf(parentId, "inception").length === 1 ? true : undefined), 30_000, "inception called");
      const made = await fork(alan.token, parentId, { node_id: "agent_inception" });
      expect(made.status).toBe(201);
      const forkId = made.body.path.replace("/app/runs/", "");
      await eventually(async () => (callsOf(forkId, "inception").length === 1 ? true : undefined), 30_000, "inception called in the fork");
      expect((await getRun(forkId)).state).toEqual({ phase: "in_progress", agent: "inception" });
      await n8n.release();
      const [parent, forked] = await Promise.all([waitingAt(parentId, "inception"), waitingAt(forkId, "inception")]);
      expect([parent.run_id, forked.run_id]).toEqual([parentId, forkId]);
      expect((await artifacts(forkId, "inception")).map((a) => a.version)).toEqual([1]);
      expect((await artifacts(parentId, "inception")).map((a) => a.version)).toEqual([1]);
    } finally {
      n8n.style.inception = "preferred";
      await n8n.release();
    }
  });

  it("lets a reviewer fork at or before the review waiting for her, and nobody else but the starter and operators (403 naming the rule, both transports)", async () => {
    const parentId = await runAtInception();
    const stitchRunId = (await conversation(parentId)).stitch_run_id;
    const before = (await getRun(parentId)).forks.length;

    const stranger = await fork(amy.token, parentId, { node_id: "agent_inception" });
    expect(stranger.status).toBe(403);
    expect(stranger.body.message).toContain("operators may fork any run");
    const amyCaller = createCaller(callerContext(env.server, identityOf(amy)));
    await expect(amyCaller.engine.runs.fork({ runId: stitchRunId, node_id: "agent_inception", version: "original" })).rejects.toSatisfy((e) => e instanceof TRPCError && e.code === "FORBIDDEN");

    // Rita reviews Inception: she may fork at it or before it, not after it.
    const after = await fork(rita.token, parentId, { node_id: "agent_agile" });
    expect(after.status).toBe(403);
    expect(after.body.message).toContain('"review_inception"');
    const ritaCaller = createCaller(callerContext(env.server, identityOf(rita)));
    const made = await ritaCaller.engine.runs.fork({ runId: stitchRunId, node_id: "agent_inception", version: "original", feedback: "try a mobile-first scope" });
    expect(made.path).toMatch(/^\/app\/runs\/RUN_/);
    expect((await getRun(parentId)).forks.length).toBe(before + 1);
  });

  it("refuses a node it lacks (404), a feedback at a review and an edited context the agent does not read (400), making nothing", async () => {
    const parentId = await runAtInception();
    const unknown = await fork(alan.token, parentId, { node_id: "agent_marketing" });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toContain('"agent_marketing"');
    const atReview = await fork(alan.token, parentId, { node_id: "review_inception", feedback: "warmer" });
    expect(atReview.status).toBe(400);
    const notRead = await fork(alan.token, parentId, { node_id: "agent_inception", input: { context: { agile: { epics: [] } } } });
    expect(notRead.status).toBe(400);
    expect(notRead.body.message).toContain("input.context.agile");
    const badBrief = await fork(alan.token, parentId, { node_id: "agent_inception", input: { brief: "   " } });
    expect(badBrief.status).toBe(400);
    expect((await getRun(parentId)).forks).toEqual([]);
    expect((await env.api.get(`/api/runs/RUN_0000nothing/fork`)).status).toBe(404);
  });
});
