/**
 * The node kinds a person draws with, as the palette offers them: the engine's four node types, with the UX type
 * drawn as two kinds (a gate where a person answers, and a review gate over the Worker before it, `data.gate:
 * "review"`). Each kind says what a new node of it starts with.
 */
import type { FlowNode } from "../../../lib/trpc";

export type NodeKind = "worker" | "ux" | "review" | "splitter" | "collector";

export interface KindInfo {
  kind: NodeKind;
  type: FlowNode["type"];
  label: string;
  /** One line in the palette: what the node does in a run. */
  help: string;
  /** The prefix of a new node's id: ids never end in `_<digits>`, which the engine keeps for a split node's paths. */
  idPrefix: string;
  initialData(): Record<string, unknown>;
}

export const nodeKinds: readonly KindInfo[] = [
  { kind: "worker", type: "Worker", label: "Worker", help: "Sends its input to a webhook and waits for the result.", idPrefix: "worker", initialData: () => ({ label: "Worker", webhookUrl: "" }) },
  { kind: "ux", type: "UX", label: "UX gate", help: "Waits for a person to answer.", idPrefix: "gate", initialData: () => ({ label: "UX gate", prompt: "" }) },
  { kind: "review", type: "UX", label: "Review gate", help: "A person approves or rejects the Worker's output before it.", idPrefix: "review", initialData: () => ({ label: "Review gate", gate: "review" }) },
  { kind: "splitter", type: "Splitter", label: "Splitter", help: "Runs the nodes after it once per item of a list.", idPrefix: "split", initialData: () => ({ label: "Splitter", arrayPath: "items" }) },
  { kind: "collector", type: "Collector", label: "Collector", help: "Gathers the paths of the nearest Splitter into a list.", idPrefix: "collect", initialData: () => ({ label: "Collector" }) },
];

export function kindInfo(kind: NodeKind): KindInfo {
  return nodeKinds.find((k) => k.kind === kind)!;
}

export function kindOfNode(node: Pick<FlowNode, "type" | "data">): NodeKind {
  if (node.type === "UX") return node.data.gate === "review" ? "review" : "ux";
  return node.type === "Worker" ? "worker" : node.type === "Splitter" ? "splitter" : "collector";
}

/** The name a node is shown by: its `data.label`, else its id. */
export function nodeLabel(node: Pick<FlowNode, "id" | "data">): string {
  const label = node.data.label;
  return typeof label === "string" && label.trim() ? label.trim() : node.id;
}

/** The palette's search: a kind matches when its name or its help contains every word typed. */
export function searchKinds(query: string): KindInfo[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return nodeKinds.filter((k) => words.every((w) => `${k.label} ${k.help}`.toLowerCase().includes(w)));
}
