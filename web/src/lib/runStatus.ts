/**
 * Reading the pipeline's status strings (IN_PROGRESS_<SLUG>, WAITING_APPROVAL_<SLUG>, RETRYING_<SLUG>,
 * COMPLETED, FAILED_<SLUG>, CANCELLED) once, so every view agrees on what a run is doing.
 */
export type RunPhase = "working" | "waiting" | "retrying" | "completed" | "failed" | "cancelled" | "unknown";

export interface ParsedStatus {
  phase: RunPhase;
  /** The agent slug the status names, lowercased, when it names one. */
  slug: string | null;
}

const prefixes: [string, RunPhase][] = [
  ["IN_PROGRESS_", "working"],
  ["WAITING_APPROVAL_", "waiting"],
  ["RETRYING_", "retrying"],
  ["FAILED_", "failed"],
];

export function parseRunStatus(status: string): ParsedStatus {
  if (status === "COMPLETED") return { phase: "completed", slug: null };
  if (status === "FAILED") return { phase: "failed", slug: null };
  if (status === "CANCELLED") return { phase: "cancelled", slug: null };
  for (const [prefix, phase] of prefixes) {
    if (status.startsWith(prefix)) return { phase, slug: status.slice(prefix.length).toLowerCase() };
  }
  return { phase: "unknown", slug: null };
}

/** A run keeps changing (and is polled) until it is completed, has failed or was cancelled. */
export function isRunActive(status: string | undefined): boolean {
  if (!status) return false;
  const { phase } = parseRunStatus(status);
  return phase !== "completed" && phase !== "failed" && phase !== "cancelled";
}

/** Any run not yet completed or cancelled can be cancelled, a failed one included. */
export function isRunCancellable(status: string): boolean {
  const { phase } = parseRunStatus(status);
  return phase !== "completed" && phase !== "cancelled";
}

const phaseLabel: Record<RunPhase, string> = {
  working: "Working",
  waiting: "Waiting for review",
  retrying: "Revising",
  completed: "Completed",
  failed: "Failed",
  cancelled: "Cancelled",
  unknown: "Unknown",
};

/** "Waiting for review · Requirements", "Completed", "Cancelled", ... */
export function describeRunStatus(status: string, agentName?: string | null): string {
  const { phase, slug } = parseRunStatus(status);
  if (phase === "unknown") return status;
  const agent = agentName ?? (slug ? slug.charAt(0).toUpperCase() + slug.slice(1) : null);
  return agent && phase !== "completed" && phase !== "cancelled" ? `${phaseLabel[phase]} · ${agent}` : phaseLabel[phase];
}
