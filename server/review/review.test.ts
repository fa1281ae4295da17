/**
 * Inline review over REST and tRPC, on every test database: the output a decision reviews with its anchors; comments
 * on parts (validated, threaded, resolvable, re-located in the next version); drafts per person; a request for changes
 * that carries the open comments to the agent (`comments`, and listed in `feedback`); a reviewer's edit as a new
 * version that she then approves and the export holds; the diff between versions. A Stitch review gate's text output
 * edited the same way, whose approval passes the edit to the node after the gate (and whose Worker revises it after a
 * request for changes); a YAML approval's edit replacing the output of the step before it, which later steps read.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stitchNodeStates } from "../../db/schema";
import { callerContext } from "../testing/callerContext";
import { type FakeN8n, startFakeN8n } from "../testing/fakeN8n";
import { createCaller } from "../trpc/router";
import { type TestDatabase, testDatabases } from "../testing/databases";
import { type TestPerson, createPerson } from "../testing/people";
import { type ServerOnTestDatabase, serverOn } from "../testing/suite";
import { chain, graphOf, reviewGate, workerNode } from "../testing/flows";
import { eventually } from "../testing/workerServer";
import type { Decision, DecisionPage } from "../decisions/schemas";
import type { ReviewComment, ReviewDiff, ReviewOutput } from "./schemas";

const BRIEF = {
  domain: "tool-library",
  brief: "Members can reserve tools for a weekend. Members can return tools at the library desk. Staff can record damage to a returned tool.",
};

/** The server of one `describe` on `testDatabase`, with Rita Ramos (a reviewer) and Alan Analyst; closed after its tests. */
function serverWithReviewerAndAnalyst(testDatabase: TestDatabase, started: (people: { env: ServerOnTestDatabase; rita: TestPerson; alan: TestPerson }) => void): void {
  let env: ServerOnTestDatabase | undefined;
  beforeAll(async () => {
    env = await serverOn(testDatabase);
    started({ env, rita: await createPerson(env.server.people, "Rita Ramos", "reviewer"), alan: await createPerson(env.server.people, "Alan Analyst", "analyst") });
  });
  afterAll(async () => {
    await env?.close();
  });
}

