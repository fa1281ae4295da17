import { type RunPhase, describeRunStatus, parseRunStatus } from "../lib/runStatus";

export type Tone = "neutral" | "info" | "warning" | "success" | "danger";

const toneOfPhase: Record<RunPhase, Tone> = {
  working: "info",
  retrying: "info",
  waiting: "warning",
  completed: "success",
  failed: "danger",
  cancelled: "neutral",
  unknown: "neutral",
};

export function Pill({ tone, children, pulse = false }: { tone: Tone; children: React.ReactNode; pulse?: boolean }) {
  return (
    <span className={`pill pill-${tone}`}>
      <span className={`pill-dot${pulse ? " pulse" : ""}`} aria-hidden="true" />
      {children}
    </span>
  );
}

export function RunStatusPill({ status, agentName }: { status: string; agentName?: string | null }) {
  const { phase } = parseRunStatus(status);
  return (
    <Pill tone={toneOfPhase[phase]} pulse={phase === "working" || phase === "retrying"}>
      {describeRunStatus(status, agentName)}
    </Pill>
  );
}
