/**
 * run.completed, run.failed and run.cancelled: an engine observer that tells the notifier, inside the transaction of
 * the engine event that ended a run, that it ended. Only the transition whose status changed to completed, failed
 * or cancelled tells it, so a run's end is told once (a failed run resumed and failing again is a new end, told again).
 * Every front door's runs end through the engine, so this one observer covers pipeline runs, workflows and plain flows.
 */
import type { Executor } from "../../db/client";
import type { RunTransition, TransitionObserver } from "../engine/engine";
import type { Notifier } from "./notifier";
import type { NotificationEvent } from "./schemas";
import * as store from "./store";

const ENDS = { completed: "run.completed", failed: "run.failed", cancelled: "run.cancelled" } as const;

type Naming = Awaited<ReturnType<typeof store.runNaming>>;

/**
 * What a person calls the run: its pipeline's domain, its workflow, or its flow, with the run's id to tell runs apart;
 * each front door by the name the app gives it ("Workflow", "Step workflow", "Flow").
 */
export function titleOf(frontDoor: string, runId: string, naming: Naming): string {
  const short = runId.slice(0, 8);
  if (frontDoor === "pipeline") return `Pipeline run ${runId}${naming.domain ? ` for ${naming.domain}` : ""}`;
  const workflow = naming.workflow ? `${naming.workflow} ` : "";
  if (frontDoor === "yaml") return `Workflow ${workflow}run ${short}`;
  if (frontDoor === "steps") return `Step workflow ${workflow}run ${short}`;
  return `Flow "${naming.flowName ?? "flow"}" run ${short}`;
}

/** Why it ended, when the transition says: the cancellation's reason, or the node that failed and its error. */
function reasonOf(t: RunTransition): string | undefined {
  if (t.runStatus === "cancelled") return t.event.type === "cancel" ? t.event.reason : undefined;
  if (t.runStatus !== "failed") return undefined;
  const failed = t.changes.find((c) => c.after.status === "failed" && c.before !== "failed");
  if (!failed) return undefined;
  return failed.after.error ? `${failed.key} failed: ${failed.after.error}` : `${failed.key} failed`;
}

/**
 * What the title is made of: a plain flow's run is named by its flow, which the run's lock has read already; a front
 * door's run by the front door's own row (the pipeline's domain, the workflow's name), read here.
 */
async function namingOf(tx: Executor, t: RunTransition): Promise<Naming> {
  return t.owner ? store.runNaming(tx, t.runId) : { flowName: t.flowName, domain: null, workflow: null };
}

export function runEndObserver(notifier: Notifier): TransitionObserver {
  return {
    concerns: (t) => t.runStatus !== t.runStatusBefore && t.runStatus in ENDS,
    async project(tx: Executor, transitions: readonly RunTransition[]) {
      const events: NotificationEvent[] = [];
      for (const t of transitions) {
        const type = ENDS[t.runStatus as keyof typeof ENDS];
        const frontDoor = t.owner?.front_door ?? "flow";
        const runId = t.owner?.run_id ?? t.runId;
        const reason = reasonOf(t);
        events.push({
          type,
          run: { front_door: frontDoor, run_id: runId, title: titleOf(frontDoor, runId, await namingOf(tx, t)), status: t.runStatus, started_by: t.startedBy },
          ...(reason ? { reason: reason.slice(0, 1000) } : {}),
        });
      }
      // The runs a transaction ended are told together: one statement for all their events and webhook deliveries.
      await notifier.emitAll(tx, events);
    },
  };
}
