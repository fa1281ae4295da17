/**
 * The designer's canvas: React Flow, controlled by the designer's graph. Every change it reports goes back as a new
 * graph (editing.ts): a drag is previewed while it lasts and committed as one undo step when it ends; arrow keys
 * move the selected nodes (React Flow's keyboard support), each run of presses one step. Node objects that did not
 * change are handed to React Flow unchanged, so a drag on a large flow redraws one card, and only the nodes in view
 * are drawn once the flow is large (`onlyRenderVisibleElements`).
 */
import {
  Background, type Connection, Controls, type Edge, MiniMap, type NodeChange, type EdgeChange, ReactFlow, useReactFlow,
} from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { type DragEvent, useCallback, useMemo, useRef } from "react";
import type { FlowGraph, FlowNode } from "../../../lib/trpc";
import type { Decorations, NodeDecoration } from "../model/decorations";
import { connect, moveNodes } from "../model/editing";
import type { NodeKind } from "../model/nodeKinds";
import { nodeLabel } from "../model/nodeKinds";
import type { Selection } from "../model/selection";
import { DesignerNode, type DesignerRfNode } from "./DesignerNode";

/** The MIME type a palette item is dragged with. */
export const PALETTE_DRAG_TYPE = "application/x-stitch-node-kind";

/** From this many nodes on, React Flow draws only the nodes in view: below it, measuring what is in view costs more than it saves. */
const VISIBLE_ONLY_FROM = 200;

const nodeTypes = { designer: DesignerNode };

export interface DesignerCanvasProps {
  graph: FlowGraph;
  selection: Selection;
  decorations: Decorations;
  /** Edge ids marked by a diff. */
  edgeMarks?: ReadonlyMap<string, "added" | "removed">;
  editable: boolean;
  onPreview(graph: FlowGraph): void;
  onCommit(graph: FlowGraph, group?: string): void;
  onSelectionChange(selection: Selection): void;
  onDropKind(kind: NodeKind, position: FlowNode["position"]): void;
}

