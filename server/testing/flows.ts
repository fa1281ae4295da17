/**
 * Small builders for flow graphs in tests: nodes by type, edges from chains of ids.
 * `chain("A", "B", "C")` is the edges A->B and B->C; the same edge named twice is kept once.
 */
import type { StitchEdge, StitchGraph, StitchNode } from "../engine/schemas";

const at = { x: 0, y: 0 };

export const workerNode = (id: string, webhookUrl: string, data: Record<string, unknown> = {}): StitchNode => ({
  id, type: "Worker", position: at, data: { webhookUrl, ...data },
});
export const uxNode = (id: string, data: Record<string, unknown> = {}): StitchNode => ({ id, type: "UX", position: at, data });
export const reviewGate = (id: string): StitchNode => uxNode(id, { gate: "review" });
export const splitterNode = (id: string, arrayPath = "items"): StitchNode => ({ id, type: "Splitter", position: at, data: { arrayPath } });
export const collectorNode = (id: string): StitchNode => ({ id, type: "Collector", position: at, data: {} });

export const chain = (...ids: string[]): [string, string][] => ids.slice(1).map((id, i) => [ids[i]!, id]);

export function graphOf(nodes: StitchNode[], ...edgeLists: [string, string][][]): StitchGraph {
  const edges: StitchEdge[] = [];
  const seen = new Set<string>();
  for (const [source, target] of edgeLists.flat()) {
    const id = `${source}->${target}`;
    if (seen.has(id)) continue;
    seen.add(id);
    edges.push({ id, source, target });
  }
  return { nodes, edges };
}
