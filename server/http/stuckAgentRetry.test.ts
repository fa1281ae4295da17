/**
 * An operator retries an agent that has been in progress longer than AGENT_STUCK_AFTER_MS, without waiting for
 * AGENT_TIMEOUT_MS: before that time the retry is refused (409, saying when it will be allowed) and the run says
 * `retry_allowed: false`; after it, the run says `retry_allowed: true`, the retry gives the call up (a failed turn
 * saying so) and calls the agent anew. REST (`POST /runs/{run_id}/retry`) and tRPC (`pipeline.retry`) answer alike.
 * The built-in agents draft for 10 minutes here (BUILTIN_AGENT_DELAY_MS), so the first agent stays in progress.
 */
import { TRPCError } from "@trpc/server";
import { afterEach, describe, expect, it } from "vitest";
import { callerContext, personAs } from "../testing/callerContext";
import { testDatabases } from "../testing/databases";
import { type ServerOnTestDatabase, serverOn } from "../testing/suite";
import { eventually } from "../testing/workerServer";
import { createCaller } from "../trpc/router";

const STUCK_AFTER_MS = 5000;

describe.each(testDatabases)("retrying an agent stuck in progress on $name", (testDatabase) => {
  let env: ServerOnTestDatabase | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  it("is refused before AGENT_STUCK_AFTER_MS and accepted after it, through REST and tRPC alike", async () => {
    env = await serverOn(testDatabase, { BUILTIN_AGENT_DELAY_MS: "600000", AGENT_STUCK_AFTER_MS: String(STUCK_AFTER_MS) });
    const api = env.api;
    const trpc = createCaller(callerContext(env.server, personAs("Olga Operator", "operator")));
    const start = async () => (await api.post("/runs", { domain: "tools", brief: "A tool library where neighbours lend drills, ladders and saws to each other." })).body.run_id as string;
    const [restRun, trpcRun] = await Promise.all([start(), start()]);
    const inProgress = (runId: string) =>
      eventually(async () => {
        const conversation = (await trpc.pipeline.conversation({ runId }));
        return conversation.turns.some((t) => t.kind === "started") ? conversation : undefined;
      }, 30_000, "the first agent called");
    await Promise.all([inProgress(restRun), inProgress(trpcRun)]);

    // Too early: refused, changing nothing, with the same words through both doors.
    const early = await api.post(`/runs/${restRun}/retry`, {});
    expect(early.status).toBe(409);
    expect(early.body.message).toMatch(/has been in progress for \d+ s; it can be retried once it has been for longer than 5 s \(AGENT_STUCK_AFTER_MS\), or when it fails/);
    const refused = await trpc.pipeline.retry({ runId: trpcRun }).then(() => undefined, (error: unknown) => error);
    expect(refused).toBeInstanceOf(TRPCError);
    expect((refused as TRPCError).code).toBe("CONFLICT");
    expect((refused as TRPCError).message.replace(trpcRun, restRun).replace(/\d+ s;/, "")).toBe(early.body.message.replace(/\d+ s;/, ""));
    expect((await api.get(`/runs/${restRun}`)).body).toMatchObject({ status: "IN_PROGRESS_REQUIREMENTS", retry_allowed: false });

    await new Promise((resolve) => setTimeout(resolve, STUCK_AFTER_MS + 200));
    expect((await api.get(`/runs/${restRun}`)).body.retry_allowed).toBe(true);
    const retried = await api.post(`/runs/${restRun}/retry`, {});
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ status: "IN_PROGRESS_REQUIREMENTS", failure: null, retry_allowed: false });
    const viaTrpc = await trpc.pipeline.retry({ runId: trpcRun });
    expect(viaTrpc).toMatchObject({ status: "IN_PROGRESS_REQUIREMENTS", failure: null, retry_allowed: false });

    // The call given up says so, and the agent was called again.
    const { turns } = await trpc.pipeline.conversation({ runId: restRun });
    expect(turns.filter((t) => t.kind === "started")).toHaveLength(2);
    const givenUp = turns.find((t) => t.kind === "failed");
    expect(givenUp).toMatchObject({ body: { error: expect.stringMatching(/^given up after \d+ min in progress and retried by /), retryable: false } });
  });
});
