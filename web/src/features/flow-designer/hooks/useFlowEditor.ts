/**
 * The graph being drawn, its undo history and what is selected: every command of the designer (palette, canvas,
 * inspector, keyboard, clipboard) is one of the functions here, so each is one undo step and none bypasses history.
 */
import { useCallback, useMemo, useReducer, useState } from "react";
import type { FlowGraph, FlowNode } from "../../../lib/trpc";
import { addNode, connect, fragmentOf, pasteFragment, removeEdges, removeNodes, setNodeData } from "../model/editing";
import { clipboardText, readClipboard } from "../model/flowJson";
import { historyReducer, initialHistory } from "../model/history";
import { tidyUp } from "../model/layout";
import type { NodeKind } from "../model/nodeKinds";
import { emptySelection, type Selection } from "../model/selection";

export function useFlowEditor(initial: FlowGraph) {
  const [history, dispatch] = useReducer(historyReducer, initial, initialHistory);
  const [selection, setSelection] = useState<Selection>(emptySelection);
  const graph = history.present;

  const commit = useCallback((next: FlowGraph, group?: string) => dispatch({ type: "commit", graph: next, group }), []);
  const preview = useCallback((next: FlowGraph) => dispatch({ type: "preview", graph: next }), []);
  const selectOnly = useCallback((ids: string[]) => setSelection({ nodes: new Set(ids), edges: new Set() }), []);

  /** The one node selected, when exactly one is: the inspector's node, and where the palette adds after. */
  const selectedNode = selection.nodes.size === 1 ? graph.nodes.find((n) => selection.nodes.has(n.id)) ?? null : null;

  return useMemo(() => {
    const add = (kind: NodeKind, position?: FlowNode["position"]) => {
      const added = addNode(graph, kind, position ? { position } : { afterId: selectedNode?.id ?? null });
      commit(added.graph);
      selectOnly([added.id]);
      return added.id;
    };
    const deleteSelected = () => {
      if (selection.nodes.size === 0 && selection.edges.size === 0) return;
      commit(removeEdges(removeNodes(graph, selection.nodes), selection.edges));
      setSelection(emptySelection);
    };
    const copySelected = () => (selection.nodes.size ? clipboardText(fragmentOf(graph, selection.nodes)) : null);
    const paste = (text: string) => {
      const fragment = readClipboard(text);
      if (!fragment || fragment.nodes.length === 0) return false;
      const pasted = pasteFragment(graph, fragment);
      commit(pasted.graph);
      selectOnly(pasted.ids);
      return true;
    };
    const duplicate = () => {
      if (selection.nodes.size === 0) return;
      const pasted = pasteFragment(graph, fragmentOf(graph, selection.nodes));
      commit(pasted.graph);
      selectOnly(pasted.ids);
    };
    return {
      graph,
      selection,
      selectedNode,
      setSelection,
      selectOnly,
      commit,
      preview,
      canUndo: history.past.length > 0,
      canRedo: history.future.length > 0,
      undo: () => dispatch({ type: "undo" }),
      redo: () => dispatch({ type: "redo" }),
      /** A graph from outside (a draft read back, a version opened): undo starts again from it. */
      reset: (next: FlowGraph) => dispatch({ type: "reset", graph: next }),
      /** A graph from outside that replaces what is drawn as one undoable step (an import, a restored version). */
      replace: (next: FlowGraph) => dispatch({ type: "replace", graph: next }),
      add,
      deleteSelected,
      copySelected,
      paste,
      duplicate,
      selectAll: () => setSelection({ nodes: new Set(graph.nodes.map((n) => n.id)), edges: new Set(graph.edges.map((e) => e.id)) }),
      tidy: () => commit(tidyUp(graph)),
      connect: (source: string, target: string) => commit(connect(graph, source, target)),
      disconnect: (edgeId: string) => commit(removeEdges(graph, new Set([edgeId]))),
      /** An inspector edit: typing in one field of one node is one undo step. */
      setData: (nodeId: string, data: Record<string, unknown>, field: string) => commit(setNodeData(graph, nodeId, data), `field:${nodeId}:${field}`),
    };
  }, [graph, selection, selectedNode, history.past.length, history.future.length, commit, preview, selectOnly]);
}

export type FlowEditor = ReturnType<typeof useFlowEditor>;
