/**
 * Decisions (the reviewer's desk, first slice): a decision opens in the transaction of the event that makes a run wait
 * for a person and closes in the one that ends the wait, exactly once, for the pipeline's outputs and a plain flow's
 * UX and review gates; the inbox lists them with the caller's roles, over REST and tRPC alike.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bootstrapOperator } from "../testing/credentials";
import { testDatabases } from "../testing/databases";
import { chain, graphOf, reviewGate, uxNode, workerNode } from "../testing/flows";
import { createPerson } from "../testing/people";
import { type ServerOnTestDatabase, serverOn } from "../testing/suite";
import { eventually } from "../testing/workerServer";
import type { Decision, DecisionPage } from "./schemas";

const BRIEF = { domain: "tool-library", brief: "A tool library where neighbours lend drills, ladders and saws to each other." };

describe.each(testDatabases)("decisions on $name", (testDatabase) => {
  let env: ServerOnTestDatabase;
  const inbox = async (query = "", token?: string) => {
    const api = token ? env.api.as(token) : env.api;
    const answer = await api.get<DecisionPage>(`/api/decisions${query}`);
    expect(answer.status).toBe(200);
    return answer.body;
  };
  const ofRun = async (runId: string, state = "all") => (await inbox(`?view=all&state=${state}&run_id=${encodeURIComponent(runId)}`)).items;

  beforeAll(async () => {
    env = await serverOn(testDatabase);
  });
  afterAll(async () => {
    await env?.close();
  });

  it("a pipeline output waiting for review is one open decision; approving, requesting changes and cancelling close it", async () => {
    const run = (await env.api.post("/runs", BRIEF)).body;
    const waiting = async (count: number) => eventually(async () => {
      const found = await ofRun(run.run_id);
      return found.length === count && found.some((d) => d.state === "open") ? found : undefined;
    }, 30_000, `${count} decisions of ${run.run_id}`);

    const [first] = await waiting(1);
    expect(first).toMatchObject({
      kind: "review", state: "open", front_door: "pipeline", run_id: run.run_id, node_id: "review_requirements", title: "Review Requirements v1 of tool-library",
      context: "tool-library", assignee: { kind: "role", role: "reviewer" }, approvals_needed: 1, decided_by: null, outcome: null,
    });
    expect(first!.started_by?.name).toBeTruthy();
    expect(await env.api.get(`/api/decisions/${first!.id}`)).toMatchObject({ status: 200, body: { id: first!.id } });

    expect((await env.api.post(`/runs/${run.run_id}/reject`, { feedback: "add a waiting list" })).status).toBe(200);
    const afterReject = await waiting(2);
    expect(afterReject.find((d) => d.id === first!.id)).toMatchObject({ state: "decided", outcome: "request_changes" });
    expect(afterReject.find((d) => d.state === "open")).toMatchObject({ title: "Review Requirements v2 of tool-library" });

    expect((await env.api.post(`/runs/${run.run_id}/approve`)).status).toBe(200);
    const afterApprove = await waiting(3);
    expect(afterApprove.filter((d) => d.outcome === "approve")).toHaveLength(1);
    expect(afterApprove.find((d) => d.state === "open")).toMatchObject({ node_id: "review_inception" });

    expect((await env.api.post(`/runs/${run.run_id}/cancel`, { reason: "withdrawn" })).status).toBe(200);
    const closed = await ofRun(run.run_id);
    expect(closed).toHaveLength(3);
    expect(closed.filter((d) => d.state === "open")).toEqual([]);
    expect(closed.find((d) => d.node_id === "review_inception")).toMatchObject({ state: "cancelled", outcome: "cancelled", decided_by: null });
  });

  it("a plain flow's UX node and review gate are decisions too, once each however often the event repeats", async () => {
    const flow = await env.api.createFlow(graphOf([uxNode("ask"), workerNode("W", "https://worker.example.test/hook"), reviewGate("check")], chain("ask", "W", "check")));
    const run = await env.api.startRun(flow.id);
    const [ask] = await ofRun(run.id, "open");
    expect(ask).toMatchObject({ kind: "completion", front_door: "flow", node_id: "ask", title: `Complete "ask" of flow run ${run.id.slice(0, 8)}` });
    for (let i = 0; i < 2; i++) expect((await env.api.post(`/api/stitch/complete/${run.id}/ask`, { answer: 42 })).status).toBe(200);
    expect((await env.api.post(`/api/stitch/callback/${run.id}/W`, { status: "completed", output: "draft" })).status).toBe(200);
    expect((await env.api.post(`/api/stitch/callback/${run.id}/W`, { status: "completed", output: "draft" })).body.duplicate).toBe(true);
    const decisions = await ofRun(run.id);
    expect(decisions.map((d) => [d.node_id, d.kind, d.state, d.outcome])).toEqual([
      ["check", "review", "open", null],
      ["ask", "completion", "decided", "complete"],
    ]);
  });

  it("a YAML approval waiting is a decision; rejecting it without on_reject closes it as a rejection, by the rejecter", async () => {
    const yaml = "name: decided-gate\ndescription: a gate\nnodes:\n  - id: gate\n    approval:\n      message: Go on?\n";
    expect((await env.api.post("/api/workflows", yaml, { "content-type": "application/yaml" })).status).toBe(201);
    const run = (await env.api.post("/api/workflows/decided-gate/runs", { message: "ship the tool library" })).body;
    const [waiting] = await eventually(async () => {
      const open = await ofRun(run.id, "open");
      return open.length === 1 ? open : undefined;
    });
    expect(waiting).toMatchObject({ kind: "approval", front_door: "yaml", node_id: "gate", title: 'Approve "gate" of decided-gate (ship the tool library)' });
    expect((await env.api.post(`/api/workflows/runs/${run.id}/nodes/gate/reject`, { reason: "not yet" })).body.status).toBe("cancelled");
    expect((await env.api.get<Decision>(`/api/decisions/${waiting!.id}`)).body).toMatchObject({ state: "decided", outcome: "reject", decided_by: expect.any(String) });
  });

  it("the inbox reads with the caller's roles: a reviewer's open count and role view hold what an analyst's do not", async () => {
    const rita = await createPerson(env.server.people, "Rita Reviewer", "reviewer");
    const alan = await createPerson(env.server.people, "Alan Analyst", "analyst");
    const forRita = await inbox("", rita.token);
    expect(forRita.open_for_me).toBeGreaterThan(0);
    expect(forRita.items.every((d: Decision) => d.state === "open" && d.assignee.role === "reviewer")).toBe(true);
    const forAlan = await inbox("", alan.token);
    expect(forAlan).toMatchObject({ items: [], open_for_me: 0 });
    // Analysts still read every decision, to follow what their runs wait for.
    expect((await inbox("?view=all&state=open", alan.token)).items.length).toBe(forRita.open_for_me);
    expect((await inbox("?q=tool-lib&view=all&state=all")).items.every((d) => d.title.includes("tool-library"))).toBe(true);
  });

  it("separation of duties, when the instance's policy sets it: whoever submitted the brief may not review its outputs (403 naming who may); another reviewer may", async () => {
    await env.server.policy.commands.change(bootstrapOperator, { self_approval: false });
    const sam = await createPerson(env.server.people, "Sam Submitter", "reviewer");
    const rita = await createPerson(env.server.people, "Rita Ramos", "reviewer");
    const run = (await env.api.as(sam.token).post("/runs", BRIEF)).body;
    const [waiting] = await eventually(async () => {
      const open = await ofRun(run.run_id, "open");
      return open.length === 1 ? open : undefined;
    });
    expect(waiting!.started_by).toEqual({ id: sam.accountId, name: "Sam Submitter" });
    const refused = await env.api.as(sam.token).post(`/runs/${run.run_id}/approve`);
    expect(refused).toMatchObject({ status: 403, body: { error: "forbidden" } });
    expect(refused.body.message).toContain("separation of duties");
    expect((await env.api.as(sam.token).post(`/api/decisions/${waiting!.id}/claim`)).status).toBe(403);
    expect((await env.api.as(rita.token).post(`/runs/${run.run_id}/approve`)).status).toBe(200);
    expect((await env.api.get<Decision>(`/api/decisions/${waiting!.id}`)).body).toMatchObject({ state: "decided", outcome: "approve", decided_by: "Rita Ramos" });
    await env.server.policy.commands.change(bootstrapOperator, { self_approval: true });
  });

  it("claims: of two reviewers claiming at once one wins; then only she may decide, until she releases it or an operator reassigns it", async () => {
    const [ann, bob] = await Promise.all([createPerson(env.server.people, "Ann Claimer", "reviewer"), createPerson(env.server.people, "Bob Claimer", "reviewer")]);
    const run = (await env.api.post("/runs", BRIEF)).body;
    const [waiting] = await eventually(async () => {
      const open = await ofRun(run.run_id, "open");
      return open.length === 1 ? open : undefined;
    });
    const claims = await Promise.all([ann, bob].map((person) => env.api.as(person.token).post(`/api/decisions/${waiting!.id}/claim`)));
    expect(claims.map((c) => c.status).sort()).toEqual([200, 409]);
    const [winner, loser] = claims[0]!.status === 200 ? [ann, bob] : [bob, ann];
    expect(claims.find((c) => c.status === 409)!.body.message).toContain(`claimed by ${winner.name}`);
    expect((await inbox("?view=mine", winner.token)).items.map((d) => d.id)).toEqual([waiting!.id]);

    const refused = await env.api.as(loser.token).post(`/runs/${run.run_id}/reject`, { feedback: "not mine to say" });
    expect(refused).toMatchObject({ status: 403 });
    expect(refused.body.message).toContain(`only ${winner.name}`);
    expect((await env.api.as(loser.token).post(`/api/decisions/${waiting!.id}/release`)).status).toBe(403);

    expect((await env.api.post(`/api/decisions/${waiting!.id}/assign`, { account_id: loser.accountId })).body.assignee).toMatchObject({ kind: "account", name: loser.name });
    expect((await env.api.as(winner.token).post(`/runs/${run.run_id}/approve`)).status).toBe(403);
    expect((await env.api.as(loser.token).post(`/api/decisions/${waiting!.id}/release`)).body.assignee).toMatchObject({ kind: "role", role: "reviewer" });
    expect((await env.api.as(winner.token).post(`/runs/${run.run_id}/approve`)).status).toBe(200);
    expect((await env.api.as(winner.token).post(`/api/decisions/${waiting!.id}/claim`)).status).toBe(409);
  });

  it("pages with a cursor and refuses a bad query by name", async () => {
    const first = await inbox("?view=all&state=all&limit=1");
    expect(first.items).toHaveLength(1);
    const second = await inbox(`?view=all&state=all&limit=1&cursor=${first.next_cursor}`);
    expect(second.items[0]!.id).not.toBe(first.items[0]!.id);
    expect(await env.api.get("/api/decisions?view=nobody")).toMatchObject({ status: 400, body: { error: "invalid_query" } });
    expect(await env.api.get("/api/decisions?cursor=nonsense")).toMatchObject({ status: 400 });
    expect(await env.api.get("/api/decisions/00000000-0000-4000-8000-000000000000")).toMatchObject({ status: 404 });
  });
});
