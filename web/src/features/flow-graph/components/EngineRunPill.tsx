import { Pill, type Tone } from "../../../components/StatusPill";
import type { EngineRunStatus } from "../../../lib/trpc";

const runTone: Record<EngineRunStatus, Tone> = { running: "info", waiting_for_user: "warning", completed: "success", failed: "danger", cancelled: "neutral" };
const runLabel: Record<EngineRunStatus, string> = { running: "Running", waiting_for_user: "Waiting for a person", completed: "Completed", failed: "Failed", cancelled: "Cancelled" };

export function EngineRunPill({ status }: { status: EngineRunStatus }) {
  return (
    <Pill tone={runTone[status]} pulse={status === "running"}>
      {runLabel[status]}
    </Pill>
  );
}
