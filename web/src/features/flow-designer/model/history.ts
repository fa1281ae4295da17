/**
 * Undo and redo for every change since the designer was opened: a pure reducer over the flow's graph. A change is
 * `commit`ted as one step; a run of changes that a person makes as one gesture (typing in one field, dragging a node,
 * arrow-key moves) shares a `group` and stays one step. `preview` shows a graph without making a step (a node being
 * dragged), and the commit that ends the gesture makes the step from the graph before it.
 */
import type { FlowGraph } from "../../../lib/trpc";

export interface History {
  past: FlowGraph[];
  present: FlowGraph;
  future: FlowGraph[];
  /** The graph before a preview began, so the gesture's commit undoes to it. */
  previewBase: FlowGraph | null;
  /** The group of the last step; a commit in the same group replaces it instead of adding one. */
  lastGroup: string | null;
}

export type HistoryAction =
  | { type: "commit"; graph: FlowGraph; group?: string }
  | { type: "preview"; graph: FlowGraph }
  | { type: "undo" }
  | { type: "redo" }
  /** A graph from outside (a draft, a version, a restore): the history starts again from it. */
  | { type: "reset"; graph: FlowGraph }
  /** A new step that is never merged with the one before (a version restored into the open designer). */
  | { type: "replace"; graph: FlowGraph };

/** Steps kept: a long session of small edits stays bounded in memory. */
const LIMIT = 500;

export function initialHistory(graph: FlowGraph): History {
  return { past: [], present: graph, future: [], previewBase: null, lastGroup: null };
}

export function historyReducer(state: History, action: HistoryAction): History {
  switch (action.type) {
    case "preview":
      return { ...state, present: action.graph, previewBase: state.previewBase ?? state.present };
    case "commit": {
      if (action.graph === state.present && state.previewBase === null) return state;
      const merge = action.group !== undefined && action.group === state.lastGroup && state.previewBase === null;
      const before = state.previewBase ?? state.present;
      const past = merge ? state.past : [...state.past, before].slice(-LIMIT);
      return { past, present: action.graph, future: [], previewBase: null, lastGroup: action.group ?? null };
    }
    case "replace":
      return { past: [...state.past, state.present].slice(-LIMIT), present: action.graph, future: [], previewBase: null, lastGroup: null };
    case "undo": {
      const previous = state.past.at(-1);
      if (!previous) return state;
      return { past: state.past.slice(0, -1), present: previous, future: [state.present, ...state.future], previewBase: null, lastGroup: null };
    }
    case "redo": {
      const [next, ...future] = state.future;
      if (!next) return state;
      return { past: [...state.past, state.present], present: next, future, previewBase: null, lastGroup: null };
    }
    case "reset":
      return initialHistory(action.graph);
  }
}
