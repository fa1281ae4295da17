/** The run's flow drawn with React Flow: each node coloured by its live status, split nodes with one chip per path. */
import { Background, Controls, type Edge, Handle, type Node, type NodeProps, Position, ReactFlow, useReactFlow, useStore } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { memo, useEffect, useMemo } from "react";
import type { FlowGraph } from "../../../lib/trpc";
import { canvasHeight, edgeSides, type NodeView, statusLabel } from "../utils/nodeStates";

type CardData = { view: NodeView; selectedKey: string | null; onSelect(key: string): void };
type CardNode = Node<CardData, "stitch">;

const typeLabel: Record<NodeView["type"], string> = { UX: "Human", Worker: "Worker", Splitter: "Splitter", Collector: "Collector" };

const NodeCard = memo(function NodeCard({ data }: NodeProps<CardNode>) {
  const { view, selectedKey, onSelect } = data;
  return (
    <div className={`graph-node status-${view.summary}${selectedKey === view.id ? " is-selected" : ""}`}>
      {/* A handle on every side: each edge leaves and enters on the sides that face each other. */}
      <Handle id="in-left" type="target" position={Position.Left} isConnectable={false} />
      <Handle id="in-top" type="target" position={Position.Top} isConnectable={false} />
      <div className="graph-node-top">
        <span className={`node-type node-type-${view.type}`}>{typeLabel[view.type]}</span>
        <span className={`node-status status-${view.summary}`}>{statusLabel[view.summary]}</span>
      </div>
      <div className="graph-node-label">{view.label}</div>
      {view.label !== view.id ? <div className="graph-node-id">{view.id}</div> : null}
      {view.paths.length > 0 ? (
        <div className="path-chips">
          {view.paths.map((path) => (
            <button
              key={path.key}
              type="button"
              className={`path-chip status-${path.state.status}${selectedKey === path.key ? " is-selected" : ""}`}
              title={`${path.key}: ${statusLabel[path.state.status]}`}
              onClick={(event) => {
                event.stopPropagation();
                onSelect(path.key);
              }}
            >
              {path.indices.join(".")}
            </button>
          ))}
        </div>
      ) : null}
      <Handle id="out-right" type="source" position={Position.Right} isConnectable={false} />
      <Handle id="out-bottom" type="source" position={Position.Bottom} isConnectable={false} />
    </div>
  );
});

const nodeTypes = { stitch: NodeCard };

/** Keeps the whole flow in view when the canvas changes width (the details panel opens, the window resizes). */
function FitOnResize() {
  const width = useStore((state) => state.width);
  const { fitView } = useReactFlow();
  useEffect(() => {
    if (width > 0) void fitView({ padding: 0.2, duration: 150 });
  }, [width, fitView]);
  return null;
}

export function GraphCanvas({ graph, views, selectedKey, onSelect }: { graph: FlowGraph; views: NodeView[]; selectedKey: string | null; onSelect(key: string): void }) {
  const nodes = useMemo<CardNode[]>(
    () =>
      graph.nodes.map((node, i) => ({
        id: node.id,
        type: "stitch",
        position: node.position,
        data: { view: views[i]!, selectedKey, onSelect },
        draggable: false,
        connectable: false,
        ariaLabel: `${views[i]!.label}: ${statusLabel[views[i]!.summary]}`,
      })),
    [graph, views, selectedKey, onSelect],
  );
  const edges = useMemo<Edge[]>(() => {
    const summary = new Map(views.map((v) => [v.id, v.summary]));
    const position = new Map(graph.nodes.map((n) => [n.id, n.position]));
    return graph.edges.map((edge) => {
      const sides = edgeSides(position.get(edge.source), position.get(edge.target));
      const from = summary.get(edge.source);
      const to = summary.get(edge.target);
      const flowing = to === "running" || to === "waiting_for_user";
      return {
        id: edge.id,
        source: edge.source,
        target: edge.target,
        sourceHandle: sides === "horizontal" ? "out-right" : "out-bottom",
        targetHandle: sides === "horizontal" ? "in-left" : "in-top",
        animated: flowing,
        className: from === "completed" ? "edge-done" : flowing ? "edge-flowing" : "edge-idle",
      };
    });
  }, [graph, views]);

  return (
    <div className="graph-canvas" style={{ height: canvasHeight(graph) }}>
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        fitView
        fitViewOptions={{ padding: 0.2 }}
        minZoom={0.2}
        nodesDraggable={false}
        nodesConnectable={false}
        onNodeClick={(_, node) => onSelect(node.id)}
      >
        <Background gap={20} size={1} />
        <Controls showInteractive={false} />
        <FitOnResize />
      </ReactFlow>
    </div>
  );
}
