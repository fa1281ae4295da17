/**
 * One macrostep: an external event and every follow-up event it causes, run through the pure `transition` until
 * nothing is left. Both the engine's shell and the pure test harness run this very function; they differ only in
 * where missing rows come from (the store, or a Map), so the pure tests exercise the engine's own loop.
 *
 * It is a generator so that it stays free of I/O: it yields the keys of rows it needs and not yet has, and the
 * driver answers with the rows found (`settle` for an async loader, `settleSync` for a synchronous one).
 */
import type { CompiledGraph } from "./graph";
import { type Effect, type EngineEvent, type InternalEvent, type NodeRow, type Outcome, type RunContext, requiredKeys, transition } from "./transition";
import type { NodeStatus } from "./schemas";

export interface RowChange {
  key: string;
  /** The status before the macrostep; undefined for a row it created. */
  before: NodeStatus | undefined;
  after: NodeRow;
}

export interface MacrostepResult {
  /** The outcome of the external event; a refused or duplicate event has no changes and no effects. */
  outcome: Outcome;
  /** Every row the macrostep changed or created, once each, with its status before and its final value. */
  changes: RowChange[];
  effects: Effect[];
  /** Every follow-up event the core asked for, in the order they ran. */
  followUps: InternalEvent[];
  /** The row the external event addressed, as it stands afterwards (as it was, for a duplicate). */
  addressed: NodeRow | undefined;
}

/**
 * `seed`: rows known before the first step (a cancellation's whole run; a run's start, whose rows are not stored
 * yet and are listed in `created`).
 */
export function* macrostep(
  g: CompiledGraph, event: EngineEvent, ctx: RunContext, seed: ReadonlyMap<string, NodeRow> = new Map(), created: ReadonlySet<string> = new Set(),
): Generator<string[], MacrostepResult, NodeRow[]> {
  const rows = new Map<string, NodeRow>(seed);
  const absent = new Set<string>();
  const before = new Map<string, NodeStatus | undefined>([...created].map((key) => [key, undefined]));
  const effects: Effect[] = [];
  const followUps: InternalEvent[] = [];
  const queue: EngineEvent[] = [event];
  let outcome: Outcome | undefined;
  while (queue.length > 0) {
    const current = queue.shift()!;
    const missing = requiredKeys(g, current).filter((key) => !rows.has(key) && !absent.has(key));
    if (missing.length > 0) {
      const loaded = yield missing;
      for (const row of loaded) rows.set(row.key, row);
      for (const key of missing) if (!rows.has(key)) absent.add(key);
    }
    const step = transition(g, rows, current, ctx);
    if (outcome === undefined) {
      outcome = step.outcome;
      if (outcome.kind !== "applied") return { outcome, changes: [], effects: [], followUps: [], addressed: addressedRow(event, rows) };
    }
    for (const change of step.changes) {
      if (!before.has(change.key)) before.set(change.key, rows.get(change.key)?.status);
      rows.set(change.key, change);
      absent.delete(change.key);
    }
    effects.push(...step.effects);
    followUps.push(...step.next);
    queue.push(...step.next);
  }
  const changes = [...before].map(([key, was]) => ({ key, before: was, after: rows.get(key)! }));
  return { outcome: outcome!, changes, effects, followUps, addressed: addressedRow(event, rows) };
}

const addressedRow = (event: EngineEvent, rows: ReadonlyMap<string, NodeRow>) => ("key" in event ? rows.get(event.key) : undefined);

/** Runs a macrostep, loading missing rows with an async loader (the store, inside the event's transaction). */
export async function settle(run: Generator<string[], MacrostepResult, NodeRow[]>, load: (keys: string[]) => Promise<NodeRow[]>): Promise<MacrostepResult> {
  let next = run.next();
  while (!next.done) next = run.next(await load(next.value));
  return next.value;
}

/**
 * A loader that, asked for the first time, loads `anticipated` rows along with those asked for, and answers later
 * asks from them: a macrostep asks for rows one step at a time, and each ask would otherwise be a round trip. Every
 * row it hands out was read inside the same transaction, and the macrostep never asks twice for a row it holds.
 */
export function anticipating(
  anticipated: readonly string[], load: (keys: string[]) => Promise<NodeRow[]>, read?: { keys: readonly string[]; rows: readonly NodeRow[] },
): (keys: string[]) => Promise<NodeRow[]> {
  // `read`: the anticipated rows, read already (with other runs' in one statement): the rows of `keys` that exist.
  const loaded = new Map<string, NodeRow | undefined>(read?.keys.map((key) => [key, undefined]));
  for (const row of read?.rows ?? []) loaded.set(row.key, row);
  let first = read === undefined;
  return async (keys) => {
    const wanted = first ? [...new Set([...keys, ...anticipated])] : keys.filter((key) => !loaded.has(key));
    first = false;
    if (wanted.length > 0) {
      const found = new Map((await load(wanted)).map((row) => [row.key, row]));
      for (const key of wanted) loaded.set(key, found.get(key));
    }
    return keys.flatMap((key) => loaded.get(key) ?? []);
  };
}

/** Runs a macrostep with a synchronous loader (the pure harness's Map). */
export function settleSync(run: Generator<string[], MacrostepResult, NodeRow[]>, load: (keys: string[]) => NodeRow[]): MacrostepResult {
  let next = run.next();
  while (!next.done) next = run.next(load(next.value));
  return next.value;
}
