/**
 * How a front door's projection keeps its decisions: inside the engine event's transaction, a node that starts
 * waiting for a person opens a decision and a node that stops waiting closes it, with how and by whom. The front door
 * says what each waiting node asks of a person (its kind and title); the rest is read from the transition.
 */
import type { Executor } from "../../db/client";
import type { RowChange } from "../engine/macrostep";
import type { RunTransition } from "../engine/engine";
import type { DecisionFrontDoor, DecisionKind, DecisionOutcome, DecisionState } from "./schemas";
import { closeDecision, openDecision } from "./store";

export interface WaitingNode {
  kind: DecisionKind;
  title: string;
  context: string;
  /** Whether the account that started the run may take it (default: yes). */
  selfApproval?: boolean;
}

export interface DecisionRecorder {
  frontDoor: DecisionFrontDoor;
  /** The front door's id of the run. */
  runId: string;
  /** What the node asks of a person now that it waits (undefined: the wait is not a person's decision). */
  describe(change: RowChange): Promise<WaitingNode | undefined> | WaitingNode | undefined;
  /** How the decision closed, when the front door knows better than the event (a rejection that cancels the run). */
  closedAs?(change: RowChange): { state: Exclude<DecisionState, "open">; outcome: DecisionOutcome } | undefined;
}

/** How a wait ended, from the event that ended it. */
function closing(t: RunTransition, key: string): { state: Exclude<DecisionState, "open">; outcome: DecisionOutcome } {
  const { event } = t;
  const addressed = "key" in event && event.key === key;
  if (addressed && event.type === "review") return { state: "decided", outcome: event.decision === "approve" ? "approve" : "request_changes" };
  if (addressed && event.type === "complete") return { state: "decided", outcome: "complete" };
  if (addressed && event.type === "input") return { state: "decided", outcome: "answer" };
  return { state: "cancelled", outcome: "cancelled" };
}

export async function recordDecisions(tx: Executor, t: RunTransition, recorder: DecisionRecorder): Promise<void> {
  for (const change of t.changes) {
    const waitsNow = change.after.status === "waiting_for_user";
    const waitedBefore = change.before === "waiting_for_user";
    if (waitsNow && !waitedBefore) {
      const waiting = await recorder.describe(change);
      if (waiting) await openDecision(tx, { engineRunId: t.runId, nodeKey: change.key, frontDoor: recorder.frontDoor, runId: recorder.runId, startedBy: t.startedBy, ...waiting });
    } else if (waitedBefore && !waitsNow) {
      const closed = recorder.closedAs?.(change) ?? closing(t, change.key);
      await closeDecision(tx, t.runId, change.key, { ...closed, decidedBy: closed.state === "decided" ? t.actor : null });
    }
  }
}
