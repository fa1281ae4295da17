/**
 * No decision waits for nobody: whether anyone can take a decision is known when it opens and whenever people, roles,
 * assignments or the separation-of-duties policy change; a decision nobody can take says so (`decidable: false` with
 * its reason) in `GET /api/decisions` and its run's activity, and the operators are told (a `decision.undecidable`
 * notification). One test per cause, on every test database, over REST as people use it; then the pure rule.
 */
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { notificationEvents } from "../../db/schema";
import { approvalWorkflow } from "../testing/approvalWorkflow";
import { bootstrapOperator } from "../testing/credentials";
import { testDatabases } from "../testing/databases";
import { graphOf, uxNode } from "../testing/flows";
import { type TestPerson, createPerson } from "../testing/people";
import { type ServerOnTestDatabase, serverOn } from "../testing/suite";
import { eventually } from "../testing/workerServer";
import { decidability } from "./decidability";
import type { Decision, DecisionActivity, DecisionPage } from "./schemas";

const BRIEF = { domain: "tool-library", brief: "A tool library where neighbours lend drills, ladders and saws to each other." };
const oneApproval = (name: string, rules: string) => approvalWorkflow(name, rules, "one approval");

describe.each(testDatabases)("whether anyone can take a decision, on $name", (testDatabase) => {
  let env: ServerOnTestDatabase | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  const fresh = async () => (env = await serverOn(testDatabase));
  const openOf = (runId: string) =>
    eventually(async () => (await env!.api.get<DecisionPage>(`/api/decisions?view=all&state=open&run_id=${encodeURIComponent(runId)}`)).body.items[0], 30_000, `an open decision of ${runId}`);
  const current = async (id: string) => (await env!.api.get<Decision>(`/api/decisions/${id}`)).body;
  const activityOf = async (runId: string) => (await env!.api.get<{ items: DecisionActivity[] }>(`/api/decisions/activity?run_id=${encodeURIComponent(runId)}`)).body.items;
  const toldOperators = async (decisionId: string) =>
    (await env!.database.run((db) => db.select().from(notificationEvents).where(eq(notificationEvents.type, "decision.undecidable")))).filter(
      (e) => (e.payload as { decision: { id: string } }).decision.id === decisionId,
    ).length;
  const yamlRun = async (rules: string, by: TestPerson | null = null) => {
    const name = `w${Math.floor(Math.random() * 1e9)}`;
    expect((await env!.api.post("/api/workflows", { yaml: oneApproval(name, rules) })).status).toBe(201);
    const started = await (by ? env!.api.as(by.token) : env!.api).post(`/api/workflows/${name}/runs`, { message: "release 1.2" });
    expect(started.status).toBe(201);
    return started.body.id as string;
  };

  it("a fresh install allows self-approval: the brief's submitter, alone, approves her own output", async () => {
    await fresh();
    const olga = await createPerson(env!.server.people, "Olga Operator", "operator");
    const run = (await env!.api.as(olga.token).post("/runs", BRIEF)).body;
    const open = await openOf(run.run_id);
    expect(open).toMatchObject({ self_approval: true, decidable: true, undecidable: null });
    expect((await env!.api.as(olga.token).post(`/runs/${run.run_id}/approve`)).status).toBe(200);
  });

  it("separation: with the policy refusing self-approval, the only person's own review is undecidable; allowing it again makes it decidable", async () => {
    await fresh();
    const olga = await createPerson(env!.server.people, "Olga Operator", "operator");
    await env!.server.policy.commands.change(bootstrapOperator, { self_approval: false });
    const run = (await env!.api.as(olga.token).post("/runs", BRIEF)).body;
    const open = await openOf(run.run_id);
    expect(open).toMatchObject({ self_approval: false, decidable: false, undecidable: { cause: "separation" } });
    expect(open.undecidable!.reason).toContain("Olga Operator started this run");
    expect((await env!.api.get<DecisionPage>("/api/decisions?view=undecidable")).body).toMatchObject({ undecidable: 1, items: [{ id: open.id }] });
    expect(await toldOperators(open.id)).toBe(1);
    expect((await activityOf(run.run_id)).map((e) => e.type)).toContain("undecidable");
    // The open decision follows the policy (its definition set no `self_approval`).
    await env!.server.policy.commands.change(bootstrapOperator, { self_approval: true });
    expect(await current(open.id)).toMatchObject({ self_approval: true, decidable: true, undecidable: null });
    expect((await activityOf(run.run_id)).map((e) => e.type)).toContain("decidable");
    expect((await env!.api.as(olga.token).post(`/runs/${run.run_id}/approve`)).status).toBe(200);
  });

  it("quorum: `approvals: 2` with one person who may approve is undecidable until a second accepts her invitation", async () => {
    await fresh();
    await createPerson(env!.server.people, "Olga Operator", "operator");
    const runId = await yamlRun("approvals: 2");
    const open = await openOf(runId);
    expect(open).toMatchObject({ decidable: false, undecidable: { cause: "quorum" } });
    expect(open.undecidable!.reason).toContain("only 1 person");
    await createPerson(env!.server.people, "Rita Ramos", "reviewer");
    expect(await current(open.id)).toMatchObject({ decidable: true, undecidable: null });
  });

  it("no one with the role: a decision for reviewers on an install with no account (automation only) is undecidable until someone can sign in", async () => {
    await fresh();
    const runId = await yamlRun("assignee: reviewer");
    const open = await openOf(runId);
    expect(open).toMatchObject({ decidable: false, undecidable: { cause: "no_one_with_role" } });
    await createPerson(env!.server.people, "Rita Ramos", "reviewer");
    expect(await current(open.id)).toMatchObject({ decidable: true });
  });

  it("deactivated assignee: disabling the person a decision is assigned to makes it undecidable; assigning it to someone who can fixes it", async () => {
    await fresh();
    await createPerson(env!.server.people, "Olga Operator", "operator");
    const rita = await createPerson(env!.server.people, "Rita Ramos", "reviewer");
    const sam = await createPerson(env!.server.people, "Sam Stone", "reviewer");
    const runId = await yamlRun(`assignee: ${rita.email}`);
    const open = await openOf(runId);
    expect(open).toMatchObject({ assignee: { kind: "account", id: rita.accountId }, decidable: true });
    await env!.server.people.commands.setDisabled(bootstrapOperator, rita.accountId, true);
    const after = await current(open.id);
    expect(after).toMatchObject({ decidable: false, undecidable: { cause: "assignee_inactive" } });
    expect(after.undecidable!.reason).toContain("Rita Ramos");
    expect(await toldOperators(open.id)).toBe(1);
    expect((await env!.api.post(`/api/decisions/${open.id}/assign`, { account_id: sam.accountId })).body).toMatchObject({ decidable: true, assignee: { id: sam.accountId } });
  });

  it("a role change counts: demoting the only reviewer of a flow gate that needs two approvals from reviewers leaves it undecidable", async () => {
    await fresh();
    await createPerson(env!.server.people, "Olga Operator", "operator");
    const rita = await createPerson(env!.server.people, "Rita Ramos", "reviewer");
    const run = await env!.api.run(graphOf([uxNode("gate", { approvals: 2 })]));
    const open = await openOf(run.id);
    expect(open).toMatchObject({ front_door: "flow", decidable: true });
    await env!.server.people.commands.changeRole(rita.accountId, "analyst");
    expect(await current(open.id)).toMatchObject({ decidable: false, undecidable: { cause: "quorum" } });
    await env!.server.people.commands.changeRole(rita.accountId, "reviewer");
    expect(await current(open.id)).toMatchObject({ decidable: true });
  });
});

