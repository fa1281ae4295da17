/**
 * "Tidy up": the flow laid out left to right in ranks by @dagrejs/dagre (a maintained Sugiyama-style layered layout,
 * synchronous and small; elkjs does more but runs as a 1.4 MB worker, more than a flow of plain ranks needs).
 */
import dagre from "@dagrejs/dagre";
import type { FlowGraph } from "../../../lib/trpc";

/** The size a node card takes on the canvas (designer.css `.designer-node`), for the layout's spacing. */
export const NODE_SIZE = { width: 200, height: 84 };

export function tidyUp(graph: FlowGraph): FlowGraph {
  const layout = new dagre.graphlib.Graph();
  layout.setGraph({ rankdir: "LR", nodesep: 40, ranksep: 80 });
  layout.setDefaultEdgeLabel(() => ({}));
  for (const node of graph.nodes) layout.setNode(node.id, { ...NODE_SIZE });
  for (const edge of graph.edges) if (layout.hasNode(edge.source) && layout.hasNode(edge.target)) layout.setEdge(edge.source, edge.target);
  dagre.layout(layout);
  return {
    ...graph,
    nodes: graph.nodes.map((node) => {
      const placed = layout.node(node.id);
      // dagre gives centres; React Flow places a node by its top-left corner.
      return { ...node, position: { x: Math.round(placed.x - NODE_SIZE.width / 2), y: Math.round(placed.y - NODE_SIZE.height / 2) } };
    }),
  };
}
