/**
 * The rules a decision obeys, on every test database, over REST as people and automation would use it: who decides
 * (`assignee`, by role or email; claims and their races), separation of duties (`self_approval`), quorum (`approvals`),
 * deadlines (`due_in`: the reminder, escalation, the deadline's own outcome, a deadline racing a person, a deadline
 * pending across a restart), all stated in YAML approvals, Stitch gates' data and the pipeline's agents alike.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { approvalWorkflow } from "../testing/approvalWorkflow";
import { bootstrapOperator } from "../testing/credentials";
import { testDatabases } from "../testing/databases";
import { graphOf, uxNode, workerNode } from "../testing/flows";
import { freePort, startTestServer } from "../testing/harness";
import { type TestPerson, createPerson } from "../testing/people";
import { createReopenableDatabase } from "../testing/reopenableDatabase";
import { StitchClient, holdWorker } from "../testing/stitchClient";
import { type ServerOnTestDatabase, serverOn } from "../testing/suite";
import { type WorkerServer, eventually, startWorkerServer } from "../testing/workerServer";
import type { Decision, DecisionActivity, DecisionPage } from "./schemas";

describe.each(testDatabases)("decision rules on $name", (testDatabase) => {
  let env: ServerOnTestDatabase;
  let rita: TestPerson;
  let sam: TestPerson;
  let olga: TestPerson;
  let worker: WorkerServer;
  let serial = 0;

  const decisionsOf = async (runId: string): Promise<Decision[]> => (await env.api.get<DecisionPage>(`/api/decisions?view=all&state=all&run_id=${encodeURIComponent(runId)}`)).body.items;
  const openOf = (runId: string) => eventually(async () => (await decisionsOf(runId)).find((d) => d.state === "open"), 20_000, `an open decision of ${runId}`);
  const activityOf = async (runId: string) => (await env.api.get<{ items: DecisionActivity[] }>(`/api/decisions/activity?run_id=${encodeURIComponent(runId)}`)).body.items;
  /** The decision afterwards, or the refusal (`message`). */
  const decide = (id: string, person: TestPerson | null, body: Record<string, unknown>) =>
    (person ? env.api.as(person.token) : env.api).post<Decision & { message?: string }>(`/api/decisions/${id}/decide`, body);

  /** Registers a one-approval YAML workflow with `rules` and starts it as `by` (the operator token when null). */
  const yamlRun = async (rules: string, by: TestPerson | null = null): Promise<string> => {
    const name = `rules-${++serial}`;
    expect((await env.api.post("/api/workflows", { yaml: approvalWorkflow(name, rules) })).status).toBe(201);
    const started = await (by ? env.api.as(by.token) : env.api).post(`/api/workflows/${name}/runs`, { message: "release 1.2" });
    expect(started.status).toBe(201);
    return started.body.id as string;
  };
  const yamlStatus = async (runId: string) => (await env.api.get(`/api/workflows/runs/${runId}`)).body.status as string;

  beforeAll(async () => {
    env = await serverOn(testDatabase, { DECISION_REMINDER_PERCENT: "50" });
    rita = await createPerson(env.server.people, "Rita Ramos", "reviewer");
    sam = await createPerson(env.server.people, "Sam Stone", "reviewer");
    olga = await createPerson(env.server.people, "Olga Operator", "operator");
    worker = await startWorkerServer(holdWorker);
  });
  afterAll(async () => {
    await env?.close();
    await worker?.close();
  });

  it("a definition that states a rule badly is refused, naming the field", async () => {
    const badDue = await env.api.post("/api/workflows", { yaml: approvalWorkflow("bad-due", "due_in: soon") });
    expect(badDue.status).toBe(400);
    expect(JSON.stringify(badDue.body)).toContain('due_in must be a duration such as \\"90s\\"');
    const badAssignee = await env.api.post("/api/workflows", { yaml: approvalWorkflow("bad-assignee", "assignee: the boss") });
    expect(JSON.stringify(badAssignee.body)).toContain("assignee must be a role");
    const badFlow = await env.api.post("/api/stitch/flows", { name: "bad", graph: graphOf([uxNode("ask", { approvals: 0 })]) });
    expect(badFlow.status).toBe(400);
    expect(badFlow.body.message).toContain("data.approvals");
    const onWorker = await env.api.post("/api/stitch/flows", { name: "bad", graph: graphOf([{ id: "w", type: "Worker", position: { x: 0, y: 0 }, data: { webhookUrl: "http://127.0.0.1:9/", due_in: "1h" } }]) });
    expect(onWorker.body.message).toContain("only UX nodes and interactive loops wait for a person");
  });

  it("assignee by email: only that person may decide (403 naming her), and the decision says so", async () => {
    const runId = await yamlRun(`assignee: ${rita.email.toUpperCase()}`);
    const open = await openOf(runId);
    expect(open.assignee).toEqual({ kind: "account", id: rita.accountId, name: "Rita Ramos", role: "reviewer" });
    const refused = await decide(open.id, sam, { outcome: "approve" });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain("Rita Ramos");
    // The workflow's own endpoint obeys the same rule.
    expect((await env.api.as(sam.token).post(`/api/workflows/runs/${runId}/nodes/ok/approve`, {})).status).toBe(403);
    expect((await decide(open.id, rita, { outcome: "approve", comment: "ship" })).body).toMatchObject({ state: "decided", outcome: "approve", decided_by: "Rita Ramos" });
    await eventually(async () => ((await yamlStatus(runId)) === "completed" ? true : undefined), 20_000, "the run to complete");
    // "Decided by me" lists it for Rita, not for Sam.
    const mine = (await env.api.as(rita.token).get<DecisionPage>("/api/decisions?view=decided")).body.items;
    expect(mine.map((d) => d.id)).toContain(open.id);
    expect((await env.api.as(sam.token).get<DecisionPage>("/api/decisions?view=decided")).body.items.map((d) => d.id)).not.toContain(open.id);
  });

  it("two reviewers claiming at once: one gets it, the other is told who has it", async () => {
    const runId = await yamlRun("assignee: reviewer");
    const open = await openOf(runId);
    const [a, b] = await Promise.all([env.api.as(rita.token).post(`/api/decisions/${open.id}/claim`), env.api.as(sam.token).post(`/api/decisions/${open.id}/claim`)]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const loser = a.status === 409 ? a : b;
    expect(loser.body.message).toMatch(/claimed by (Rita Ramos|Sam Stone) already/);
    const activity = await activityOf(runId);
    expect(activity.filter((e) => e.type === "claimed")).toHaveLength(1);
  });

  it("self_approval: false refuses whoever started the run, whatever their role, and the audit trail records the refusal", async () => {
    const runId = await yamlRun("self_approval: false", olga);
    const open = await openOf(runId);
    expect(open.started_by).toEqual({ id: olga.accountId, name: "Olga Operator" });
    const refused = await decide(open.id, olga, { outcome: "approve" });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain("separation of duties");
    const audit = (await env.api.get(`/api/audit?target_id=${open.id}&outcome=refused`)).body.entries as { action: string; status: number }[];
    expect(audit).toEqual(expect.arrayContaining([expect.objectContaining({ action: "decisions.decide", status: 403 })]));
    expect((await decide(open.id, rita, { outcome: "approve" })).status).toBe(200);
  });

  it("with the instance's policy set to separation of duties, the pipeline's reviews are not for whoever submitted the brief, even a reviewer", async () => {
    await env.server.policy.commands.change(bootstrapOperator, { self_approval: false });
    const run = await env.api.as(rita.token).post("/runs", { domain: "tool-library", brief: "A tool library where neighbours lend drills, ladders and saws to each other." });
    const open = await openOf(run.body.run_id);
    const refused = await env.api.as(rita.token).post(`/runs/${run.body.run_id}/approve`);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain("separation of duties");
    expect((await decide(open.id, sam, { outcome: "request_changes" })).status).toBe(422); // feedback (or an open comment on a part) is required
    expect((await decide(open.id, sam, { outcome: "request_changes", comment: "add a waiting list" })).body).toMatchObject({ state: "decided", outcome: "request_changes" });
    await env.api.post(`/runs/${run.body.run_id}/cancel`, { reason: "done testing" });
    await env.server.policy.commands.change(bootstrapOperator, { self_approval: true });
  });

  it("approvals: 2 needs two different people; the same person twice is refused; the conversation says 1 of 2", async () => {
    const runId = await yamlRun("approvals: 2");
    const open = await openOf(runId);
    expect(open.approvals_needed).toBe(2);
    // A quorum is for a role: no one person claims it.
    expect((await env.api.as(rita.token).post(`/api/decisions/${open.id}/claim`)).status).toBe(409);
    const first = await decide(open.id, rita, { outcome: "approve" });
    expect(first.body).toMatchObject({ state: "open", approvals: [{ by: "Rita Ramos" }] });
    expect((await yamlStatus(runId))).toBe("waiting_for_user");
    const again = await env.api.as(rita.token).post(`/api/workflows/runs/${runId}/nodes/ok/approve`, {});
    expect(again.status).toBe(409);
    expect(again.body.message).toContain("1 of 2 approvals");
    expect((await activityOf(runId)).find((e) => e.type === "approved")).toMatchObject({ by: { name: "Rita Ramos" }, detail: { approvals: 1, approvals_needed: 2 } });
    expect((await decide(open.id, sam, { outcome: "approve" })).body).toMatchObject({ state: "decided", outcome: "approve", approvals: [{ by: "Rita Ramos" }, { by: "Sam Stone" }] });
    await eventually(async () => ((await yamlStatus(runId)) === "completed" ? true : undefined), 20_000, "the run to complete");
  });

  it("approvals: 2 and a request for changes after one approval sends it back at once", async () => {
    const flow = await env.api.createFlow(graphOf([workerNode("W", `${worker.url}/draft`), uxNode("check", { gate: "review", approvals: 2 })], [["W", "check"]]));
    const run = await env.api.startRun(flow.id);
    await worker.waitFor(1);
    expect((await env.api.post(`/api/stitch/callback/${run.id}/W`, { status: "completed", output: "v1" })).status).toBe(200);
    const open = await eventually(async () => (await decisionsOf(run.id)).find((d) => d.state === "open" && d.node_id === "check"), 20_000, "the review");
    expect((await env.api.as(rita.token).post(`/api/stitch/review/${run.id}/check`, { decision: "approve" })).body.message).toContain("waits for another person's approval");
    const back = await decide(open.id, sam, { outcome: "request_changes", comment: "not yet" });
    expect(back.body).toMatchObject({ state: "decided", outcome: "request_changes", approvals: [{ by: "Rita Ramos" }] });
    const again = await env.api.getRun(run.id);
    expect(again.node_states.W!.status).toBe("running");
    expect(again.node_states.check!.status).toBe("pending");
  });

  it("due_in with on_overdue escalate: reminded, then overdue and handed to the operators, each in the activity", async () => {
    const runId = await yamlRun("due_in: 2s\non_overdue: { escalate: operator }");
    const open = await openOf(runId);
    expect(Date.parse(open.due_at!) - Date.parse(open.waiting_since)).toBe(2000);
    expect(open.on_overdue).toEqual({ escalate: "operator" });
    const escalated = await eventually(async () => {
      const d = (await decisionsOf(runId))[0]!;
      return d.assignee.role === "operator" ? d : undefined;
    }, 20_000, "the escalation");
    expect(escalated.state).toBe("open");
    const types = (await activityOf(runId)).map((e) => e.type);
    expect(types).toEqual(["opened", "reminded", "escalated"]);
    // Overdue in the inbox; a reviewer may no longer take it, an operator may.
    expect((await env.api.get<DecisionPage>("/api/decisions?view=overdue")).body.items.map((d) => d.id)).toContain(open.id);
    expect((await decide(open.id, rita, { outcome: "approve" })).status).toBe(403);
    expect((await decide(open.id, olga, { outcome: "approve" })).status).toBe(200);
  });

  it("due_in with on_overdue outcome: the deadline rejects with its reason, recorded as the system's, and the decision expires", async () => {
    const runId = await yamlRun("due_in: 1s\non_overdue: { outcome: reject, reason: nobody answered in time }");
    const open = await openOf(runId);
    const expired = await eventually(async () => {
      const d = (await decisionsOf(runId))[0]!;
      return d.state === "expired" ? d : undefined;
    }, 20_000, "the deadline");
    expect(expired).toMatchObject({ id: open.id, outcome: "reject", decided_by: "the deadline" });
    await eventually(async () => ((await yamlStatus(runId)) === "cancelled" ? true : undefined), 20_000, "the run to be cancelled");
    const run = (await env.api.get(`/api/workflows/runs/${runId}`)).body;
    expect(run.cancel_reason ?? JSON.stringify(run)).toContain("nobody answered in time");
  });

  it("a decision made in the same instant as its deadline is the person's or the deadline's, never both", async () => {
    const outcomes: string[] = [];
    for (let round = 0; round < 3; round++) {
      const runId = await yamlRun("due_in: 1s\non_overdue: { outcome: approve }");
      const open = await openOf(runId);
      // Aimed at the deadline: sent from just before it until one is accepted or refused as closed.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(open.due_at!) - Date.now() - 30)));
      const answer = await decide(open.id, rita, { outcome: "reject", comment: "too late?" });
      expect([200, 409]).toContain(answer.status);
      const closed = await eventually(async () => (await decisionsOf(runId)).find((d) => d.state !== "open"), 20_000, "the close");
      expect(await decisionsOf(runId)).toHaveLength(1);
      // Accepted: the person's rejection closed it. Refused as closed: the deadline's approval had.
      expect([closed.state, closed.outcome]).toEqual(answer.status === 200 ? ["decided", "reject"] : ["expired", "approve"]);
      outcomes.push(closed.state);
      const status = await eventually(async () => {
        const s = await yamlStatus(runId);
        return s === "completed" || s === "cancelled" ? s : undefined;
      }, 20_000, "the run to end");
      expect(status).toBe(closed.state === "expired" ? "completed" : "cancelled");
    }
    expect(outcomes).toHaveLength(3);
  });
});

