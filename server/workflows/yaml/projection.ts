/**
 * Workflow runs as a projection of the engine: an observer inside every engine event's transaction turns what changed
 * in a workflow run's nodes into its status and its conversation turns, so they never disagree with the engine.
 * `project` decides (pure); `workflowProjection` reads and writes around it.
 */
import type { Executor } from "../../../db/client";
import type { RecordDecisions } from "../../decisions/record";
import { type RunTransition, type TransitionObserver, eachTransition } from "../../engine/engine";
import * as store from "../store";

export interface ProjectedRun {
  status: string;
  /** Set on a cancellation, cleared (null) on a resumption, untouched otherwise. */
  cancelReason?: string | null;
  turns: Omit<store.NewTurn, "runId">[];
}

const TERMINAL = new Set(["completed", "failed", "cancelled"]);

/** What an engine transition means for a workflow run whose status was `previousStatus`. */
export function project(previousStatus: string, t: RunTransition): ProjectedRun {
  const turns: ProjectedRun["turns"] = [];
  const turn = (kind: string, nodeId: string | null, payload: unknown = null, actor: string | null = null) => turns.push({ kind, nodeId, payload, actor });
  const event = t.event;
  if (event.type === "resume") turn("resumed", null, null, t.actor);
  // A fork's first event: where it came from; the nodes it copied are not told again (they did not run here).
  const copied = new Set(event.type === "fork" ? event.rows.filter((row) => row.status !== "pending").map((row) => row.key) : []);
  if (event.type === "fork") turn("forked", event.key, { from_run_id: event.from.run_id, copied: [...copied], decided: event.decided ?? {} }, t.actor);
  for (const { key, before, after } of t.changes) {
    if (copied.has(key)) continue;
    const node = t.graph.nodes.get(key);
    if (!node || node.spec.triggerRule === undefined) continue;
    const kind = String(node.data.kind ?? "");
    const addressed = "key" in event && event.key === key;
    if (addressed && event.type === "review" && event.decision === "reject") turn("rejected", key, { reason: event.feedback ?? "" }, t.actor);
    if (addressed && event.type === "input") turn("input", key, { text: event.text }, t.actor);
    if (addressed && event.type === "retry") turn("retried", key, null, t.actor);
    if (after.status === before) {
      // A node between automatic attempts stays running with the failure as its error.
      if (after.status === "running" && after.error && addressed) turn("failed", key, { error: after.error, retrying: true });
      continue;
    }
    if (after.status === "running" && kind !== "approval") turn("started", key, { attempt: after.attempt });
    else if (after.status === "running" && kind === "approval") turn("started", key, { attempt: after.attempt, rejection_work: after.feedback !== null });
    else if (after.status === "completed") {
      if (kind === "approval") {
        // Approved with the reviewer's edited version of the step before it (which the later steps now read).
        const edited = event.type === "review" && event.output !== undefined;
        turn("approved", key, { comment: event.type === "review" ? (event.feedback ?? "") : "", ...(edited ? { edited: true } : {}) }, t.actor);
      }
      else turn("output", key, { output: after.output });
    } else if (after.status === "failed") turn("failed", key, { error: after.error });
    else if (after.status === "skipped") turn("skipped", key, { reason: after.error });
    else if (after.status === "waiting_for_user") turn("waiting", key, { iteration_output: kind === "loop" ? after.output : undefined });
  }
  let cancelReason: string | null | undefined;
  if (event.type === "cancel") {
    cancelReason = event.reason ?? null;
    turn("cancelled", null, { reason: cancelReason }, t.actor);
  } else if (event.type === "resume") cancelReason = null;
  if (TERMINAL.has(t.runStatus) && !TERMINAL.has(previousStatus)) turn("outcome", null, { status: t.runStatus });
  return { status: t.runStatus, ...(cancelReason !== undefined ? { cancelReason } : {}), turns };
}

/** A transition of a run the workflow front door owns that changes one of its jobs' nodes, or cancels the run. */
const concerns = (t: RunTransition): boolean =>
  t.owner?.front_door === "yaml" && (t.event.type === "cancel" || t.changes.some((c) => t.graph.nodes.get(c.key)?.spec.triggerRule !== undefined));

/** The observer the workflow front door registers with the engine; engine runs it does not own are left alone. */
export function workflowProjection(recordDecisions: RecordDecisions): TransitionObserver {
  return eachTransition(concerns, async (tx: Executor, t: RunTransition) => {
    const run = await store.findRun(tx, t.runId);
    if (!run) return;
    const projected = project(run.status, t);
    if (projected.status !== run.status || projected.cancelReason !== undefined) await store.updateRunStatus(tx, run.id, projected.status, projected.cancelReason);
    await store.insertTurns(tx, projected.turns.map((turn) => ({ ...turn, runId: run.id })));
    // An approval waiting, or an interactive loop waiting for a reply, is a person's decision.
    const context = run.message.trim();
    const of = `${run.workflow}${context ? ` (${context.length > 60 ? `${context.slice(0, 57)}...` : context})` : ""}`;
    await recordDecisions(tx, t, {
      frontDoor: "yaml",
      runId: run.id,
      describe(change) {
        const kind = String(t.graph.nodes.get(change.key)?.data.kind ?? "");
        if (kind === "approval") return { kind: "approval", title: `Approve "${change.key}" of ${of}`, context, reviewed: change.after.input ?? null };
        if (kind === "loop") return { kind: "answer", title: `Answer "${change.key}" of ${of}`, context };
        return undefined;
      },
      // A rejection without on_reject (or at its limit) cancels the run: the person rejected, the run did not just end.
      closedAs: (change) => (t.event.type === "cancel" && t.event.reason?.startsWith(`rejected at ${change.key}`) ? { state: "decided", outcome: "reject" } : undefined),
    });
  });
}
