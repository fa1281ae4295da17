/**
 * A problem the check endpoint finds in a graph (`POST /api/stitch/flows/check`): what is wrong, and the node, edge
 * and field it concerns when it concerns one. Drawn on the node and in the problems list.
 */
import type { Decorations, NodeDecoration } from "./decorations";

export interface FlowProblem {
  node_id?: string | null;
  edge_id?: string | null;
  field?: string | null;
  message: string;
}

/** The problems on each node they concern, merged into the other decorations (a run's state, a diff's marks). */
export function withProblems(decorations: Decorations, problems: FlowProblem[]): Decorations {
  if (problems.length === 0) return decorations;
  const merged = new Map<string, NodeDecoration>(decorations);
  for (const problem of problems) {
    if (!problem.node_id) continue;
    const current = merged.get(problem.node_id) ?? {};
    merged.set(problem.node_id, { ...current, problems: [...(current.problems ?? []), problem.message] });
  }
  return merged;
}