describe.each(testDatabases)("a decision's deadline across a restart on $name", (testDatabase) => {
  it("a deadline pending while no server runs fires once the next one starts", async () => {
    const store = await createReopenableDatabase(testDatabase.name);
    const port = await freePort();
    const env = { PORT: String(port), NEXT_PUBLIC_BASE_URL: `http://127.0.0.1:${port}` };
    let server = await startTestServer(await store.open(), env);
    try {
      const api = new StitchClient(server.url);
      const flow = await api.createFlow(graphOf([uxNode("ask", { due_in: "2s", on_overdue: { escalate: "operator" } })]));
      const run = await api.startRun(flow.id);
      const [open] = (await api.get<DecisionPage>(`/api/decisions?run_id=${run.id}&view=all`)).body.items;
      expect(open!.assignee.role).toBe("reviewer");
      await server.close();
      // Down past the due time.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(open!.due_at!) - Date.now() + 200)));
      server = await startTestServer(await store.open(), env);
      const escalated = await eventually(async () => {
        const [d] = (await api.get<DecisionPage>(`/api/decisions?run_id=${run.id}&view=all`)).body.items;
        return d?.assignee.role === "operator" ? d : undefined;
      }, 20_000, "the escalation after the restart");
      expect(escalated.state).toBe("open");
      const activity = (await api.get<{ items: DecisionActivity[] }>(`/api/decisions/activity?run_id=${run.id}`)).body.items;
      expect(activity.filter((e) => e.type === "escalated")).toHaveLength(1);
    } finally {
      await server.close();
      await store.destroy();
    }
  });
});
