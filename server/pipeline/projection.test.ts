/**
 * The pipeline's projection is pure: an engine transition of a pipeline run in, the run's new state and its
 * conversation turns out. Driven here by the engine's own macrostep over the pipeline's flow, with no database.
 */
import { describe, expect, it } from "vitest";
import { compileGraph } from "../engine/graph";
import { macrostep, settleSync } from "../engine/macrostep";
import { type ExternalEvent, type NodeRow, newRow } from "../engine/transition";
import { gateKey, pipelineGraph, workerKey } from "./definition";
import { type Projected, project } from "./projection";
import type { PipelineAgent } from "./schemas";
import { statusText } from "./status";

const agent = (slug: string, order: number): PipelineAgent => ({
  slug, name: slug, order, artifact_type: slug, webhook_url: `https://agents.example.test/${slug}`, context: ["brief"], builtin: false,
});
const agents = [agent("requirements", 1), agent("qa", 2)];
const graph = compileGraph(pipelineGraph(agents, 60_000));

/** A pipeline run in memory: each event goes through the engine's macrostep, and its transition through `project`. */
function pipelineRun() {
  const rows = new Map<string, NodeRow>([...graph.nodes.keys()].map((key) => [key, newRow(key)]));
  let currentAgent: string | null = null;
  const ctx = { runId: "run-1", runInput: { brief: "b" }, callbackUrl: (key: string) => `https://stitch.example.test/cb/${key}` };
  return (event: ExternalEvent, actor: string | null = null): Projected => {
    const seed = event.type === "cancel" || event.type === "restart" ? rows : undefined;
    const step = settleSync(macrostep(graph, event, ctx, seed), (keys) => keys.flatMap((key) => rows.get(key) ?? []));
    expect(step.outcome.kind).toBe("applied");
    for (const change of step.changes) rows.set(change.key, change.after);
    const projected = project({ agents, currentAgent }, { runId: "run-1", startedBy: null, owner: { front_door: "pipeline", run_id: "RUN_1" }, flowName: "pipeline", graph, event, actor, changes: step.changes, runStatus: "running", runStatusBefore: "running" });
    if (projected.state) currentAgent = projected.state.state.agent;
    return projected;
  };
}

describe("the pipeline projection", () => {
  it("follows a run from its first agent to approval of the last: states, status strings and turns", () => {
    const send = pipelineRun();
    const started = send({ type: "start" });
    expect(started.state).toEqual({ state: { phase: "in_progress", agent: "requirements" }, failure: null });
    expect(started.turns).toEqual([{ kind: "started", agent: "requirements", payload: { is_feedback: false, attempt: 1 }, actor: null }]);
    expect(statusText(started.state!.state)).toBe("IN_PROGRESS_REQUIREMENTS");

    const drafted = send({ type: "callback", key: workerKey("requirements"), status: "completed", output: { artifact: {} } });
    expect(drafted.state?.state).toEqual({ phase: "waiting_approval", agent: "requirements" });
    expect(statusText(drafted.state!.state)).toBe("WAITING_APPROVAL_REQUIREMENTS");

    const approved = send({ type: "review", key: gateKey("requirements"), decision: "approve" }, "ada");
    expect(approved.turns.map((t) => [t.kind, t.agent, t.actor])).toEqual([["approved", "requirements", "ada"], ["started", "qa", null]]);
    expect(approved.turns[0]?.payload).toEqual({ comment: null });
    expect(approved.state?.state).toEqual({ phase: "in_progress", agent: "qa" });

    send({ type: "callback", key: workerKey("qa"), status: "completed", output: { artifact: {} } });
    const done = send({ type: "review", key: gateKey("qa"), decision: "approve", feedback: "Ship it." }, "grace");
    expect(done.turns[0]?.payload).toEqual({ comment: "Ship it." });
    expect(done.state).toEqual({ state: { phase: "completed", agent: null }, failure: null });
    expect(done.turns.map((t) => t.kind)).toEqual(["approved", "completed"]);
    expect(statusText(done.state!.state)).toBe("COMPLETED");
  });

  it("a rejection is a turn with the feedback, and the agent at work again is RETRYING", () => {
    const send = pipelineRun();
    send({ type: "start" });
    send({ type: "callback", key: workerKey("requirements"), status: "completed", output: { artifact: {} } });
    const rejected = send({ type: "review", key: gateKey("requirements"), decision: "reject", feedback: "Name the users." }, "ada");
    expect(rejected.turns).toEqual([
      { kind: "rejected", agent: "requirements", payload: { feedback: "Name the users." }, actor: "ada" },
      { kind: "started", agent: "requirements", payload: { is_feedback: true, attempt: 2 }, actor: null },
    ]);
    expect(rejected.state?.state).toEqual({ phase: "retrying", agent: "requirements" });
    expect(statusText(rejected.state!.state)).toBe("RETRYING_REQUIREMENTS");
  });

  it("a failed agent leaves the run failed with the reason; a cancellation names the agent it stopped", () => {
    const send = pipelineRun();
    send({ type: "start" });
    const failed = send({ type: "callback", key: workerKey("requirements"), status: "failed", error: "n8n said no" });
    expect(failed.state).toEqual({ state: { phase: "failed", agent: "requirements" }, failure: "n8n said no" });
    expect(statusText(failed.state!.state)).toBe("FAILED_REQUIREMENTS");
    const cancelled = send({ type: "cancel", reason: "wrong brief" }, "ops");
    expect(cancelled.state).toEqual({ state: { phase: "cancelled", agent: null }, failure: null });
    expect(cancelled.turns).toEqual([{ kind: "cancelled", agent: "requirements", payload: { reason: "wrong brief" }, actor: "ops" }]);
  });

  it("an edited brief's restart while the output waits is the agent starting over, with no empty request for changes", () => {
    const send = pipelineRun();
    send({ type: "start" });
    send({ type: "callback", key: workerKey("requirements"), status: "completed", output: { artifact: {} } });
    const restarted = send({ type: "restart", key: workerKey("requirements") }, "ana");
    expect(restarted.turns).toEqual([{ kind: "started", agent: "requirements", payload: { is_feedback: false, attempt: 2 }, actor: null }]);
    expect(restarted.state?.state).toEqual({ phase: "in_progress", agent: "requirements" });
  });
});
