/**
 * What is drawn over a node beside its kind and name, from outside the graph: the check's problems, a diff's mark,
 * a run's state. Kept apart from the graph, so none of it is saved or undone.
 */
export interface NodeRunState {
  status: string;
  statusLabel: string;
  /** A node run once per split path: how far its paths are. */
  paths?: { total: number; completed: number; failed: number };
}

export type DiffMark = "added" | "removed" | "changed" | "moved";

export interface NodeDecoration {
  problems?: string[];
  mark?: DiffMark;
  run?: NodeRunState;
}

export type Decorations = ReadonlyMap<string, NodeDecoration>;

export const noDecorations: Decorations = new Map();