describe("decidability, the rule", () => {
  const olga = { id: "o", name: "Olga", role: "operator" as const };
  const rita = { id: "r", name: "Rita", role: "reviewer" as const };
  const base = { assigneeRole: "reviewer", assigneeAccountId: null, assigneeName: null, approvalsNeeded: 1, approvedBy: [], selfApproval: true, startedById: "o", startedByName: "Olga" };

  it("a role with someone who may act for it is decidable; an operator acts for every role", () => {
    expect(decidability(base, [olga])).toEqual({ decidable: true });
  });
  it("each cause, named", () => {
    expect(decidability(base, [])).toMatchObject({ decidable: false, cause: "no_one_with_role" });
    expect(decidability({ ...base, selfApproval: false }, [olga])).toMatchObject({ decidable: false, cause: "separation" });
    expect(decidability({ ...base, approvalsNeeded: 2 }, [olga])).toMatchObject({ decidable: false, cause: "quorum" });
    expect(decidability({ ...base, assigneeAccountId: "r", assigneeName: "Rita" }, [olga])).toMatchObject({ decidable: false, cause: "assignee_inactive" });
  });
  it("approvals already given count: one of two given by Rita, and Olga left to give the second", () => {
    expect(decidability({ ...base, approvalsNeeded: 2, approvedBy: ["r"] }, [olga, rita])).toEqual({ decidable: true });
    expect(decidability({ ...base, approvalsNeeded: 2, approvedBy: ["r"], selfApproval: false }, [olga, rita])).toMatchObject({ decidable: false, cause: "separation" });
  });
});
