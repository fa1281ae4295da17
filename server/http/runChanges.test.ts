/**
 * `pipeline.changes`, the one read an open conversation polls: its marker moves with everything the conversation
 * shows (a new turn and artifact version, the run's state, a decision's claim and release, a comment written,
 * resolved and re-opened, an approval) and with nothing else; `active` turns false once the run is over. The marker
 * says what the conversation looks like: a reader compares it with the one it read last.
 */
import { describe, expect, it } from "vitest";
import { callerContext, personAs } from "../testing/callerContext";
import { testDatabases } from "../testing/databases";
import { testBootstrapToken } from "../testing/stitchClient";
import { pipelineRunOnTestDatabase } from "../testing/pipelineRunOnTestDatabase";
import type { ServerOnTestDatabase } from "../testing/suite";
import { eventually } from "../testing/workerServer";
import { createCaller } from "../trpc/router";

describe.each(testDatabases)("a run's changes on $name", (testDatabase) => {
  let env: ServerOnTestDatabase;
  const trpc = () => createCaller(callerContext(env.server, personAs("Rita Ramos", "reviewer")));
  let runId: string;

  pipelineRunOnTestDatabase(testDatabase, (started) => ({ env, runId } = started));

  it("moves with every turn, decision event and comment, stays put otherwise, and says when the run is over", async () => {
    const marker = async () => (await trpc().pipeline.changes({ runId })).marker;
    const waiting = await eventually(async () => {
      // Read once the output waits (nothing moves the run then): read before, the marker may predate the output.
      const run = await trpc().pipeline.getRun({ runId });
      return run.is_waiting_for_user ? trpc().pipeline.changes({ runId }) : undefined;
    }, 30_000, "the requirements output to wait for review");
    // Waiting for a review only: people move it, not machines.
    expect(waiting).toMatchObject({ run_id: runId, active: true, busy: false });
    // Nothing happened: the same marker, read again.
    expect(await marker()).toBe(waiting.marker);

    let last = waiting.marker;
    const moved = async (what: string) => {
      const now = await marker();
      expect(now, `the marker moves when ${what}`).not.toBe(last);
      last = now;
    };
    const decision = (await trpc().decisions.list({ view: "all", state: "open", run_id: runId })).items[0]!;
    await trpc().decisions.claim({ decisionId: decision.id });
    await moved("the review is claimed");
    await trpc().decisions.release({ decisionId: decision.id });
    await moved("it is released");
    const comment = await trpc().review.comment({ decisionId: decision.id, body: { anchor: "", text: "Say who lends what." } });
    await moved("a comment is written");
    await trpc().review.resolve({ commentId: comment.id });
    await moved("it is resolved");
    await trpc().review.reopen({ commentId: comment.id });
    await moved("it is re-opened");
    await trpc().pipeline.approve({ runId, expected: { agent: "requirements", version: 1 } });
    await moved("the output is approved");
    await eventually(async () => ((await trpc().pipeline.getRun({ runId })).is_waiting_for_user ? true : undefined), 30_000, "inception's output");
    await moved("the next agent's output arrives");

    await trpc().pipeline.cancel({ runId }).catch(async () => env.api.post(`/runs/${runId}/cancel`, {}));
    const over = await trpc().pipeline.changes({ runId });
    expect(over).toMatchObject({ active: false, busy: false });
    expect(over.marker).not.toBe(last);
  });

  it("the run list's marker moves when a run is added, changes, or whom it waits for changes; says when no run can change", async () => {
    const list = () => trpc().pipeline.listChanges();
    // The first test's run was cancelled: no run can change by itself.
    const idle = await list();
    expect(idle).toMatchObject({ active: false, busy: false });
    expect((await list()).marker).toBe(idle.marker);

    const created = (await env.api.post("/runs", { domain: "ladders", brief: "A ladder library where neighbours book ladders for a weekend and return them." })).body.run_id as string;
    const started = await list();
    expect(started.marker, "the marker moves when a run is added").not.toBe(idle.marker);
    expect(started.active).toBe(true);
    // Read once its output waits (nothing moves the run then).
    const waiting = await eventually(async () => ((await trpc().pipeline.getRun({ runId: created })).is_waiting_for_user ? list() : undefined), 30_000, "its output to wait");
    expect(waiting, "its only run waits for people").toMatchObject({ active: true, busy: false });
    expect((await list()).marker).toBe(waiting.marker);
    const decision = (await trpc().decisions.list({ view: "all", state: "open", run_id: created })).items[0]!;
    await trpc().decisions.claim({ decisionId: decision.id });
    const claimed = await list();
    expect(claimed.marker, "the marker moves when whom the run waits for changes").not.toBe(waiting.marker);
    await trpc().pipeline.approve({ runId: created, expected: { agent: "requirements", version: 1 } });
    const approved = await list();
    expect(approved.marker, "the marker moves when the run's state changes").not.toBe(claimed.marker);
    expect(approved.active).toBe(true);

    expect((await env.api.post(`/runs/${created}/cancel`, {})).status).toBe(200);
    const over = await list();
    expect(over.marker).not.toBe(approved.marker);
    expect(over).toMatchObject({ active: false, busy: false });
  });

  it("is read, like the conversation, gzip-compressed by a browser that accepts it, and as it is by any other client", async () => {
    const url = `${env.server.url}/trpc/pipeline.conversation?input=${encodeURIComponent(JSON.stringify({ runId }))}`;
    const headers = { authorization: `Bearer ${testBootstrapToken}` };
    const zipped = await fetch(url, { headers: { ...headers, "accept-encoding": "gzip, deflate, br" } });
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    expect(zipped.headers.get("vary")).toMatch(/Accept-Encoding/);
    const plain = await fetch(url, { headers: { ...headers, "accept-encoding": "identity" } });
    expect(plain.headers.get("content-encoding")).toBeNull();
    // fetch decodes gzip: both carry the same conversation.
    expect(await zipped.json()).toEqual(await plain.json());
  });

  it("answers 404 for a run that does not exist", async () => {
    await expect(trpc().pipeline.changes({ runId: "RUN_nope" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
