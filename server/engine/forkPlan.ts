/**
 * What a fork of a run keeps and what it starts again, decided without I/O from the fork's graph, the original's rows
 * and the node chosen. The chosen node and every node after it (on the graph; inside a splitter path, only in the
 * chosen path, and the Collector closing it and what follows) start afresh; every other row that has finished
 * (completed, failed, skipped, or a path template `split`) is copied as the original has it, never run again. A row
 * that had not finished in the original (pending, running, waiting for a person, cancelled) cannot be copied (no
 * callback or decision of the original reaches the fork): it starts afresh too, and fires when what is before it allows.
 * The paths of a Splitter that starts afresh are left out: the Splitter makes them again. A Collector that starts
 * afresh counts again what its copied paths delivered.
 */
import { type CompiledGraph, type InstanceRef, instanceKey, parseKey, reachable } from "./graph";
import { type NodeRow, newRow } from "./transition";
import type { NodeStatus } from "./schemas";

export interface ForkPlan {
  /** Rows copied from the original as they are. */
  copied: string[];
  /** Rows started afresh because they are the chosen node or after it (the chosen one first). */
  restarted: string[];
  /** Rows started afresh because they had not finished in the original (a parallel branch still running, say). */
  unfinished: string[];
  /** The original's rows the fork leaves out: paths a restarted Splitter makes again, nodes after the chosen one the fork's graph lacks. */
  dropped: string[];
  /** Rows the fork would copy whose node the fork's graph does not have (or has elsewhere): such a fork is refused. */
  missing: string[];
  /** Every row of the fork, as it is seeded. */
  rows: NodeRow[];
  /** The rows to fire once seeded, the chosen node first: each fires when what is before it allows. */
  fire: string[];
}

export interface ForkRefusal {
  refused: { code: "not_found" | "conflict" | "bad_request"; message: string };
}

/** Statuses of a row that has finished: the fork copies it as it is. */
const FINISHED: ReadonlySet<NodeStatus> = new Set(["completed", "failed", "skipped", "split"]);

/** Whether a node was ever fired: only such a node can be forked at (one skipped by a trigger rule never ran). */
const hasStarted = (row: NodeRow): boolean => row.attempt > 0 || row.status === "running" || row.status === "waiting_for_user" || row.status === "completed" || row.status === "failed";

/** True when path vectors `a` and `b` agree where both say something: the same path, or one of them outside it. */
const samePath = (a: readonly number[], b: readonly number[]): boolean => a.slice(0, Math.min(a.length, b.length)).every((k, i) => k === b[i]);

/**
 * The plan of a fork at `chosen` (a node id, or one path's instance `nodeId_k`) of a run whose rows are `original`,
 * on graph `g` (the version the fork runs). `originalGraph` is the graph the original ran, when it differs: a row of
 * a node `g` lacks is dropped when it was after the chosen node there, and missing otherwise.
 */