describe.each(testDatabases)("inline review on $name", (testDatabase) => {
  let env: ServerOnTestDatabase;
  let rita: TestPerson;
  let alan: TestPerson;
  serverWithReviewerAndAnalyst(testDatabase, (started) => ({ env, rita, alan } = started));

  const openDecision = (runId: string, node: string) =>
    eventually(async () => {
      const page = (await env.api.get<DecisionPage>(`/api/decisions?view=all&state=open&run_id=${runId}`)).body;
      return page.items.find((d) => d.node_id === node);
    }, 30_000, `the open decision at ${node} of ${runId}`);

  async function startRun(): Promise<{ runId: string; decision: Decision }> {
    const created = await env.api.as(alan.token).post("/runs", BRIEF);
    expect(created.status).toBe(200);
    return { runId: created.body.run_id, decision: await openDecision(created.body.run_id, "review_requirements") };
  }

  it("answers the output under review with an anchor for every capability, field and list item", async () => {
    const { decision } = await startRun();
    const answer = await env.api.as(alan.token).get<ReviewOutput>(`/api/decisions/${decision.id}/output`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ format: "artifact", artifact_type: "requirements", version: 1, author: { kind: "agent", name: "Requirements" }, editable: false });
    const anchors = answer.body.anchors.map((a) => a.anchor);
    expect(anchors).toEqual(expect.arrayContaining(["problem_statement_refined", "core_capabilities", "core_capabilities[CAP-001]", "core_capabilities[CAP-001].description", "assumptions[#1]"]));
    // The fields the artifact type's schema names, for the editor to offer where a capability lacks one.
    expect(answer.body.fields.filter((f) => f.path === "core_capabilities.*").map((f) => f.key)).toEqual(["id", "name", "description", "actor"]);
    expect((await env.api.as(rita.token).get<ReviewOutput>(`/api/decisions/${decision.id}/output`)).body.editable).toBe(true);
    expect((await env.api.get(`/api/decisions/00000000-0000-4000-8000-000000000000/output`)).status).toBe(404);
  });

  it("keeps comments on parts: validated, threaded, resolvable; an analyst may comment; REST and tRPC answer alike", async () => {
    const { decision } = await startRun();
    const path = `/api/decisions/${decision.id}/comments`;
    const bad = await env.api.as(rita.token).post(path, { anchor: "core_capabilities[CAP-099]", text: "?" });
    expect(bad).toMatchObject({ status: 400, body: { message: expect.stringContaining('no part "core_capabilities[CAP-099]"') } });
    expect((await env.api.as(rita.token).post(path, { anchor: "core_capabilities[[", text: "?" })).status).toBe(400);
    expect((await env.api.as(rita.token).post(path, { anchor: "problem_statement_refined", quote: "words that are not there", text: "?" })).status).toBe(400);
    expect((await env.api.as(rita.token).post(path, { anchor: "problem_statement_refined", text: "   " })).status).toBe(400);
    expect((await env.api.get(path)).body.items).toEqual([]);

    const made = await env.api.as(rita.token).post<ReviewComment>(path, { anchor: "core_capabilities[CAP-001]", text: "A reservation must be limited to 3 days." });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ anchor: "core_capabilities[CAP-001]", label: "Core capabilities › CAP-001", version: 1, author: { name: "Rita Ramos" }, resolved: false, outdated: false, changed: false });
    expect(made.body.quote).toMatch(/^CAP-001: /);
    const reply = await env.api.as(alan.token).post<ReviewComment>(path, { anchor: "ignored", text: "Members asked for a waiting list too.", reply_to: made.body.id });
    expect(reply).toMatchObject({ status: 201, body: { reply_to: made.body.id, anchor: "core_capabilities[CAP-001]", author: { name: "Alan Analyst" } } });

    const viaTrpc = await createCaller(callerContext(env.server, { kind: "token", accountId: rita.accountId, name: rita.name, role: "reviewer", tokenId: rita.accountId })).review.comments({ decisionId: decision.id });
    expect(viaTrpc.items).toEqual((await env.api.get(path)).body.items);

    // An analyst may not resolve Rita's thread; Rita may, and re-open it.
    expect((await env.api.as(alan.token).post(`/api/comments/${made.body.id}/resolve`)).status).toBe(403);
    expect((await env.api.as(rita.token).post(`/api/comments/${made.body.id}/resolve`)).body).toMatchObject({ resolved: true, resolved_by: "Rita Ramos" });
    expect((await env.api.as(rita.token).post(`/api/comments/${reply.body.id}/reopen`)).body).toMatchObject({ id: reply.body.id, resolved: false });
    expect((await env.api.post(`/api/comments/not-a-comment/resolve`)).status).toBe(404);
  });

  it("keeps each person's draft of feedback until it is erased", async () => {
    const { decision } = await startRun();
    const path = `/api/decisions/${decision.id}/draft`;
    expect((await env.api.as(rita.token).get(path)).body).toMatchObject({ text: "", updated_at: null });
    expect((await env.api.as(rita.token).request("PUT", path, { text: "CAP-001 is too va" })).status).toBe(200);
    expect((await env.api.as(rita.token).get(path)).body.text).toBe("CAP-001 is too va");
    expect((await env.api.as(alan.token).get(path)).body.text).toBe("");
    expect((await env.api.as(rita.token).request("PUT", path, { text: "" })).status).toBe(200);
    expect((await env.api.as(rita.token).get(path)).body).toMatchObject({ text: "", updated_at: null });
    expect((await env.api.as(rita.token).request("PUT", path, { words: "x" })).status).toBe(400);
  });

  it("sends the open comments with a request for changes; each then says whether its part changed; the diff compares the versions", async () => {
    const { runId, decision } = await startRun();
    const path = `/api/decisions/${decision.id}/comments`;
    const cap = await env.api.as(rita.token).post<ReviewComment>(path, { anchor: "core_capabilities[CAP-001]", text: "A reservation must be limited to 3 days." });
    const resolved = await env.api.as(rita.token).post<ReviewComment>(path, { anchor: "problem_statement_refined", text: "fine after all" });
    await env.api.as(rita.token).post(`/api/comments/${resolved.body.id}/resolve`);
    // No general feedback: the comment says what should change.
    const decided = await env.api.as(rita.token).post(`/api/decisions/${decision.id}/decide`, { outcome: "request_changes" });
    expect(decided.status).toBe(200);
    const second = await openDecision(runId, "review_requirements");
    expect(second.id).not.toBe(decision.id);

    const comments = (await env.api.get<{ items: ReviewComment[] }>(`/api/decisions/${second.id}/comments`)).body.items;
    expect(comments.find((c) => c.id === cap.body.id)).toMatchObject({ sent_with_version: 1, outdated: false, current_anchor: "core_capabilities[CAP-001]" });
    expect(comments.find((c) => c.id === resolved.body.id)).toMatchObject({ sent_with_version: null, resolved: true });

    const diff = await env.api.get<ReviewDiff>(`/api/decisions/${second.id}/diff`);
    expect(diff.status).toBe(200);
    expect(diff.body).toMatchObject({ from_version: 1, to_version: 2 });
    expect(diff.body.changes.length).toBeGreaterThan(0);
    expect((await env.api.get(`/api/decisions/${second.id}/diff?against=7`)).status).toBe(400);
    expect((await env.api.get(`/api/decisions/${decision.id}/diff`)).status).toBe(400);

    // Neither feedback nor an open comment: nothing to send.
    const empty = await env.api.as(rita.token).post(`/api/decisions/${second.id}/decide`, { outcome: "request_changes", comment: "  " });
    expect(empty).toMatchObject({ status: 422, body: { message: expect.stringContaining("comment on a part") } });
  });

  it("saves a reviewer's edit as a new version by her, which she approves and the export holds", async () => {
    const { runId, decision } = await startRun();
    const output = (await env.api.as(rita.token).get<ReviewOutput>(`/api/decisions/${decision.id}/output`)).body;
    const artifact = output.output as { problem_statement_refined: string };
    const edited = { ...artifact, problem_statement_refined: `${artifact.problem_statement_refined} Reservations last at most 3 days.` };
    const path = `/api/decisions/${decision.id}/edit`;

    expect((await env.api.as(alan.token).post(path, { output: edited })).status).toBe(403);
    const invalid = await env.api.as(rita.token).post(path, { output: { ...artifact, core_capabilities: [] } });
    expect(invalid).toMatchObject({ status: 400, body: { message: expect.stringContaining("core_capabilities") } });
    // Checked as she types, by the same rule, field by field; nothing saved; REST and tRPC answer alike.
    const problems = (await env.api.as(rita.token).post(`${path}/check`, { output: { ...artifact, core_capabilities: [] } })).body.problems as { path: string; message: string }[];
    expect(problems.map((p) => p.path)).toEqual(["core_capabilities"]);
    expect(invalid.body.message).toContain(problems[0]!.message);
    const caller = createCaller(callerContext(env.server, { kind: "token", accountId: rita.accountId, name: rita.name, role: "reviewer", tokenId: rita.accountId }));
    expect((await caller.review.checkEdit({ decisionId: decision.id, body: { output: { ...artifact, core_capabilities: [] } } })).problems).toEqual(problems);
    expect((await env.api.as(rita.token).post(`${path}/check`, { output: edited })).body).toEqual({ problems: [] });
    expect((await env.api.as(rita.token).get<ReviewOutput>(`/api/decisions/${decision.id}/output`)).body.version).toBe(1);
    expect((await env.api.as(rita.token).post(path, { output: artifact })).status).toBe(400);

    const saved = await env.api.as(rita.token).post<ReviewOutput>(path, { output: edited, note: "one rule" });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ version: 2, author: { kind: "person", name: "Rita Ramos" }, output: edited });
    const diff = (await env.api.get<ReviewDiff>(`/api/decisions/${decision.id}/diff`)).body;
    expect(diff.changes.map((c) => c.anchor)).toEqual(["problem_statement_refined"]);
    expect(diff.mismatches).toEqual([]);

    const conversation = await createCaller(callerContext(env.server, { kind: "token", accountId: rita.accountId, name: rita.name, role: "reviewer", tokenId: rita.accountId })).pipeline.conversation({ runId });
    expect(conversation.turns.flatMap((t) => (t.kind === "output" ? [[t.body.version, t.body.edited_by]] : []))).toEqual([
      [1, null],
      [2, "Rita Ramos"],
    ]);
    // Approving the version she did not read is refused; the edited one is approved.
    expect((await env.api.as(rita.token).post(`/runs/${runId}/approve`, { expected: { agent: "requirements", version: 1 } })).status).toBe(409);
    expect((await env.api.as(rita.token).post(`/runs/${runId}/approve`, { expected: { agent: "requirements", version: 2 } })).status).toBe(200);
    const exported = (await env.api.get(`/runs/${runId}/artifacts/export`)).body;
    expect(exported.artifacts.find((a: { artifact_type: string }) => a.artifact_type === "requirements")).toMatchObject({ version: 2, artifact: edited });
    expect((await env.api.as(rita.token).post(path, { output: edited })).status).toBe(409);
  });
});