export function DesignerCanvas({ graph, selection, decorations, edgeMarks, editable, onPreview, onCommit, onSelectionChange, onDropKind }: DesignerCanvasProps) {
  const flow = useReactFlow();
  // React Flow's node objects, kept while their node, decoration and selection are the same ones.
  const cache = useRef(new Map<string, { node: FlowNode; decoration: NodeDecoration | undefined; selected: boolean; editable: boolean; rf: DesignerRfNode }>());
  const nodes = useMemo(() => {
    const next = new Map<string, typeof cache.current extends Map<string, infer V> ? V : never>();
    const list = graph.nodes.map((node) => {
      const decoration = decorations.get(node.id);
      const selected = selection.nodes.has(node.id);
      const kept = cache.current.get(node.id);
      const entry = kept && kept.node === node && kept.decoration === decoration && kept.selected === selected && kept.editable === editable
        ? kept
        : {
          node, decoration, selected, editable,
          rf: {
            id: node.id, type: "designer" as const, position: node.position, selected,
            data: { node, decoration, editable },
            draggable: editable, connectable: editable, deletable: false,
            ariaLabel: `${nodeLabel(node)} (${node.type})${decoration?.problems?.length ? `, ${decoration.problems.length} problem${decoration.problems.length > 1 ? "s" : ""}` : ""}${decoration?.run ? `, ${decoration.run.statusLabel}` : ""}`,
          },
        };
      next.set(node.id, entry);
      return entry.rf;
    });
    cache.current = next;
    return list;
  }, [graph.nodes, decorations, selection.nodes, editable]);

  const edges = useMemo<Edge[]>(
    () =>
      graph.edges.map((edge) => ({
        id: edge.id, source: edge.source, target: edge.target,
        selected: selection.edges.has(edge.id), deletable: false, focusable: true,
        className: edgeMarks?.get(edge.id) ? `edge-${edgeMarks.get(edge.id)}` : undefined,
        ariaLabel: `Connection from ${edge.source} to ${edge.target}`,
      })),
    [graph.edges, selection.edges, edgeMarks],
  );

  // The latest graph and selection for React Flow's callbacks, which it may call several times before a render.
  const latest = useRef({ graph, selection });
  latest.current = { graph, selection };

  const onNodesChange = useCallback(
    (changes: NodeChange<DesignerRfNode>[]) => {
      const { graph: current, selection: selected } = latest.current;
      const moved = new Map<string, FlowNode["position"]>();
      let dragging = false;
      let ended = false;
      let selectedNodes: Set<string> | null = null;
      for (const change of changes) {
        if (change.type === "position" && change.position) {
          moved.set(change.id, change.position);
          if (change.dragging) dragging = true;
          else ended = true;
        } else if (change.type === "position" && change.dragging === false) {
          ended = true;
        } else if (change.type === "select") {
          selectedNodes ??= new Set(selected.nodes);
          if (change.selected) selectedNodes.add(change.id);
          else selectedNodes.delete(change.id);
        }
      }
      if (selectedNodes) {
        latest.current.selection = { ...selected, nodes: selectedNodes };
        onSelectionChange(latest.current.selection);
      }
      if (!editable) return;
      const next = moveNodes(current, moved);
      if (dragging) {
        latest.current.graph = next;
        onPreview(next);
      } else if (ended) {
        latest.current.graph = next;
        // A drag's end is its own step; arrow-key moves of the same nodes are one step until something else changes.
        onCommit(next, moved.size && !changes.some((c) => c.type === "position" && c.dragging === false && !c.position) ? `move:${[...moved.keys()].sort().join(",")}` : undefined);
      }
    },
    [editable, onPreview, onCommit, onSelectionChange],
  );

  const onEdgesChange = useCallback(
    (changes: EdgeChange[]) => {
      const selected = latest.current.selection;
      let edgesSelected: Set<string> | null = null;
      for (const change of changes) {
        if (change.type !== "select") continue;
        edgesSelected ??= new Set(selected.edges);
        if (change.selected) edgesSelected.add(change.id);
        else edgesSelected.delete(change.id);
      }
      if (edgesSelected) {
        latest.current.selection = { ...selected, edges: edgesSelected };
        onSelectionChange(latest.current.selection);
      }
    },
    [onSelectionChange],
  );

  const onConnect = useCallback(
    (connection: Connection) => {
      if (editable) onCommit(connect(latest.current.graph, connection.source, connection.target));
    },
    [editable, onCommit],
  );

  const onDragOver = (event: DragEvent) => {
    if (!editable || !event.dataTransfer.types.includes(PALETTE_DRAG_TYPE)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
  };
  const onDrop = (event: DragEvent) => {
    const kind = event.dataTransfer.getData(PALETTE_DRAG_TYPE) as NodeKind;
    if (!editable || !kind) return;
    event.preventDefault();
    onDropKind(kind, flow.screenToFlowPosition({ x: event.clientX, y: event.clientY }));
  };

  return (
    <div className="designer-canvas" onDragOver={onDragOver} onDrop={onDrop}>
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onConnect={onConnect}
        nodesDraggable={editable}
        nodesConnectable={editable}
        // Deleting goes through the designer's own command (undoable, asks when it must), not React Flow's key.
        deleteKeyCode={null}
        multiSelectionKeyCode={["Shift", "Meta", "Control"]}
        selectionOnDrag={false}
        onlyRenderVisibleElements={graph.nodes.length >= VISIBLE_ONLY_FROM}
        fitView
        fitViewOptions={{ padding: 0.2, maxZoom: 1.2 }}
        minZoom={0.05}
        ariaLabelConfig={{ "node.a11yDescription.default": "Press Enter or Space to select this node, arrow keys to move it once selected, Delete to remove it." }}
      >
        <Background gap={20} size={1} />
        <Controls showInteractive={false} aria-label="Zoom and fit" />
        <MiniMap pannable zoomable ariaLabel="Minimap of the whole flow" />
      </ReactFlow>
    </div>
  );
}
