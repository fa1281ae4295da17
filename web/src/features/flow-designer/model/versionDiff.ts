/**
 * A diff between two versions on the canvas: the newer graph with the nodes the older one had and the newer lacks
 * drawn back in (marked removed), each node marked added, removed, changed or moved, and edges added or removed. The
 * diff itself is the server's (`GET /api/stitch/flows/:id/diff`); a refused save carries one too (409), read here
 * through its schema where it enters.
 */
import { z } from "zod";
import type { FlowGraph } from "../../../lib/trpc";
import type { WordPiece } from "../../../lib/wordPieces";
import type { DiffMark, NodeDecoration } from "./decorations";

const nodeRef = z.object({ id: z.string(), type: z.string(), label: z.string() });
const position = z.object({ x: z.number(), y: z.number() });
const edge = z.object({ id: z.string(), source: z.string(), target: z.string() }).passthrough();

export const FlowDiffSchema = z.object({
  from: z.number(),
  to: z.number(),
  nodes: z.object({
    added: z.array(nodeRef),
    removed: z.array(nodeRef),
    moved: z.array(nodeRef.extend({ from: position, to: position })),
    changed: z.array(
      nodeRef.extend({
        fields: z.array(
          z.object({
            field: z.string(), change: z.string(), before: z.unknown().optional(), after: z.unknown().optional(),
            /** A changed text's words kept, inserted and deleted (the server's word diff). */
            pieces: z.array(z.object({ op: z.enum(["equal", "insert", "delete"]), text: z.string() })).optional(),
          }).passthrough(),
        ),
      }),
    ),
  }),
  edges: z.object({ added: z.array(edge), removed: z.array(edge) }),
});
export type FlowDiff = z.infer<typeof FlowDiffSchema>;

/** What a save refused as stale carries: the latest version (who saved it, when, its message) and the diff to it. */
export const StaleVersionSchema = z.object({
  latest: z.object({
    version: z.number(),
    message: z.string(),
    author: z.object({ name: z.string().nullable() }).passthrough().nullable(),
    created_at: z.string(),
  }).passthrough(),
  diff: FlowDiffSchema,
});
export type StaleVersion = z.infer<typeof StaleVersionSchema>;

/** The stale version's details in a refused save (tRPC's `data.refusalDetails`), or null when it was refused for another reason. */
export function staleVersionOf(error: unknown): StaleVersion | null {
  const data = (error as { data?: { refusalDetails?: unknown } } | null)?.data;
  const parsed = StaleVersionSchema.safeParse(data?.refusalDetails);
  return parsed.success ? parsed.data : null;
}

export interface DiffOnCanvas {
  graph: FlowGraph;
  decorations: Map<string, NodeDecoration>;
  edgeMarks: Map<string, "added" | "removed">;
}

export function diffOnCanvas(before: FlowGraph, after: FlowGraph, diff: FlowDiff): DiffOnCanvas {
  const marks = new Map<string, DiffMark>();
  for (const n of diff.nodes.moved) marks.set(n.id, "moved");
  for (const n of diff.nodes.changed) marks.set(n.id, "changed");
  for (const n of diff.nodes.added) marks.set(n.id, "added");
  for (const n of diff.nodes.removed) marks.set(n.id, "removed");
  const removedIds = new Set(diff.nodes.removed.map((n) => n.id));
  const nodes = [...after.nodes, ...before.nodes.filter((n) => removedIds.has(n.id))];
  const present = new Set(nodes.map((n) => n.id));
  const afterEdgeIds = new Set(after.edges.map((e) => e.id));
  const removedEdges = diff.edges.removed
    .filter((e) => present.has(e.source) && present.has(e.target))
    .map((e) => ({ id: afterEdgeIds.has(e.id) ? `removed:${e.id}` : e.id, source: e.source, target: e.target }));
  const edgeMarks = new Map<string, "added" | "removed">();
  for (const e of after.edges) if (diff.edges.added.some((a) => a.source === e.source && a.target === e.target)) edgeMarks.set(e.id, "added");
  for (const e of removedEdges) edgeMarks.set(e.id, "removed");
  return {
    graph: { nodes, edges: [...after.edges, ...removedEdges] },
    decorations: new Map([...marks].map(([id, mark]) => [id, { mark }])),
    edgeMarks,
  };
}

/** One change in the list beside the canvas: a sentence, and for a changed node each field's change. */
export interface DiffLine {
  text: string;
  fields?: { field: string; before: string; after: string; pieces?: readonly WordPiece[] }[];
}

/** The diff as the list beside the canvas reads it, one line per change; a changed text shows its words. */
export function diffLines(diff: FlowDiff): DiffLine[] {
  const lines: DiffLine[] = [];
  for (const n of diff.nodes.added) lines.push({ text: `Added ${n.type} "${n.label}"` });
  for (const n of diff.nodes.removed) lines.push({ text: `Removed ${n.type} "${n.label}"` });
  for (const n of diff.nodes.changed) {
    lines.push({
      text: `Changed "${n.label}"`,
      fields: n.fields.map((f) => ({ field: f.field, before: describe(f.before), after: describe(f.after), ...(f.pieces?.length ? { pieces: f.pieces } : {}) })),
    });
  }
  for (const n of diff.nodes.moved) lines.push({ text: `Moved "${n.label}"` });
  for (const e of diff.edges.added) lines.push({ text: `Connected ${e.source} → ${e.target}` });
  for (const e of diff.edges.removed) lines.push({ text: `Disconnected ${e.source} → ${e.target}` });
  return lines;
}

function describe(value: unknown): string {
  if (value === undefined) return "(none)";
  const text = typeof value === "string" ? `"${value}"` : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