describe.each(testDatabases)("inline review of a Stitch review gate on $name", (testDatabase) => {
  let env: ServerOnTestDatabase;
  let rita: TestPerson;
  let alan: TestPerson;
  serverWithReviewerAndAnalyst(testDatabase, (started) => ({ env, rita, alan } = started));

  it("reviews the gate's input as text by paragraph; a request for changes carries the comment to the worker; the next version is diffed", async () => {
    const flow = await env.api.createFlow(graphOf([workerNode("W", "https://worker.example.test/hook"), reviewGate("check")], chain("W", "check")));
    const run = await env.api.startRun(flow.id);
    const callback = (output: string) => env.api.post(`/api/stitch/callback/${run.id}/W`, { status: "completed", output });
    expect((await callback("Courts open at 8.\n\nBook a court for an hour.")).status).toBe(200);
    const openGate = () => eventually(async () => (await env.api.get<DecisionPage>(`/api/decisions?view=all&state=open&run_id=${run.id}`)).body.items[0], 10_000, "the gate's decision");
    const first = await openGate();
    const output = (await env.api.get<ReviewOutput>(`/api/decisions/${first.id}/output`)).body;
    // The server runs without sign-in here: the caller may decide, so may edit the gate's output.
    expect(output).toMatchObject({ format: "text", version: 1, editable: true, output: "Courts open at 8.\n\nBook a court for an hour.", fields: [] });
    expect(output.anchors.map((a) => [a.anchor, a.quote])).toEqual([["P1", "Courts open at 8."], ["P2", "Book a court for an hour."]]);

    expect((await env.api.post(`/api/decisions/${first.id}/comments`, { anchor: "P2", quote: "an hour", text: "Two hours at most." })).status).toBe(201);
    expect((await env.api.post(`/api/decisions/${first.id}/decide`, { outcome: "request_changes", comment: "Say the limit." })).status).toBe(200);
    const events = (await env.api.get<{ type: string; payload: { comments?: unknown; feedback?: string } }[]>(`/api/stitch/runs/${run.id}/events`)).body;
    const review = events.find((e) => e.type === "review")!;
    expect(review.payload.comments).toEqual([{ anchor: "P2", label: "Paragraph 2", quote: "an hour", text: "Two hours at most." }]);
    expect(review.payload.feedback).toBe('Say the limit.\n\nComments on parts of the output:\n- [P2] on "an hour": Two hours at most.');

    expect((await callback("Courts open at 8.\n\nBook a court for two hours at most.")).status).toBe(200);
    const second = await eventually(async () => {
      const found = await openGate();
      return found?.id !== first.id ? found : undefined;
    }, 10_000, "the second review");
    const comments = (await env.api.get<{ items: ReviewComment[] }>(`/api/decisions/${second.id}/comments`)).body.items;
    expect(comments[0]).toMatchObject({ anchor: "P2", version: 1, sent_with_version: 1, outdated: true });
    const diff = (await env.api.get<ReviewDiff>(`/api/decisions/${second.id}/diff`)).body;
    expect(diff).toMatchObject({ from_version: 1, to_version: 2 });
    const words = (op: string) => diff.changes[0]!.pieces.filter((p) => p.op === op).map((p) => p.text.trim()).join(" ");
    expect([words("delete"), words("insert")]).toEqual(["an hour", "two hours at most"]);
    expect(words("equal")).toContain("Book a court for");
  });

  it("a reviewer edits the gate's text output (v2, by her), approves, and the node after the gate receives the edited text", async () => {
    const hook = "https://worker.example.test/hook";
    const flow = await env.api.createFlow(graphOf([workerNode("W", hook), reviewGate("check"), workerNode("P", hook)], chain("W", "check", "P")));
    const run = await env.api.startRun(flow.id);
    expect((await env.api.post(`/api/stitch/callback/${run.id}/W`, { status: "completed", output: "Courts open at 8.\n\nBook a court for an hour." })).status).toBe(200);
    const gate = await eventually(async () => (await env.api.get<DecisionPage>(`/api/decisions?view=all&state=open&run_id=${run.id}`)).body.items[0], 10_000, "the gate's decision");
    const path = `/api/decisions/${gate.id}/edit`;
    expect((await env.api.as(rita.token).get<ReviewOutput>(`/api/decisions/${gate.id}/output`)).body).toMatchObject({ format: "text", version: 1, editable: true });
    expect((await env.api.as(alan.token).get<ReviewOutput>(`/api/decisions/${gate.id}/output`)).body.editable).toBe(false);

    const edited = "Courts open at 8.\n\nBook a court for two hours.";
    expect((await env.api.as(alan.token).post(path, { output: edited })).status).toBe(403);
    expect((await env.api.as(rita.token).post(path, { output: "  " })).status).toBe(400);
    expect((await env.api.as(rita.token).post(`${path}/check`, { output: "  " })).body.problems).toEqual([{ path: "", message: "write the edited text (a text output cannot be empty)" }]);
    expect((await env.api.as(rita.token).post(path, { output: { not: "text" } })).status).toBe(400);
    expect((await env.api.as(rita.token).post(path, { output: "Courts open at 8.\n\nBook a court for an hour." })).body.message).toContain("changes nothing");
    const saved = await env.api.as(rita.token).post<ReviewOutput>(path, { output: edited, note: "the limit" });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ version: 2, author: { kind: "person", name: "Rita Ramos" }, output: edited, editable: true });
    expect(saved.body.versions.map((v) => [v.version, v.revises, v.author.kind])).toEqual([[1, null, "system"], [2, 1, "person"]]);
    const diff = (await env.api.get<ReviewDiff>(`/api/decisions/${gate.id}/diff`)).body;
    expect(diff).toMatchObject({ from_version: 1, to_version: 2 });
    const words = (op: string) => diff.changes[0]!.pieces.filter((p) => p.op === op).map((p) => p.text.trim()).join(" ");
    expect([words("delete"), words("insert")]).toEqual(["an hour", "two hours"]);

    expect((await env.api.as(rita.token).post(`/api/decisions/${gate.id}/decide`, { outcome: "approve" })).status).toBe(200);
    const after = await env.api.getRun(run.id);
    expect(after.node_states.check).toMatchObject({ status: "completed", output: edited });
    expect(after.node_states.P?.status).not.toBe("pending");
    const events = (await env.api.get<{ type: string; payload: Record<string, unknown> }[]>(`/api/stitch/runs/${run.id}/events`)).body;
    expect(events.find((e) => e.type === "review")!.payload).toMatchObject({ decision: "approve", output: edited });
    const input = await env.database.run(async (db) => (await db.select({ input: stitchNodeStates.input }).from(stitchNodeStates).where(and(eq(stitchNodeStates.runId, run.id), eq(stitchNodeStates.nodeId, "P"))))[0]?.input);
    expect(input).toBe(edited);
    expect((await env.api.as(rita.token).post(path, { output: `${edited} More.` })).status).toBe(409);
  });

  it("a reviewer edits the gate's output and then requests changes: the worker revises her version", async () => {
    const flow = await env.api.createFlow(graphOf([workerNode("W", "https://worker.example.test/hook"), reviewGate("check")], chain("W", "check")));
    const run = await env.api.startRun(flow.id);
    expect((await env.api.post(`/api/stitch/callback/${run.id}/W`, { status: "completed", output: "Courts open at 8." })).status).toBe(200);
    const gate = await eventually(async () => (await env.api.get<DecisionPage>(`/api/decisions?view=all&state=open&run_id=${run.id}`)).body.items[0], 10_000, "the gate's decision");
    expect((await env.api.as(rita.token).post(`/api/decisions/${gate.id}/edit`, { output: "Courts open at 7." })).status).toBe(200);
    expect((await env.api.as(rita.token).post(`/api/decisions/${gate.id}/decide`, { outcome: "request_changes", comment: "Add the closing time." })).status).toBe(200);
    const events = (await env.api.get<{ type: string; payload: Record<string, unknown> }[]>(`/api/stitch/runs/${run.id}/events`)).body;
    expect(events.find((e) => e.type === "review")!.payload).toMatchObject({ decision: "reject", output: "Courts open at 7." });
    // The Worker runs again from her version: its previousOutput (the row's output) is the edit, not the original.
    const worker = await env.database.run(async (db) => (await db.select().from(stitchNodeStates).where(and(eq(stitchNodeStates.runId, run.id), eq(stitchNodeStates.nodeId, "W"))))[0]);
    expect(worker).toMatchObject({ status: "running", output: "Courts open at 7." });
  });
});

