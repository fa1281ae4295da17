/**
 * The analyst owns her brief: the analyst who submitted a pipeline run (or started a YAML or step workflow run) may
 * cancel it, recorded as hers and audited; she may edit the brief and restart the first agent while no output has
 * been approved, the old brief staying in the conversation and a late answer to the replaced call refused. Another
 * analyst may do neither. REST and tRPC answer the same.
 */
import { TRPCError } from "@trpc/server";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rows } from "../../db/client";
import type { Identity } from "../people/schemas";
import { callerContext } from "../testing/callerContext";
import { bootstrapOperator } from "../testing/credentials";
import { testDatabases } from "../testing/databases";
import { type FakeN8n, startFakeN8n } from "../testing/fakeN8n";
import { type TestPerson, createPerson } from "../testing/people";
import { type ServerOnTestDatabase, serverOn } from "../testing/suite";
import { eventually } from "../testing/workerServer";
import { gateFirstWorkflow, pausingStepWorkflow } from "../testing/waitingWorkflows";
import { createCaller } from "../trpc/router";

const BRIEF = "Tool library app for neighbours";
const BETTER = "A tool library for neighbours: members lend drills, ladders and saws, book them for a day, and get a reminder to return them.";
const THIRD = "A tool library for neighbours, run by volunteers: lending, booking, reminders, and a deposit paid by card.";

const GATE = gateFirstWorkflow("analyst-gate");
const SLOW_STEPS = pausingStepWorkflow("analyst-steps");

const HTTP_OF: Record<string, number> = { CONFLICT: 409, NOT_FOUND: 404, BAD_REQUEST: 400, FORBIDDEN: 403, UNAUTHORIZED: 401 };

