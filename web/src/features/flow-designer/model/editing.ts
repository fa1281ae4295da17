/**
 * The designer's changes to a flow's graph, each a pure function from a graph to the next: the canvas, the palette,
 * the inspector and the keyboard all change the graph through these, so undo (history.ts) sees every change.
 */
import type { FlowGraph, FlowNode } from "../../../lib/trpc";
import { type NodeKind, kindInfo } from "./nodeKinds";

type Position = FlowNode["position"];
export type FlowEdge = FlowGraph["edges"][number];

/** Room between a node and the one placed after it. */
export const NODE_SPACING = { x: 260, y: 140 };

/** A fresh id with `prefix`: `prefix-<n>`, the smallest n not taken (never `_<digits>`, which names a split node's paths). */
export function freshId(prefix: string, taken: ReadonlySet<string>): string {
  for (let n = 1; ; n++) {
    const id = `${prefix}-${n}`;
    if (!taken.has(id)) return id;
  }
}

function idsOf(graph: FlowGraph): Set<string> {
  return new Set([...graph.nodes.map((n) => n.id), ...graph.edges.map((e) => e.id)]);
}

/**
 * A node of `kind`, placed after `afterId` and connected from it when given (the keyboard's way to build a chain), else
 * at `position` (a drop) or below everything.
 */
export function addNode(graph: FlowGraph, kind: NodeKind, options: { afterId?: string | null; position?: Position } = {}): { graph: FlowGraph; id: string } {
  const info = kindInfo(kind);
  const taken = idsOf(graph);
  const id = freshId(info.idPrefix, taken);
  const after = options.afterId ? graph.nodes.find((n) => n.id === options.afterId) : undefined;
  const position = options.position ?? (after ? besideFree(graph, after.position) : { x: 0, y: graph.nodes.length ? Math.max(...graph.nodes.map((n) => n.position.y)) + NODE_SPACING.y : 0 });
  const node: FlowNode = { id, type: info.type, position, data: info.initialData() };
  const nodes = [...graph.nodes, node];
  if (!after) return { graph: { ...graph, nodes }, id };
  return { graph: connect({ ...graph, nodes }, after.id, id), id };
}

/** To the right of `from`, moved down until no node sits there: the second node after a Splitter goes under the first. */
function besideFree(graph: FlowGraph, from: Position): Position {
  const at = { x: from.x + NODE_SPACING.x, y: from.y };
  const occupied = (p: Position) => graph.nodes.some((n) => Math.abs(n.position.x - p.x) < NODE_SPACING.x / 2 && Math.abs(n.position.y - p.y) < NODE_SPACING.y / 2);
  while (occupied(at)) at.y += NODE_SPACING.y;
  return at;
}

/** An edge from `source` to `target`; none when it exists already or would join a node to itself. */
export function connect(graph: FlowGraph, source: string, target: string): FlowGraph {
  if (source === target || graph.edges.some((e) => e.source === source && e.target === target)) return graph;
  const id = freshId(`e-${source}-${target}`, idsOf(graph));
  return { ...graph, edges: [...graph.edges, { id, source, target }] };
}

export function removeEdges(graph: FlowGraph, edgeIds: ReadonlySet<string>): FlowGraph {
  return { ...graph, edges: graph.edges.filter((e) => !edgeIds.has(e.id)) };
}

/** Removes the nodes and every edge that touches one of them. */
export function removeNodes(graph: FlowGraph, nodeIds: ReadonlySet<string>): FlowGraph {
  return {
    nodes: graph.nodes.filter((n) => !nodeIds.has(n.id)),
    edges: graph.edges.filter((e) => !nodeIds.has(e.source) && !nodeIds.has(e.target)),
  };
}

/** New positions for some nodes; the others keep their objects, so React Flow redraws only what moved. */
export function moveNodes(graph: FlowGraph, positions: ReadonlyMap<string, Position>): FlowGraph {
  if (positions.size === 0) return graph;
  return { ...graph, nodes: graph.nodes.map((n) => (positions.has(n.id) ? { ...n, position: positions.get(n.id)! } : n)) };
}

export function setNodeData(graph: FlowGraph, nodeId: string, data: Record<string, unknown>): FlowGraph {
  return { ...graph, nodes: graph.nodes.map((n) => (n.id === nodeId ? { ...n, data } : n)) };
}

/** The part of a graph that some nodes are: the nodes, and the edges between two of them. */
export function fragmentOf(graph: FlowGraph, nodeIds: ReadonlySet<string>): FlowGraph {
  return {
    nodes: graph.nodes.filter((n) => nodeIds.has(n.id)),
    edges: graph.edges.filter((e) => nodeIds.has(e.source) && nodeIds.has(e.target)),
  };
}

/**
 * A fragment (copied here, in another tab, or from another flow) added beside where it came from: every node and edge
 * gets a fresh id, so nothing of the graph is overwritten, and the fragment's own edges follow the new ids.
 */
export function pasteFragment(graph: FlowGraph, fragment: FlowGraph, offset: Position = { x: 40, y: 40 }): { graph: FlowGraph; ids: string[] } {
  const taken = idsOf(graph);
  const renamed = new Map<string, string>();
  const nodes = fragment.nodes.map((node) => {
    const base = node.id.replace(/(_\d+)+$/, "").replace(/-\d+$/, "") || "node";
    const id = freshId(base, taken);
    taken.add(id);
    renamed.set(node.id, id);
    return { ...node, id, position: { x: node.position.x + offset.x, y: node.position.y + offset.y } };
  });
  const edges = fragment.edges.flatMap((edge) => {
    const source = renamed.get(edge.source);
    const target = renamed.get(edge.target);
    if (!source || !target) return [];
    const id = freshId(`e-${source}-${target}`, taken);
    taken.add(id);
    return [{ ...edge, id, source, target }];
  });
  return { graph: { nodes: [...graph.nodes, ...nodes], edges: [...graph.edges, ...edges] }, ids: nodes.map((n) => n.id) };
}
