/**
 * Maps an engine run's node_states onto its flow's nodes. A node inside a Splitter's scope has a
 * graph-level row with status "split" and one row per path, keyed `<nodeId>_<index>` (nested
 * splitters add more indices: `X_1_0`); those rows are grouped under their node here.
 */
import type { FlowGraph, FlowNode, NodeState, NodeStatus } from "../../../lib/trpc";

export interface PathState {
  key: string;
  /** The path's indices, outermost first: `X_1_0` -> [1, 0]. */
  indices: number[];
  state: NodeState;
}

export interface NodeView {
  id: string;
  type: FlowNode["type"];
  label: string;
  data: Record<string, unknown>;
  state: NodeState | null;
  paths: PathState[];
  /** The status that describes the node as a whole, counting its paths. */
  summary: NodeStatus | "not_started";
}

function labelOf(node: FlowNode): string {
  const { label, name, title } = node.data as Record<string, unknown>;
  for (const value of [label, name, title]) if (typeof value === "string" && value.trim()) return value;
  return node.id;
}

/** Which node a path key belongs to: the longest node id that the key extends with `_<digits>` groups. */
export function ownerOfPathKey(key: string, nodeIds: string[]): { nodeId: string; indices: number[] } | null {
  let best: { nodeId: string; indices: number[] } | null = null;
  for (const id of nodeIds) {
    if (!key.startsWith(`${id}_`)) continue;
    const suffix = key.slice(id.length);
    if (!/^(_\d+)+$/.test(suffix)) continue;
    if (!best || id.length > best.nodeId.length) best = { nodeId: id, indices: suffix.slice(1).split("_").map(Number) };
  }
  return best;
}

const severity: (NodeStatus | "not_started")[] = ["failed", "waiting_for_user", "running", "pending", "cancelled", "skipped", "completed", "not_started"];

function summarize(state: NodeState | null, paths: PathState[]): NodeView["summary"] {
  if (paths.length === 0) return state?.status ?? "not_started";
  // A split node is as far along as its least finished path.
  const statuses = paths.map((p) => p.state.status);
  for (const status of severity) if (statuses.includes(status as NodeStatus)) return status;
  return state?.status ?? "not_started";
}

export function nodeViews(graph: FlowGraph, nodeStates: Record<string, NodeState>): NodeView[] {
  const ids = graph.nodes.map((n) => n.id);
  const idSet = new Set(ids);
  const pathsOf = new Map<string, PathState[]>(ids.map((id) => [id, []]));
  for (const [key, state] of Object.entries(nodeStates)) {
    if (idSet.has(key)) continue;
    const owner = ownerOfPathKey(key, ids);
    if (owner) pathsOf.get(owner.nodeId)!.push({ key, indices: owner.indices, state });
  }
  return graph.nodes.map((node) => {
    const paths = pathsOf.get(node.id)!.sort((a, b) => {
      for (let i = 0; i < Math.max(a.indices.length, b.indices.length); i++) {
        const diff = (a.indices[i] ?? -1) - (b.indices[i] ?? -1);
        if (diff !== 0) return diff;
      }
      return 0;
    });
    const state = nodeStates[node.id] ?? null;
    return { id: node.id, type: node.type, label: labelOf(node), data: node.data, state, paths, summary: summarize(state, paths) };
  });
}

/** An edge between nodes side by side runs right to left; between nodes stacked, bottom to top. */
export function edgeSides(from: { x: number; y: number } | undefined, to: { x: number; y: number } | undefined): "horizontal" | "vertical" {
  if (!from || !to) return "horizontal";
  return Math.abs(to.x - from.x) >= Math.abs(to.y - from.y) ? "horizontal" : "vertical";
}

/** A canvas tall enough for the flow's rows and no taller, so a one-row flow is not lost in empty space. */
export function canvasHeight(graph: FlowGraph): number {
  if (graph.nodes.length === 0) return 280;
  const ys = graph.nodes.map((n) => n.position.y);
  const span = Math.max(...ys) - Math.min(...ys);
  return Math.round(Math.min(560, Math.max(280, 240 + span * 0.9)));
}

export const statusLabel: Record<NodeView["summary"], string> = {
  pending: "Pending",
  running: "Running",
  completed: "Completed",
  failed: "Failed",
  waiting_for_user: "Needs input",
  split: "Split",
  skipped: "Skipped",
  cancelled: "Cancelled",
  not_started: "Not started",
};

/** A review gate is a UX node with data.gate "review": a person approves or rejects the output before it. */
export function isReviewGate(node: Pick<NodeView, "type" | "data">): boolean {
  return node.type === "UX" && node.data.gate === "review";
}

/**
 * A workflow's approval (data.gate "approval") is decided through its front door, which applies the workflow's rules
 * (on_reject, cancelling the run), not by completing or reviewing the engine node directly.
 */
export function isWorkflowApproval(node: Pick<NodeView, "type" | "data">): boolean {
  return node.type === "UX" && node.data.gate === "approval";
}
