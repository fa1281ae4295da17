/**
 * The structural diff between two versions of a flow's graph. Pure: no database, no clock. Nodes are the same node
 * when their id is; an edge is its connection (source and target, with their handles), so an edge whose id alone
 * changed is no change. Changed text is diffed word by word with the product's diff (server/review/diff.ts).
 */
import type { StitchEdge, StitchGraph, StitchNode } from "../engine/schemas";
import { isPlainObject } from "../lib/json";
import { jsonEqual, textPieces } from "../review/diff";
import type { FieldChange, FlowDiff } from "./versionSchemas";

const labelOf = (node: StitchNode) => (typeof node.data.label === "string" && node.data.label.trim() ? node.data.label.trim() : node.id);
const refOf = (node: StitchNode) => ({ id: node.id, type: node.type, label: labelOf(node) });

/** A node's `data` as fields by dot path: nested objects are opened (so `retry.maxAttempts` is one field), lists are values. */
function fieldsOf(data: Record<string, unknown>, prefix = "", into = new Map<string, unknown>()): Map<string, unknown> {
  for (const [key, value] of Object.entries(data)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (isPlainObject(value) && Object.keys(value).length > 0) fieldsOf(value, path, into);
    else into.set(path, value);
  }
  return into;
}

function fieldChange(field: string, before: unknown, after: unknown): FieldChange {
  const change = before === undefined ? "added" : after === undefined ? "removed" : "changed";
  const pieces = typeof before === "string" && typeof after === "string" ? { pieces: textPieces(before, after) } : {};
  return { field, change, before: before ?? null, after: after ?? null, ...pieces };
}

/** The fields of a node that differ between two versions, `type` first, then its data fields in the newer order. */
function changedFields(before: StitchNode, after: StitchNode): FieldChange[] {
  const changes: FieldChange[] = before.type === after.type ? [] : [fieldChange("type", before.type, after.type)];
  const old = fieldsOf(before.data);
  const now = fieldsOf(after.data);
  for (const [field, value] of now) if (!jsonEqual(old.get(field), value)) changes.push(fieldChange(field, old.get(field), value));
  for (const [field, value] of old) if (!now.has(field)) changes.push(fieldChange(field, value, undefined));
  return changes;
}

const connectionOf = (edge: StitchEdge) => JSON.stringify([edge.source, edge.sourceHandle ?? null, edge.target, edge.targetHandle ?? null]);

export function diffGraphs(from: number, before: StitchGraph, to: number, after: StitchGraph): FlowDiff {
  const oldNodes = new Map(before.nodes.map((node) => [node.id, node]));
  const newNodes = new Map(after.nodes.map((node) => [node.id, node]));
  const nodes: FlowDiff["nodes"] = { added: [], removed: [], moved: [], changed: [] };
  for (const node of after.nodes) {
    const old = oldNodes.get(node.id);
    if (!old) {
      nodes.added.push(refOf(node));
      continue;
    }
    if (old.position.x !== node.position.x || old.position.y !== node.position.y) nodes.moved.push({ ...refOf(node), from: old.position, to: node.position });
    const fields = changedFields(old, node);
    if (fields.length > 0) nodes.changed.push({ ...refOf(node), fields });
  }
  for (const node of before.nodes) if (!newNodes.has(node.id)) nodes.removed.push(refOf(node));

  const oldEdges = new Set(before.edges.map(connectionOf));
  const newEdges = new Set(after.edges.map(connectionOf));
  return {
    from, to, nodes,
    edges: { added: after.edges.filter((e) => !oldEdges.has(connectionOf(e))), removed: before.edges.filter((e) => !newEdges.has(connectionOf(e))) },
  };
}
