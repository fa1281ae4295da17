/**
 * A flow's graph as text: what export writes, import and paste read, and the clipboard carries between tabs and flows.
 * The text is React Flow's JSON (the API's shape, `{nodes, edges}`); what React Flow adds when it saves a canvas
 * (`selected`, `measured`, `width`, ...) is dropped, and anything else that is not a node or an edge is refused with
 * the path of what is wrong. The server checks the graph again; this only makes sure what is drawn is a graph.
 */
import { z } from "zod";
import type { FlowGraph } from "../../../lib/trpc";

const NodeJson = z.object({
  id: z.string().min(1, "a node's id must not be empty"),
  type: z.enum(["UX", "Worker", "Splitter", "Collector"], { message: "a node's type is one of UX, Worker, Splitter, Collector" }),
  position: z.object({ x: z.number(), y: z.number() }),
  data: z.record(z.string(), z.unknown()).default({}),
});

const EdgeJson = z.object({
  id: z.string().min(1, "an edge's id must not be empty"),
  source: z.string().min(1),
  target: z.string().min(1),
  sourceHandle: z.string().nullish(),
  targetHandle: z.string().nullish(),
});

const GraphJson = z.object({ nodes: z.array(NodeJson), edges: z.array(EdgeJson).default([]) });


export type ParsedFlowJson = { ok: true; graph: FlowGraph } | { ok: false; error: string };

export function parseFlowJson(text: string): ParsedFlowJson {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `This is not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  // A flow as the API answers it has the graph under `graph`; React Flow's `toObject()` is the graph with its viewport.
  const wrapped = typeof value === "object" && value !== null && "graph" in value && !("nodes" in value);
  const parsed = GraphJson.safeParse(wrapped ? (value as { graph: unknown }).graph : value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? ` (at ${issue.path.join(".")})` : "";
    return { ok: false, error: `This is not a flow's graph: ${issue.message}${where}.` };
  }
  return { ok: true, graph: parsed.data };
}

export function flowJson(graph: FlowGraph): string {
  return JSON.stringify({ nodes: graph.nodes, edges: graph.edges }, null, 2);
}

/** The clipboard's text: a flow's graph with a marker, so pasting someone's unrelated JSON is not taken for nodes. */
const CLIPBOARD_KIND = "stitch-flow-fragment";

export function clipboardText(fragment: FlowGraph): string {
  return JSON.stringify({ kind: CLIPBOARD_KIND, nodes: fragment.nodes, edges: fragment.edges });
}

export function readClipboard(text: string): FlowGraph | null {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== "object" || value === null || (value as { kind?: unknown }).kind !== CLIPBOARD_KIND) return null;
  } catch {
    return null;
  }
  const parsed = parseFlowJson(text);
  return parsed.ok ? parsed.graph : null;
}