describe.each(testDatabases)("inline review of a YAML approval on $name", (testDatabase) => {
  let env: ServerOnTestDatabase;
  let rita: TestPerson;
  let alan: TestPerson;
  serverWithReviewerAndAnalyst(testDatabase, (started) => ({ env, rita, alan } = started));

  async function waitingApproval(yaml: string, name: string): Promise<{ runId: string; decision: Decision }> {
    expect((await env.api.post("/api/workflows", yaml, { "content-type": "application/yaml" })).status).toBe(201);
    const runId = (await env.api.as(alan.token).post(`/api/workflows/${name}/runs`, { message: "the club's courts" })).body.id as string;
    const decision = await eventually(async () => (await env.api.get<DecisionPage>(`/api/decisions?view=all&state=open&run_id=${runId}`)).body.items[0], 20_000, "the approval");
    return { runId, decision };
  }

  it("a reviewer edits the output of the step before the approval; approving it replaces that output, which the later steps read", async () => {
    const yaml = [
      "name: court-rules", "description: drafts the rules, asks a person, publishes them", "nodes:",
      "  - id: draft", "    prompt: Write the court rules for $ARGUMENTS",
      "  - id: check", "    depends_on: [draft]", "    approval:", "      message: Publish these rules?",
      "  - id: publish", "    depends_on: [check]", "    prompt: \"Publish: $draft.output\"", "",
    ].join("\n");
    const { runId, decision } = await waitingApproval(yaml, "court-rules");
    const path = `/api/decisions/${decision.id}`;
    const original = (await env.api.as(rita.token).get<ReviewOutput>(`${path}/output`)).body;
    expect(original).toMatchObject({ format: "text", version: 1, editable: true });
    expect(String(original.output)).toContain("offline responder");
    expect((await env.api.as(alan.token).get<ReviewOutput>(`${path}/output`)).body.editable).toBe(false);
    expect((await env.api.as(alan.token).post(`${path}/edit`, { output: "Courts open at 8." })).status).toBe(403);
    expect((await env.api.as(rita.token).post(`${path}/edit`, { output: original.output })).status).toBe(400);

    const saved = await env.api.as(rita.token).post<ReviewOutput>(`${path}/edit`, { output: "Courts open at 8." });
    expect(saved).toMatchObject({ status: 200, body: { version: 2, output: "Courts open at 8.", author: { kind: "person", name: "Rita Ramos" } } });
    expect((await env.api.as(rita.token).post(`${path}/decide`, { outcome: "approve", comment: "Shorter." })).status).toBe(200);

    const run = await eventually(async () => {
      const found = (await env.api.get<{ status: string; nodes: Record<string, { output: string | null }> }>(`/api/workflows/runs/${runId}`)).body;
      return found.status === "completed" ? found : undefined;
    }, 20_000, "the run to complete");
    expect(run.nodes.draft?.output).toBe("Courts open at 8.");
    expect(run.nodes.publish?.output).toContain("> Publish: Courts open at 8.");
    const caller = createCaller(callerContext(env.server, { kind: "token", accountId: rita.accountId, name: rita.name, role: "reviewer", tokenId: rita.accountId }));
    const turns = (await caller.workflows.conversation({ runId })).turns;
    expect(turns.find((t) => t.kind === "decided" && t.body.decision === "approve")).toMatchObject({ node: { id: "check" }, who: "Rita Ramos", body: { text: "Shorter.", edited: true } });
    // The original stays: the decision's first version, and the step's callback in the engine's event log.
    const closed = (await env.api.as(rita.token).get<ReviewOutput>(`${path}/output`)).body;
    expect(closed.versions.map((v) => [v.version, v.author.kind])).toEqual([[1, "system"], [2, "person"]]);
    expect(closed).toMatchObject({ version: 2, output: "Courts open at 8.", editable: false });
  });

  it("an approval of two steps' outputs, or of the run's input, takes no edit (409) and says why", async () => {
    const yaml = [
      "name: two-drafts", "description: two drafts, one approval", "nodes:",
      "  - id: one", "    prompt: First draft", "  - id: two", "    prompt: Second draft",
      "  - id: check", "    depends_on: [one, two]", "    approval:", "      message: Go on?", "",
    ].join("\n");
    const { decision } = await waitingApproval(yaml, "two-drafts");
    expect((await env.api.as(rita.token).get<ReviewOutput>(`/api/decisions/${decision.id}/output`)).body.editable).toBe(false);
    const answer = await env.api.as(rita.token).post(`/api/decisions/${decision.id}/edit`, { output: { one: "x", two: "y" } });
    expect(answer).toMatchObject({ status: 409, body: { message: expect.stringContaining("request changes instead") } });

    const alone = await waitingApproval("name: edit-gate\ndescription: waits for a person\nnodes:\n  - id: gate\n    approval:\n      message: Go on?\n", "edit-gate");
    expect((await env.api.as(rita.token).post(`/api/decisions/${alone.decision.id}/edit`, { output: "nets" })).status).toBe(409);
  });
});

