import type { ReactNode } from "react";
import { describeRunState, isAgentWorking } from "../lib/runStatus";
import type { EngineRunStatus, RunPhase, RunState } from "../lib/trpc";
import "./StatusPill.css";

export type Tone = "neutral" | "info" | "warning" | "success" | "danger";

const toneOfPhase: Record<RunPhase, Tone> = {
  in_progress: "info",
  retrying: "info",
  waiting_approval: "warning",
  completed: "success",
  failed: "danger",
  cancelled: "neutral",
};

export function Pill({ tone, children, pulse = false }: { tone: Tone; children: ReactNode; pulse?: boolean }) {
  return (
    <span className={`pill pill-${tone}`}>
      <span className={`pill-dot${pulse ? " pulse" : ""}`} aria-hidden="true" />
      {children}
    </span>
  );
}

export function RunStatusPill({ state, agentName }: { state: RunState; agentName?: string | null }) {
  return (
    <Pill tone={toneOfPhase[state.phase]} pulse={isAgentWorking(state.phase)}>
      {describeRunState(state, agentName)}
    </Pill>
  );
}

const engineRunTone: Record<EngineRunStatus, Tone> = { running: "info", waiting_for_user: "warning", completed: "success", failed: "danger", cancelled: "neutral" };
const engineRunLabel: Record<EngineRunStatus, string> = { running: "Running", waiting_for_user: "Waiting for a person", completed: "Completed", failed: "Failed", cancelled: "Cancelled" };

/** An engine run's status, and so a workflow run's (a workflow run is an engine run and moves through the same five). */
export function EngineRunPill({ status }: { status: EngineRunStatus }) {
  return (
    <Pill tone={engineRunTone[status]} pulse={status === "running"}>
      {engineRunLabel[status]}
    </Pill>
  );
}