describe.each(testDatabases)("the analyst's own runs on $name", (testDatabase) => {
  let env: ServerOnTestDatabase;
  let n8n: FakeN8n;
  let ann: TestPerson;
  let bob: TestPerson;
  let rita: TestPerson;

  const identityOf = (person: TestPerson): Identity => ({ kind: "token", accountId: person.accountId, name: person.name, role: person.role, tokenId: "00000000-0000-4000-8000-000000000001" });
  const trpcAs = (person: TestPerson) => createCaller(callerContext(env.server, identityOf(person)));
  const send = async (person: TestPerson, path: string, body: unknown = {}) => {
    const response = await fetch(`${env.server.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${person.token}` },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
  const get = async (path: string) => (await env.api.get(path)).body;
  const trpcStatus = async (call: Promise<unknown>) => {
    const error = await call.then(() => undefined, (e: unknown) => e);
    if (error === undefined) return 200;
    expect(error).toBeInstanceOf(TRPCError);
    return HTTP_OF[(error as TRPCError).code] ?? 500;
  };
  const waitFor = (runId: string, status: string) =>
    eventually(async () => ((await get(`/runs/${runId}`)).status === status ? true : undefined), 20_000, `run ${runId} ${status}`);
  const auditOf = (action: string, target: string) =>
    env.database.run((db) =>
      rows<{ actor_name: string; outcome: string; status: number }>(db, sql`SELECT actor_name, outcome, status FROM audit_log WHERE action = ${action} AND target_id = ${target} ORDER BY id`),
    );

  beforeAll(async () => {
    n8n = await startFakeN8n(() => env.server.url);
    env = await serverOn(testDatabase, { N8N_BASE_URL: n8n.url });
    [ann, bob, rita] = await Promise.all([
      createPerson(env.server.people, "Ann Analyst", "analyst"),
      createPerson(env.server.people, "Bob Other", "analyst"),
      createPerson(env.server.people, "Rita Reviewer", "reviewer"),
    ]);
  });
  afterAll(async () => {
    await env?.close();
    await n8n?.close();
  });

  it("she edits the brief while the first agent works and again while its output waits; the old call's late answer is refused; another analyst may not", async () => {
    n8n.style.requirements = "held";
    // Counted before the run is created: its first call may reach n8n before the creation's answer reaches the test.
    const calls = n8n.calls.length;
    const created = await send(ann, "/runs", { domain: "tool-library", brief: `${BRIEF} (one line)` });
    expect(created.status).toBe(200);
    const runId = created.body.run_id as string;
    expect(created.body.submitted_by).toEqual({ id: ann.accountId, name: "Ann Analyst" });
    await n8n.waitForCalls(calls + 1);

    // Bob did not submit it: refused through both doors, nothing changes.
    expect((await send(bob, `/runs/${runId}/brief`, { brief: BETTER })).status).toBe(403);
    expect(await trpcStatus(trpcAs(bob).pipeline.editBrief({ runId, brief: BETTER }))).toBe(403);
    expect((await send(bob, `/runs/${runId}/cancel`, { reason: "not mine" })).status).toBe(403);
    expect(await trpcStatus(trpcAs(bob).pipeline.cancel({ runId, reason: "not mine" }))).toBe(403);
    // A bad brief is refused and changes nothing.
    expect((await send(ann, `/runs/${runId}/brief`, { brief: "too short" })).status).toBe(422);
    expect((await get(`/runs/${runId}`)).brief).toBe(`${BRIEF} (one line)`);

    // Ann's edit through REST: the first agent is called anew (call 2) with the new brief.
    const edited = await send(ann, `/runs/${runId}/brief`, { brief: BETTER });
    expect(edited.status).toBe(200);
    expect(edited.body.brief).toBe(BETTER);
    const [, second] = (await n8n.waitForCalls(calls + 2)).slice(calls);
    expect(second!.body.context).toMatchObject({ brief: BETTER });
    expect(second!.body.callback_url).toMatch(/\?call=2$/);
    // Both held answers go back: the first call's is refused (the run waits for call 2), the second is the output.
    n8n.style.requirements = "preferred";
    const stale = await fetch(n8n.calls[calls]!.body.callback_url!, {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ run_id: runId, content: { artifact: { stale: true } } }),
    });
    expect(stale.status).toBe(409);
    expect((await get(`/runs/${runId}/artifacts`)).length).toBe(0);
    await n8n.release();
    await waitFor(runId, "WAITING_APPROVAL_REQUIREMENTS");
    const artifacts = await get(`/runs/${runId}/artifacts`);
    expect(artifacts).toHaveLength(1);
    expect(JSON.stringify(artifacts[0].content)).not.toContain("stale");

    // Again through tRPC while the output waits for review: its decision is cancelled and call 3 goes out.
    const again = await trpcAs(ann).pipeline.editBrief({ runId, brief: THIRD });
    expect(again.brief).toBe(THIRD);
    expect(again.state.phase).toBe("in_progress");
    const third = (await n8n.waitForCalls(calls + 3))[calls + 2]!;
    expect(third.body.callback_url).toMatch(/\?call=3$/);
    expect(third.body.is_feedback).toBe(false);
    await waitFor(runId, "WAITING_APPROVAL_REQUIREMENTS");
    const decisions = await env.database.run((db) => rows<{ state: string }>(db, sql`SELECT state FROM decisions WHERE run_id = ${runId} ORDER BY waiting_since`));
    expect(decisions.map((d) => d.state)).toEqual(["cancelled", "open"]);

    // The conversation keeps every version of the brief, each with who wrote it.
    const conversation = await trpcAs(ann).pipeline.conversation({ runId });
    const briefs = conversation.turns.flatMap((t) => (t.kind === "input" ? [t] : []));
    expect(briefs.map((b) => [b.body.version, b.body.value, b.who])).toEqual([
      [1, `${BRIEF} (one line)`, "Ann Analyst"],
      [2, BETTER, "Ann Analyst"],
      [3, THIRD, "Ann Analyst"],
    ]);
    expect((await auditOf("pipeline.editBrief", runId)).map((a) => [a.actor_name, a.outcome])).toEqual([
      ["Bob Other", "refused"],
      ["Bob Other", "refused"],
      ["Ann Analyst", "refused"],
      ["Ann Analyst", "accepted"],
      ["Ann Analyst", "accepted"],
    ]);

    // Once an output is approved, the brief stays: 409 through both doors.
    expect((await send(rita, `/runs/${runId}/approve`, {})).status).toBe(200);
    expect((await send(ann, `/runs/${runId}/brief`, { brief: BETTER })).status).toBe(409);
    expect(await trpcStatus(trpcAs(ann).pipeline.editBrief({ runId, brief: BETTER }))).toBe(409);
    expect((await get(`/runs/${runId}`)).brief).toBe(THIRD);

    // She cancels her own run (tRPC): recorded as hers in the conversation and the audit trail.
    const cancelled = await trpcAs(ann).pipeline.cancel({ runId, reason: "wrong neighbourhood" });
    expect(cancelled.state.phase).toBe("cancelled");
    const end = (await trpcAs(ann).pipeline.conversation({ runId })).turns.at(-1);
    expect(end).toMatchObject({ kind: "outcome", who: "Ann Analyst", body: { status: "cancelled", reason: "wrong neighbourhood" } });
    expect((await auditOf("pipeline.cancel", runId)).map((a) => [a.actor_name, a.outcome])).toEqual([
      ["Bob Other", "refused"],
      ["Bob Other", "refused"],
      ["Ann Analyst", "accepted"],
    ]);
    expect((await send(ann, `/runs/${runId}/brief`, { brief: BETTER })).status).toBe(409);

    // The audit trail names the run by its domain, and keeps what she said with each action.
    const operator = createCaller(callerContext(env.server, bootstrapOperator));
    const entries = (await operator.audit.list({ target: runId })).entries.filter((e) => e.outcome === "accepted");
    expect(new Set(entries.map((e) => e.target_title))).toEqual(new Set(["tool-library"]));
    expect(entries.find((e) => e.action === "pipeline.cancel")?.message).toBe("reason: wrong neighbourhood");
    expect(entries.find((e) => e.action === "pipeline.editBrief")?.message).toBe(`brief: ${THIRD}`);
  });

  it("she cancels her own run through REST while it waits; an operator still cancels anyone's", async () => {
    const mine = (await send(ann, "/runs", { domain: "tool-library", brief: BETTER })).body.run_id as string;
    await waitFor(mine, "WAITING_APPROVAL_REQUIREMENTS");
    const answer = await send(ann, `/runs/${mine}/cancel`, { reason: "changed my mind" });
    expect(answer.status).toBe(200);
    expect(answer.body.state.phase).toBe("cancelled");
    const bobs = (await send(bob, "/runs", { domain: "tool-library", brief: BETTER })).body.run_id as string;
    expect((await send(ann, `/runs/${bobs}/cancel`, {})).status).toBe(403);
    expect((await env.api.post(`/runs/${bobs}/cancel`, { reason: "by the operator" })).status).toBe(200);
  });

  it("YAML and step workflow runs: whoever started one may cancel it, another analyst may not, through both doors", async () => {
    expect((await env.api.post("/api/workflows", GATE, { "content-type": "application/yaml" })).status).toBe(201);
    expect((await env.api.post("/api/workflows", SLOW_STEPS)).status).toBe(201);
    const yamlRun = await send(ann, "/api/workflows/analyst-gate/runs", {});
    expect(yamlRun.status).toBe(201);
    const yamlId = yamlRun.body.id as string;
    // The run's view says who started it (its engine run's starter), through both doors: the app offers her "Cancel run" by it.
    expect(yamlRun.body.started_by).toEqual({ id: ann.accountId, name: "Ann Analyst" });
    expect((await trpcAs(bob).workflows.conversation({ runId: yamlId })).run.started_by).toEqual({ id: ann.accountId, name: "Ann Analyst" });
    expect((await trpcAs(bob).workflows.runs({ workflow: "analyst-gate" }))[0]?.started_by).toEqual({ id: ann.accountId, name: "Ann Analyst" });
    await eventually(async () => ((await get(`/api/workflows/runs/${yamlId}`)).nodes.gate.status === "waiting_for_user" ? true : undefined));
    expect((await send(bob, `/api/workflows/runs/${yamlId}/cancel`, {})).status).toBe(403);
    expect(await trpcStatus(trpcAs(bob).workflows.cancel({ runId: yamlId }))).toBe(403);
    expect((await get(`/api/workflows/runs/${yamlId}`)).status).not.toBe("cancelled");
    const yamlCancelled = await send(ann, `/api/workflows/runs/${yamlId}/cancel`, { reason: "mine" });
    expect(yamlCancelled.status).toBe(200);
    expect(yamlCancelled.body.status).toBe("cancelled");
    const yamlEnd = (await trpcAs(ann).workflows.conversation({ runId: yamlId })).turns.find((t) => t.kind === "outcome");
    expect(yamlEnd).toMatchObject({ who: "Ann Analyst", body: { status: "cancelled", reason: "mine" } });
    expect((await auditOf("workflows.cancel", yamlId)).map((a) => [a.actor_name, a.outcome])).toEqual([
      ["Bob Other", "refused"],
      ["Bob Other", "refused"],
      ["Ann Analyst", "accepted"],
    ]);

    const stepRun = await trpcAs(ann).steps.start({ name: "analyst-steps", inputs: {} });
    expect(stepRun.started_by).toEqual({ id: ann.accountId, name: "Ann Analyst" });
    expect((await get(`/api/workflows/runs/${stepRun.id}`)).started_by).toEqual({ id: ann.accountId, name: "Ann Analyst" });
    expect((await send(bob, `/api/workflows/runs/${stepRun.id}/cancel`, {})).status).toBe(403);
    expect(await trpcStatus(trpcAs(bob).steps.cancel({ runId: stepRun.id }))).toBe(403);
    expect(await trpcStatus(trpcAs(bob).workflows.cancel({ runId: stepRun.id }))).toBe(403);
    expect((await get(`/api/workflows/runs/${stepRun.id}`)).status).toBe("running");
    const stepCancelled = await trpcAs(ann).workflows.cancel({ runId: stepRun.id, reason: "mine" });
    expect(stepCancelled.status).toBe("cancelled");
    const stepEnd = (await trpcAs(ann).steps.conversation({ runId: stepRun.id })).turns.filter((t) => t.kind === "outcome").at(-1);
    expect(stepEnd).toMatchObject({ who: "Ann Analyst", body: { status: "cancelled", reason: "mine" } });

    // A second step run of hers, cancelled through REST; an operator still cancels anyone's.
    const again = await trpcAs(ann).steps.start({ name: "analyst-steps", inputs: {} });
    expect((await send(ann, `/api/workflows/runs/${again.id}/cancel`, { reason: "mine too" })).body.status).toBe("cancelled");
    const bobs = await trpcAs(bob).steps.start({ name: "analyst-steps", inputs: {} });
    expect((await send(ann, `/api/workflows/runs/${bobs.id}/cancel`, {})).status).toBe(403);
    expect((await env.api.post(`/api/workflows/runs/${bobs.id}/cancel`, { reason: "by the operator" })).body.status).toBe("cancelled");
  });
});
