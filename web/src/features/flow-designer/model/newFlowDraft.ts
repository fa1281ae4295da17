/**
 * A flow not yet created: its name and drawing kept in the tab (sessionStorage) until "Create flow" stores it, so a
 * reload loses nothing; an import into a new flow hands its graph over the same way. Read back through its schema.
 */
import { z } from "zod";
import type { FlowGraph } from "../../../lib/trpc";
import { parseFlowJson } from "./flowJson";

const KEY = "stitch:flow-designer:new";
const Stored = z.object({ name: z.string(), graph: z.unknown() });

export interface NewFlowDraft {
  name: string;
  graph: FlowGraph;
}

export function readNewFlowDraft(): NewFlowDraft {
  try {
    const stored = Stored.safeParse(JSON.parse(window.sessionStorage.getItem(KEY) ?? "null"));
    if (stored.success) {
      const graph = parseFlowJson(JSON.stringify(stored.data.graph));
      if (graph.ok) return { name: stored.data.name, graph: graph.graph };
    }
  } catch {
    // Unreadable or unavailable storage: a new flow starts empty.
  }
  return { name: "", graph: { nodes: [], edges: [] } };
}

export function writeNewFlowDraft(draft: NewFlowDraft | null): void {
  try {
    if (draft) window.sessionStorage.setItem(KEY, JSON.stringify(draft));
    else window.sessionStorage.removeItem(KEY);
  } catch {
    // Storage unavailable: the drawing lives in the page only.
  }
}