export function forkPlan(g: CompiledGraph, original: readonly NodeRow[], chosen: string, originalGraph: CompiledGraph = g): ForkPlan | ForkRefusal {
  const chosenRow = original.find((row) => row.key === chosen);
  if (!chosenRow) return { refused: { code: "not_found", message: `the run has no node "${chosen}"` } };
  const before = parseKey(originalGraph, chosen);
  if (before?.template) {
    return { refused: { code: "bad_request", message: `node "${chosen}" runs once per splitter path; fork at one path, such as "${instanceKey(before.nodeId, originalGraph.scope.get(before.nodeId)!.map(() => 0))}"` } };
  }
  if (!hasStarted(chosenRow)) {
    return { refused: { code: "conflict", message: `node "${chosen}" is ${chosenRow.status} and never ran; fork at a node that has started (running, waiting, completed or failed)` } };
  }
  const ref = parseKey(g, chosen);
  if (!ref || ref.template) return { refused: { code: "conflict", message: `the version the fork would run has no node "${chosen}" where the run had it` } };

  const after = reachable(g, ref.nodeId, "downstream");
  const afterBefore = before ? reachable(originalGraph, before.nodeId, "downstream") : new Set<string>();
  /** A row's instance starts afresh when its node is after the chosen one and it is in the chosen path (or outside every path). */
  const isRestarted = (r: InstanceRef) => after.has(r.nodeId) && samePath(r.vector, ref.vector) && (!r.template || ref.vector.length === 0);
  /** A path instance whose Splitter (any in its scope) starts afresh: that Splitter makes the path again. */
  const isRemade = (r: InstanceRef) =>
    !r.template && g.scope.get(r.nodeId)!.some((splitter, depth) => after.has(splitter) && samePath(r.vector.slice(0, depth), ref.vector));

  const plan: ForkPlan = { copied: [], restarted: [], unfinished: [], dropped: [], missing: [], rows: [], fire: [] };
  const rows = new Map<string, NodeRow>();
  const seen = new Set<string>();
  for (const row of original) {
    seen.add(row.key);
    const r = parseKey(g, row.key);
    if (!r) {
      const was = parseKey(originalGraph, row.key);
      (was && afterBefore.has(was.nodeId) && samePath(was.vector, before?.vector ?? []) ? plan.dropped : plan.missing).push(row.key);
      continue;
    }
    if (isRemade(r)) plan.dropped.push(row.key);
    else if (isRestarted(r)) {
      plan.restarted.push(row.key);
      rows.set(row.key, newRow(row.key));
    } else if (FINISHED.has(row.status)) {
      plan.copied.push(row.key);
      rows.set(row.key, row);
    } else {
      plan.unfinished.push(row.key);
      rows.set(row.key, newRow(row.key));
    }
  }
  // Nodes the original never had a row for (a node the latest version added): new, as at a run's start.
  for (const id of g.nodes.keys()) {
    if (seen.has(id)) continue;
    const r = parseKey(g, id)!;
    if (!r.template || !isRemade(r)) {
      plan.unfinished.push(id);
      rows.set(id, newRow(id));
    }
  }
  // The chosen node first, then the rest in the original's order.
  plan.restarted.sort((a, b) => (a === chosen ? -1 : b === chosen ? 1 : 0));
  for (const key of [...plan.restarted, ...plan.unfinished]) {
    const r = parseKey(g, key)!;
    if (r.node.type === "Collector") rows.set(key, recounted(g, r, rows));
  }
  plan.rows = [...rows.values()];
  plan.fire = [chosen, ...plan.unfinished.filter((key) => !parseKey(g, key)!.template), ...plan.restarted.filter((key) => key !== chosen && parseKey(g, key)!.node.type === "Collector")];
  return plan;
}

/**
 * A Collector started afresh whose Splitter the fork copies: it counts again what the fork's rows of its paths
 * delivered (as the Splitter's completion and each feeder's completion counted them in the original), so it collects
 * once the paths started afresh deliver again. A Collector whose Splitter starts afresh too is counted by it.
 */
function recounted(g: CompiledGraph, collector: InstanceRef, rows: ReadonlyMap<string, NodeRow>): NodeRow {
  const fresh = newRow(instanceKey(collector.nodeId, collector.vector));
  const splitter = [...g.collectorOf].find(([, c]) => c === collector.nodeId)?.[0];
  const split = splitter === undefined ? undefined : rows.get(instanceKey(splitter, collector.vector));
  if (splitter === undefined || split?.status !== "completed" || !Array.isArray(split.output)) return fresh;
  const paths = split.output.length;
  const feeders = g.upstream.get(collector.nodeId)!;
  const pathKey = (node: string, k: number) => instanceKey(node, [...collector.vector, k]);
  let done = 0;
  for (const feeder of feeders) {
    if (feeder === splitter) done += paths;
    else for (let k = 0; k < paths; k++) if (rows.get(pathKey(feeder, k))?.status === "completed") done++;
  }
  const failed: string[] = [];
  for (const member of g.members.get(splitter)!) for (let k = 0; k < paths; k++) if (rows.get(pathKey(member, k))?.status === "failed") failed.push(pathKey(member, k));
  const counted = { ...fresh, pathTotal: paths * feeders.length, pathDone: done, pathFailed: failed.length };
  // As in the original: a Collector with a failed path fails with it, and recovers when the path is retried.
  return failed.length > 0 ? { ...counted, status: "failed", error: `path "${failed[0]}" failed` } : counted;
}
