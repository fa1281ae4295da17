import { Pill, type Tone } from "../../../components/StatusPill";

const runTone: Record<string, Tone> = { running: "info", waiting_for_user: "warning", completed: "success", failed: "danger", cancelled: "neutral" };
const runLabel: Record<string, string> = { running: "Running", waiting_for_user: "Waiting for a person", completed: "Completed", failed: "Failed", cancelled: "Cancelled" };

export function EngineRunPill({ status }: { status: string }) {
  return (
    <Pill tone={runTone[status] ?? "neutral"} pulse={status === "running"}>
      {runLabel[status] ?? status}
    </Pill>
  );
}
