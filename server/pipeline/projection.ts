/**
 * The pipeline as a projection of the engine: an observer that runs inside every engine event's transaction and
 * turns what changed in a pipeline run's nodes into the run's state and its conversation turns, so the two can
 * never disagree with the engine. `project` decides (pure); `pipelineProjection` reads and writes around it.
 */
import type { Executor } from "../../db/client";
import { type RunTransition, type TransitionObserver, eachTransition } from "../engine/engine";
import type { GraphNode } from "../engine/graph";
import type { PipelineAgent, PipelineTurn, RunState } from "./schemas";
import type { RecordDecisions } from "../decisions/record";
import * as store from "./store";

export interface Projected {
  /** The run's new state, when the event moved it, and the failure it is stuck on (null unless failed). */
  state?: { state: RunState; failure: string | null };
  turns: store.TurnOf[];
}

/** A pipeline run's nodes: its agents' Workers (sent over the `agent` protocol) and their review gates. */
const isPipelineNode = (node: GraphNode | undefined) => node?.spec.protocol === "agent" || node?.spec.gate === "review";

/** What an engine transition means for a pipeline run: its agents, and the agent it was at before the transition. */
export function project(run: { agents: readonly PipelineAgent[]; currentAgent: string | null }, t: RunTransition): Projected {
  const turns: Projected["turns"] = [];
  const turn = (said: PipelineTurn, agent: string | null, actor: string | null = null) => turns.push({ ...said, agent, actor });
  if (t.event.type === "cancel") {
    turn({ kind: "cancelled", payload: { reason: t.event.reason ?? null } }, run.currentAgent, t.actor);
    return { state: { state: { phase: "cancelled", agent: null }, failure: null }, turns };
  }
  const last = run.agents[run.agents.length - 1]!;
  let state: Projected["state"];
  // A fork's first event: the nodes it copied did not run here (the fork's command told them, with where they came from).
  const event = t.event;
  const copied = new Set(event.type === "fork" ? event.rows.filter((row) => row.status !== "pending").map((row) => row.key) : []);
  for (const change of t.changes) {
    if (copied.has(change.key)) continue;
    const node = t.graph.nodes.get(change.key);
    if (!node || !isPipelineNode(node)) continue;
    const slug = String(node.data.agent);
    const { before } = change;
    const after = change.after.status;
    if (node.type === "Worker") {
      // A restart (an edited brief) calls the agent anew even when it was at work: a fresh start, not a revision.
      if (after === "running" && (before !== "running" || t.event.type === "restart")) {
        // A revision: after a rejection, or a fork's first call with a first feedback.
        const rerun = (t.event.type === "review" && t.event.decision === "reject") || (t.event.type === "fork" && change.after.feedback !== null);
        state = { state: { phase: rerun ? "retrying" : "in_progress", agent: slug }, failure: null };
        turn({ kind: "started", payload: { is_feedback: rerun, attempt: change.after.attempt } }, slug);
      } else if (after === "failed" && before !== "failed") {
        const error = change.after.error ?? "the agent failed";
        state = { state: { phase: "failed", agent: slug }, failure: error };
        turn({ kind: "failed", payload: { error } }, slug);
      }
    } else if (after === "waiting_for_user") {
      state = { state: { phase: "waiting_approval", agent: slug }, failure: null };
    } else if (before === "waiting_for_user" && after === "completed") {
      // The reviewer's comment travels with the approval as the review event's feedback (commands.ts `approve`).
      const comment = t.event.type === "review" ? t.event.feedback?.trim() || null : null;
      turn({ kind: "approved", payload: { comment } }, slug, t.actor);
      if (slug === last.slug) {
        state = { state: { phase: "completed", agent: null }, failure: null };
        turn({ kind: "completed", payload: null }, null);
      }
    } else if (before === "waiting_for_user" && after === "pending" && t.event.type !== "restart") {
      // An edited brief sets the waiting output aside too (pending again), but nobody requested changes: the
      // restart is its own turn (brief_edited, written by the command), not a rejection with nothing said.
      turn({ kind: "rejected", payload: { feedback: t.event.type === "review" ? (t.event.feedback ?? "") : "" } }, slug, t.actor);
    }
  }
  return { ...(state ? { state } : {}), turns };
}

/** A transition of a run the pipeline owns that changes one of its agents' nodes. */
const concerns = (t: RunTransition): boolean => t.owner?.front_door === "pipeline" && t.changes.some((c) => isPipelineNode(t.graph.nodes.get(c.key)));

/** The observer the pipeline registers with the engine. Engine runs the pipeline does not own are left alone. */
export function pipelineProjection(recordDecisions: RecordDecisions): TransitionObserver {
  return eachTransition(concerns, async (tx: Executor, t: RunTransition) => {
    // The engine run is locked (this runs inside its event); the pipeline run's row comes second, as everywhere.
    const run = await store.findRun(tx, t.owner!.run_id);
    if (!run) return;
    const projected = project({ agents: run.agents, currentAgent: run.currentAgent }, t);
    if (projected.state) await store.updateRunState(tx, run.id, projected.state.state, projected.state.failure);
    await store.insertTurns(tx, projected.turns.map((turn) => ({ ...turn, runId: run.id })));
    // An output waiting at its review gate is a reviewer's decision: "Review Requirements v2 of tool-library".
    await recordDecisions(tx, t, {
      frontDoor: "pipeline",
      runId: run.id,
      async describe(change) {
        const node = t.graph.nodes.get(change.key);
        const agent = node?.spec.gate === "review" ? run.agents.find((a) => a.slug === String(node.data.agent)) : undefined;
        if (!agent) return undefined;
        // The gate waits in the transition of its agent's callback, whose artifact the command stores right after the
        // engine event: that output is the next version.
        const delivered = t.changes.some((c) => c.key !== change.key && c.after.status === "completed" && t.graph.nodes.get(c.key)?.data.agent === agent.slug);
        const version = ((await store.latestArtifact(tx, run.id, agent.artifact_type))?.version ?? 0) + (delivered ? 1 : 0);
        return { kind: "review", title: `Review ${agent.name} v${version} of ${run.domain}`, context: run.domain };
      },
      // Separation of duties (whether the brief's submitter reviews its outputs) is the agent's definition's
      // `self_approval` where it sets one, and the instance's policy otherwise (server/decisions/record.ts).
    });
  });
}
