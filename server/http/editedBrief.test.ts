/**
 * Issue 44, "an edited brief is what the first agent drafts from": with the built-in agents, a brief edited while the
 * first output waits for review makes the first agent draft again from the new brief (the output the deterministic
 * drafting makes of that brief, not a copy of the first version), and the conversation tells the edit as its own turn.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BRIEFS, firstCall } from "../testing/agentTestkit";
import { testDatabases } from "../testing/databases";
import { type ServerOnTestDatabase, serverOn } from "../testing/suite";
import { eventually } from "../testing/workerServer";
import { callerContext, personAs } from "../testing/callerContext";
import { createCaller } from "../trpc/router";
import { draft } from "../pipeline/agents/drafts";

type Version = { artifact_type: string; version: number; content: { artifact: Record<string, unknown> } & Record<string, unknown> };

describe.each(testDatabases)("an edited brief is what the first agent drafts from, on $name", (testDatabase) => {
  let env: ServerOnTestDatabase;

  beforeAll(async () => {
    env = await serverOn(testDatabase);
  });
  afterAll(async () => {
    await env?.close();
  });

  const requirementsVersions = async (runId: string) =>
    ((await env.api.get<Version[]>(`/runs/${runId}/artifacts`)).body).filter((v) => v.artifact_type === "requirements");

  it("the second version is the draft of the edited brief, and differs from the first", async () => {
    const domain = BRIEFS.superApp.domain;
    const runId = (await env.api.post("/runs", { domain, brief: BRIEFS.superApp.brief })).body.run_id as string;
    const [first] = await eventually(async () => {
      const versions = await requirementsVersions(runId);
      return versions.length === 1 ? versions : undefined;
    }, 30_000, "the first requirements output");
    expect(first!.content).toEqual(draft("requirements", firstCall({ domain, brief: BRIEFS.superApp.brief })));

    const edited = await env.api.post(`/runs/${runId}/brief`, { brief: BRIEFS.clinic.brief });
    expect(edited.status).toBe(200);
    const second = await eventually(async () => (await requirementsVersions(runId)).find((v) => v.version === 2), 30_000, "the requirements drafted from the edited brief");

    expect(second.content).toEqual(draft("requirements", firstCall({ domain, brief: BRIEFS.clinic.brief })));
    expect(second.content).not.toEqual(first!.content);
    expect(JSON.stringify(second.content.artifact)).toMatch(/appointment/i);
    expect(JSON.stringify(second.content.artifact)).not.toMatch(/driver/i);

    // The edit is its own turn in the conversation, and no empty request for changes stands in for it.
    const { turns } = await createCaller(callerContext(env.server, personAs("Olga Operator"))).pipeline.conversation({ runId });
    expect(turns.flatMap((t) => (t.kind === "input" ? [t.body.value] : []))).toEqual([BRIEFS.superApp.brief, BRIEFS.clinic.brief]);
    expect(turns.filter((t) => t.kind === "decided" && t.body.decision === "request_changes")).toEqual([]);
    expect(turns.flatMap((t) => (t.kind === "output" ? [t.body.version] : []))).toEqual([1, 2]);
    await env.api.post(`/runs/${runId}/cancel`, { reason: "test done" });
  });
});
