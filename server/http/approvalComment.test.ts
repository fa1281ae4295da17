/**
 * An approval keeps the reviewer's comment, through either door (REST `POST /runs/{run_id}/approve {comment}` and
 * tRPC `pipeline.approve`): on the approval's turn, in the conversation, on the request's audit entry and in the
 * export bundle's Markdown. A blank comment is stored as none.
 */
import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { callerContext, personAs } from "../testing/callerContext";
import { asTestOperator } from "../testing/credentials";
import { testDatabases } from "../testing/databases";
import { pipelineRunOnTestDatabase } from "../testing/pipelineRunOnTestDatabase";
import type { ServerOnTestDatabase } from "../testing/suite";
import { eventually } from "../testing/workerServer";
import { createCaller } from "../trpc/router";
import { PipelineTurn } from "../pipeline/schemas";

describe("the stored approved turn", () => {
  it("reads a turn stored before approvals kept their comment (payload null) as one without a comment", () => {
    expect(PipelineTurn.parse({ kind: "approved", payload: null })).toEqual({ kind: "approved", payload: { comment: null } });
    expect(PipelineTurn.parse({ kind: "approved", payload: { comment: "Fine." } })).toEqual({ kind: "approved", payload: { comment: "Fine." } });
  });
});

describe.each(testDatabases)("an approval's comment on $name", (testDatabase) => {
  let env: ServerOnTestDatabase;
  const trpc = () => createCaller(callerContext(env.server, personAs("Rita Ramos", "reviewer")));
  let runId: string;

  /** Waits until the run's output of the agent at `index` waits for review; answers what a reviewer names as `expected`. */
  const waitingAt = (slug: string) =>
    eventually(async () => {
      const run = (await env.api.get(`/runs/${runId}`)).body;
      return run.is_waiting_for_user && run.current_agent?.slug === slug ? { agent: slug, version: 1 } : undefined;
    }, 30_000, `${slug}'s output to wait for review`);

  pipelineRunOnTestDatabase(testDatabase, (started) => ({ env, runId } = started));

  it("is kept on the turn, the conversation, the audit entry and the bundle; REST and tRPC answer alike", async () => {
    const rest = await env.api.post(`/runs/${runId}/approve`, { comment: "  Keep the lending rules short.  ", expected: await waitingAt("requirements") });
    expect(rest.status).toBe(200);
    const viaTrpc = await trpc().pipeline.approve({ runId, comment: "Inception reads well.", expected: await waitingAt("inception") });
    const blank = await env.api.post(`/runs/${runId}/approve`, { comment: "   ", expected: await waitingAt("agile") });
    expect(blank.status).toBe(200);
    // Both doors answer the run as it now stands, in the same shape.
    expect(Object.keys(viaTrpc).sort()).toEqual(Object.keys(rest.body).sort());
    expect(rest.body.current_agent.slug).toBe("inception");
    expect(viaTrpc.current_agent?.slug).toBe("agile");

    const turns = (await trpc().pipeline.conversation({ runId })).turns;
    // Every version says what made it: here the built-in agents' offline drafting, which says it stands in for a model.
    const outputs = turns.flatMap((t) => (t.kind === "output" ? [t.body] : []));
    expect(outputs.length).toBeGreaterThanOrEqual(3);
    for (const output of outputs) {
      expect(output.made_by.kind).toBe("offline");
      expect(output.made_by.detail).toContain("stand-in for a language model");
    }
    const approvals = turns.flatMap((t) => (t.kind === "decided" && t.body.decision === "approve" ? [t] : []));
    expect(approvals.map((t) => [t.node?.id, t.who, t.body.text])).toEqual([
      ["agent_requirements", expect.any(String), "Keep the lending rules short."],
      ["agent_inception", "Rita Ramos", "Inception reads well."],
      ["agent_agile", expect.any(String), null],
    ]);

    const audit = (await env.api.get(`/api/audit?target=${runId}&action=pipeline.approve&outcome=accepted`)).body.entries as { message: string | null }[];
    // Each entry names the step and the version approved, then what the reviewer said.
    expect(audit.map((e) => e.message).reverse()).toEqual([
      "step: Requirements v1; comment: Keep the lending rules short.",
      "step: Inception v1; comment: Inception reads well.",
      "step: User stories v1",
    ]);

    const response = await fetch(`${env.server.url}/runs/${runId}/artifacts/bundle`, { headers: asTestOperator });
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    const requirements = strFromU8(files["01-requirements.md"]!);
    expect(requirements).toContain("## Approval");
    expect(requirements).toMatch(/- Approved by .+ on .+:\n {2}> Keep the lending rules short\./);
    expect(strFromU8(files["02-inception.md"]!)).toContain("- Approved by Rita Ramos on ");
    expect(strFromU8(files["03-user-stories.md"]!)).toMatch(/- Approved by .+ \(no comment\)/);
  });
});