describe.each(testDatabases)("structured feedback to n8n agents on $name", (testDatabase) => {
  let env: ServerOnTestDatabase;
  let n8n: FakeN8n;
  let base: string;

  beforeAll(async () => {
    n8n = await startFakeN8n(() => base);
    env = await serverOn(testDatabase, { N8N_BASE_URL: n8n.url });
    base = env.server.url;
  });
  afterAll(async () => {
    await env?.close();
    await n8n?.close();
  });

  it("an agent gets the comments as `comments` and listed in `feedback`; one that ignores them revises as before", async () => {
    const runId = (await env.api.post("/runs", { domain: "fintech", brief: "A mobile wallet that lets street vendors accept QR payments and see daily totals." })).body.run_id as string;
    const decision = await eventually(async () => {
      const page = (await env.api.get<DecisionPage>(`/api/decisions?view=all&state=open&run_id=${runId}`)).body;
      return page.items[0];
    }, 30_000, "the first review");
    const output = (await env.api.get<ReviewOutput>(`/api/decisions/${decision.id}/output`)).body;
    const anchor = output.anchors.find((a) => a.anchor === "problem_statement_refined")!;
    expect((await env.api.post(`/api/decisions/${decision.id}/comments`, { anchor: anchor.anchor, text: "Name the vendors' phones." })).status).toBe(201);
    expect((await env.api.post(`/runs/${runId}/reject`, { feedback: "Tighten the scope." })).status).toBe(200);

    const call = await eventually(async () => n8n.calls.find((c) => c.body.run_id === runId && c.body.is_feedback), 20_000, "the revision call");
    const body = call.body as typeof call.body & { comments: unknown[] };
    expect(body.comments).toEqual([{ anchor: "problem_statement_refined", label: "Problem statement refined", quote: anchor.quote, text: "Name the vendors' phones." }]);
    expect(body.feedback).toContain("Tighten the scope.");
    expect(body.feedback).toContain('- [problem_statement_refined] on "');
    expect(body.feedback).toContain(": Name the vendors' phones.");
    // The fake n8n agent reads only `feedback`; its revision arrives and waits for review as before.
    await eventually(async () => ((await env.api.get(`/runs/${runId}`)).body.status === "WAITING_APPROVAL_REQUIREMENTS" && (await env.api.get<DecisionPage>(`/api/decisions?view=all&run_id=${runId}`)).body.items.length === 2 ? true : undefined), 20_000, "the revision");
  });
});
