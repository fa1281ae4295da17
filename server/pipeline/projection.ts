/**
 * The pipeline as a projection of the engine: an observer that runs inside every engine event's transaction and
 * turns what changed in a pipeline run's nodes into the run's state and its conversation turns, so the two can
 * never disagree with the engine. `project` decides (pure); `pipelineProjection` reads and writes around it.
 */
import type { Executor } from "../../db/client";
import type { RunTransition, TransitionObserver } from "../engine/engine";
import type { GraphNode } from "../engine/graph";
import type { PipelineAgent, RunState } from "./schemas";
import * as store from "./store";

export interface Projected {
  /** The run's new state, when the event moved it, and the failure it is stuck on (null unless failed). */
  state?: { state: RunState; failure: string | null };
  turns: Omit<store.NewTurn, "runId">[];
}

/** A pipeline run's nodes: its agents' Workers (sent over the `agent` protocol) and their review gates. */
const isPipelineNode = (node: GraphNode | undefined) => node?.spec.protocol === "agent" || node?.spec.gate === "review";

/** What an engine transition means for a pipeline run: its agents, and the agent it was at before the transition. */
export function project(run: { agents: readonly PipelineAgent[]; currentAgent: string | null }, t: RunTransition): Projected {
  const turns: Projected["turns"] = [];
  const turn = (kind: string, agent: string | null, payload: unknown = null, actor: string | null = null) => turns.push({ kind, agent, payload, actor });
  if (t.event.type === "cancel") {
    turn("cancelled", run.currentAgent, { reason: t.event.reason ?? null }, t.actor);
    return { state: { state: { phase: "cancelled", agent: null }, failure: null }, turns };
  }
  const last = run.agents[run.agents.length - 1]!;
  let state: Projected["state"];
  for (const change of t.changes) {
    const node = t.graph.nodes.get(change.key);
    if (!node || !isPipelineNode(node)) continue;
    const slug = String(node.data.agent);
    const { before } = change;
    const after = change.after.status;
    if (node.type === "Worker") {
      if (after === "running" && before !== "running") {
        const rerun = t.event.type === "review" && t.event.decision === "reject";
        state = { state: { phase: rerun ? "retrying" : "in_progress", agent: slug }, failure: null };
        turn("started", slug, { is_feedback: rerun, attempt: change.after.attempt });
      } else if (after === "failed" && before !== "failed") {
        const error = change.after.error ?? "the agent failed";
        state = { state: { phase: "failed", agent: slug }, failure: error };
        turn("failed", slug, { error });
      }
    } else if (after === "waiting_for_user") {
      state = { state: { phase: "waiting_approval", agent: slug }, failure: null };
    } else if (before === "waiting_for_user" && after === "completed") {
      turn("approved", slug, null, t.actor);
      if (slug === last.slug) {
        state = { state: { phase: "completed", agent: null }, failure: null };
        turn("completed", null);
      }
    } else if (before === "waiting_for_user" && after === "pending") {
      turn("rejected", slug, { feedback: t.event.type === "review" ? (t.event.feedback ?? "") : "" }, t.actor);
    }
  }
  return { ...(state ? { state } : {}), turns };
}

/** The observer the pipeline registers with the engine. Engine runs that are not pipeline runs are left alone. */
export function pipelineProjection(): TransitionObserver {
  return async (tx: Executor, t: RunTransition) => {
    if (!t.changes.some((c) => isPipelineNode(t.graph.nodes.get(c.key)))) return;
    const run = await store.findRunByStitchRun(tx, t.runId);
    if (!run) return;
    const projected = project({ agents: run.agents as PipelineAgent[], currentAgent: run.currentAgent }, t);
    if (projected.state) await store.updateRunState(tx, run.id, projected.state.state, projected.state.failure);
    await store.insertTurns(tx, projected.turns.map((turn) => ({ ...turn, runId: run.id })));
  };
}
