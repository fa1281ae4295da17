/**
 * The plain flows' projection: a flow run that no other front door owns keeps the decisions its UX nodes and review
 * gates wait for, like every other run, so the reviewer's inbox holds them all.
 */
import { type RunTransition, type TransitionObserver, eachTransition } from "../engine/engine";
import type { RecordDecisions } from "../decisions/record";

/** A plain flow's transition that makes a node wait for a person, or ends such a wait. */
const concerns = (t: RunTransition): boolean =>
  t.owner === null && t.changes.some((c) => c.after.status === "waiting_for_user" || c.before === "waiting_for_user");

export function flowProjection(recordDecisions: RecordDecisions): TransitionObserver {
  return eachTransition(concerns, async (tx, t) => {
    const run = `flow run ${t.runId.slice(0, 8)}`;
    await recordDecisions(tx, t, {
      frontDoor: "flow",
      runId: t.runId,
      describe(change) {
        const node = t.graph.nodes.get(change.key);
        if (node?.type !== "UX") return undefined;
        const label = typeof node.data.label === "string" && node.data.label.trim() ? node.data.label.trim() : change.key;
        return node.spec.gate === "review"
          ? { kind: "review", title: `Review the output before "${label}" of ${run}`, context: "", reviewed: change.after.input ?? null }
          : { kind: "completion", title: `Complete "${label}" of ${run}`, context: "" };
      },
    });
  });
}
