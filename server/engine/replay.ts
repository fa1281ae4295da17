/**
 * A run told again from its event log: each accepted event replayed through the same pure core that applied it
 * (nothing is written), with the rows it changed and the run's status after it (EngineReads.history).
 */
import type { CompiledGraph } from "./graph";
import { macrostep, settleSync } from "./macrostep";
import type { RunStatus, StartedBy, StitchRun } from "./schemas";
import type * as store from "./store";
import { type ExternalEvent, type NodeRow, type RunContext, type RunCounts, countsAfter, newRow, readsEveryRow, runStatusAfter } from "./transition";

/** One accepted event of a run, replayed: who sent it and when, what it changed, and the run's status after it. */
export interface HistoryStep {
  id: number;
  at: string;
  actor: string | null;
  event: ExternalEvent;
  /** Every row the event (with its follow-ups) changed or created: `before` is undefined for a row it created. */
  changes: { key: string; before: NodeRow | undefined; after: NodeRow }[];
  runStatus: RunStatus;
}

export interface RunHistory {
  run: StitchRun;
  flowName: string;
  startedBy: StartedBy | null;
  graph: CompiledGraph;
  steps: HistoryStep[];
}

/**
 * Applies the logged events to rows in memory, as `Engine.apply` applied them to the store: a start creates every
 * node's row, a cancellation or resumption reads them all. An event the core would not apply now (the engine's rules
 * changed since it was logged) is left out rather than told wrongly.
 */
export function replay(g: CompiledGraph, runId: string, runInput: unknown, events: readonly store.LoggedEvent[]): HistoryStep[] {
  const rows = new Map<string, NodeRow>();
  const ctx: RunContext = { runId, runInput, callbackUrl: () => "" };
  let counts: RunCounts = { running: 0, waiting: 0, failed: 0 };
  let status: RunStatus = "running";
  const steps: HistoryStep[] = [];
  for (const { id, at, actor, event } of events) {
    // A start creates every node's row; a fork, the rows it was seeded with (forkPlan.ts), which its event keeps.
    const forked = event.type === "fork" ? new Map(event.rows.map((row) => [row.key, row])) : undefined;
    const created = event.type === "start" ? new Set(g.nodes.keys()) : forked ? new Set(forked.keys()) : undefined;
    const seed = forked ?? (created ? new Map([...created].map((key) => [key, newRow(key)])) : readsEveryRow(event) ? rows : undefined);
    const step = settleSync(macrostep(g, event, ctx, seed, created), (keys) => keys.flatMap((key) => rows.get(key) ?? []));
    if (step.outcome.kind !== "applied") continue;
    const changes = step.changes.map(({ key, after }) => ({ key, before: rows.get(key), after }));
    counts = countsAfter(counts, changes.map(({ before, after }) => ({ before: before?.status, after })));
    for (const { after } of changes) rows.set(after.key, after);
    status = runStatusAfter(status, event, counts);
    steps.push({ id, at, actor, event, changes, runStatus: status });
  }
  return steps;
}
