/**
 * Step workflow runs as a projection of the engine: an observer inside every engine event's transaction turns what
 * changed in a step run's nodes into the run's status and its turns (which `run_steps` reads for its timestamps), and
 * when the run ends evaluates the definition's `outputs` and stores them with the run, in that same transaction.
 * Runs of other formats are left alone. `projectSteps` decides (pure); `stepProjection` reads and writes around it.
 */
import type { Executor } from "../../../db/client";
import { STEP_TURN } from "../../../db/schema";
import { type RunTransition, type TransitionObserver, eachTransition } from "../../engine/engine";
import * as store from "../store";
import { stepDefinition } from "./errors";
import { STEPS_EXECUTOR } from "./lower";
import { stepsOf } from "./store";
import { type RenderedOutputs, renderOutputs } from "./templates";

const [COMPLETED, FAILED, SKIPPED, CANCELLED] = STEP_TURN.finished;

/** The kinds of turn a step run has (a step's `node_id` set, or the run's own with none). */
export const TURN = {
  inputs: "run_inputs",
  started: STEP_TURN.started,
  input: STEP_TURN.input,
  retrying: "step_retrying",
  completed: COMPLETED,
  failed: FAILED,
  skipped: SKIPPED,
  cancelled: CANCELLED,
  retried: "step_retried",
  runCancelled: "run_cancelled",
  resumed: "run_resumed",
  outcome: "run_outcome",
  /** A fork's first turn, written with the fork (forkCommands.ts): the run and step it came from, who forked, its inputs. */
  forked: "run_forked",
} as const;

export interface ProjectedStepRun {
  status: string;
  /** Set on a cancellation, cleared (null) on a resumption, untouched otherwise. */
  cancelReason?: string | null;
  turns: Omit<store.NewTurn, "runId">[];
  /** The run ended in this transition: its outputs are evaluated now. */
  ended: boolean;
}

const ENDED = new Set(["completed", "failed", "cancelled"]);

const isStep = (t: RunTransition, key: string) => t.graph.nodes.get(key)?.spec.executor === STEPS_EXECUTOR;

/** What an engine transition means for a step run. */
export function projectSteps(t: RunTransition): ProjectedStepRun {
  const turns: ProjectedStepRun["turns"] = [];
  const add = (kind: string, nodeId: string | null, payload: Record<string, unknown>, actor: string | null = null) => turns.push({ kind, nodeId, payload, actor });
  const { event } = t;
  let cancelReason: string | null | undefined;
  if (event.type === "resume") {
    cancelReason = null;
    add(TURN.resumed, null, {}, t.actor);
  }
  // A fork's first event seeds the steps it copied: they did not run here, so they are not told again.
  const copied = new Set(event.type === "fork" ? event.rows.filter((row) => row.status !== "pending").map((row) => row.key) : []);
  for (const { key, before, after } of t.changes) {
    if (!isStep(t, key) || copied.has(key)) continue;
    const addressed = "key" in event && event.key === key;
    if (addressed && event.type === "retry") add(TURN.retried, key, {}, t.actor);
    if (after.status === before) {
      // Between automatic attempts a step stays running, with the failed attempt's error.
      if (after.status === "running" && addressed && event.type === "callback" && after.error) add(TURN.retrying, key, { attempt: after.attempt, error: after.error });
      continue;
    }
    if (after.status === "running") add(TURN.started, key, { attempt: after.attempt });
    else if (after.status === "completed") add(TURN.completed, key, { attempt: after.attempt });
    else if (after.status === "failed") add(TURN.failed, key, { attempt: after.attempt, error: after.error });
    else if (after.status === "skipped") add(TURN.skipped, key, { reason: after.error });
    else if (after.status === "cancelled") add(TURN.cancelled, key, { reason: after.error });
  }
  if (event.type === "cancel") {
    cancelReason = event.reason ?? null;
    add(TURN.runCancelled, null, { reason: cancelReason }, t.actor);
  }
  return { status: t.runStatus, ...(cancelReason !== undefined ? { cancelReason } : {}), turns, ended: ENDED.has(t.runStatus) };
}

/** The definition's `outputs` over the run's inputs and its steps as they ended. */
async function evaluateOutputs(tx: Executor, run: store.RunRow): Promise<RenderedOutputs> {
  const { definition } = stepDefinition(await store.definitionById(tx, run.definitionId), run.workflow);
  const steps = new Map((await stepsOf(tx, run.id)).map((step) => [step.stepId, step]));
  return renderOutputs(definition.outputs, { inputs: run.inputs ?? {}, outputs: (id) => steps.get(id) });
}

/** A transition of a run the step workflows own that changes one of its steps. */
const concerns = (t: RunTransition): boolean => t.owner?.front_door === "steps" && t.changes.some((change) => isStep(t, change.key));

/** The observer the step workflows register with the engine. */
export function stepProjection(): TransitionObserver {
  return eachTransition(concerns, async (tx, t) => {
    const run = await store.findRun(tx, t.runId);
    if (!run) return;
    const projected = projectSteps(t);
    if (projected.status !== run.status || projected.cancelReason !== undefined) await store.updateRunStatus(tx, run.id, projected.status, projected.cancelReason);
    // A run going on again (a failed step retried, a resumption): the outputs of its earlier end no longer hold.
    if (!projected.ended && run.outputs !== null) await store.setRunOutputs(tx, run.id, null);
    const turns = projected.turns.map((turn) => ({ ...turn, runId: run.id }));
    if (projected.ended) {
      const outputs = await evaluateOutputs(tx, run);
      await store.setRunOutputs(tx, run.id, outputs);
      turns.push({ runId: run.id, kind: TURN.outcome, nodeId: null, payload: { status: projected.status, outputs }, actor: null });
    }
    await store.insertTurns(tx, turns);
  });
}
