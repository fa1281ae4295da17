/** Small readers for artifacts whose exact inner shape varies between agent versions. */
import { isRecord } from "../../lib/json";

export type Plain = Record<string, unknown>;

export const isPlainObject: (value: unknown) => value is Plain = isRecord;

export function isPrimitive(value: unknown): value is string | number | boolean | null | undefined {
  return value === null || value === undefined || ["string", "number", "boolean"].includes(typeof value);
}

/** The first of several possible field names that holds a non-empty value. */
export function pick(record: Plain, ...keys: string[]): unknown {
  for (const key of keys) {
    const value = record[key];
    if (value !== undefined && value !== null && value !== "") return value;
  }
  return undefined;
}

/** Which of several possible field names holds a non-empty value (to address that field). */
export function pickKey(record: Plain, ...keys: string[]): string | undefined {
  return keys.find((key) => record[key] !== undefined && record[key] !== null && record[key] !== "");
}

export function pickString(record: Plain, ...keys: string[]): string | undefined {
  const value = pick(record, ...keys);
  return typeof value === "string" || typeof value === "number" ? String(value) : undefined;
}

/** The record without the keys a renderer already showed, so nothing the agent sent is hidden. */
export function omit(record: Plain, keys: string[]): Plain {
  return Object.fromEntries(Object.entries(record).filter(([key]) => !keys.includes(key)));
}

const acronyms = new Set(["id", "ui", "ux", "api", "qa", "nfr", "fr", "er", "url", "sla", "kpi"]);

/** "problem_statement_refined" -> "Problem statement refined", "id" -> "ID". */
export function humanizeKey(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[_\s-]+/)
    .filter(Boolean)
    .map((word) => {
      const lower = word.toLowerCase();
      if (acronyms.has(lower)) return word.toUpperCase();
      if (lower.endsWith("s") && acronyms.has(lower.slice(0, -1))) return `${lower.slice(0, -1).toUpperCase()}s`;
      return lower;
    });
  if (words.length === 0) return key;
  const [first, ...rest] = words;
  return [first!.charAt(0).toUpperCase() + first!.slice(1), ...rest].join(" ");
}

/** The envelope every agent sends: `{ artifact, changes_made, justification }`; content without it is the artifact itself. */
export interface Envelope {
  artifact: unknown;
  changes: { added: unknown[]; removed: unknown[]; modified: unknown[] } | null;
  justification: string | null;
}

export function readEnvelope(content: Record<string, unknown>): Envelope {
  const hasArtifact = "artifact" in content;
  const rawChanges = content.changes_made;
  const list = (value: unknown) => (Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]);
  const changes = isPlainObject(rawChanges)
    ? { added: list(rawChanges.added), removed: list(rawChanges.removed), modified: list(rawChanges.modified) }
    : null;
  const justification = typeof content.justification === "string" && content.justification.trim() ? content.justification : null;
  const artifact = hasArtifact ? content.artifact : Object.fromEntries(Object.entries(content).filter(([k]) => k !== "changes_made" && k !== "justification"));
  return { artifact, changes, justification };
}

/** Mermaid source without the Markdown fence (```mermaid ... ```) some agents wrap it in. */
export function unfence(source: string): string {
  const fenced = /^\s*```\s*mermaid\s*\n([\s\S]*?)\n?\s*```\s*$/i.exec(source);
  return fenced ? fenced[1]! : source;
}

/** Mermaid sources start with their diagram kind (after an optional fence and %% comments). */
export function looksLikeMermaid(source: unknown): source is string {
  return (
    typeof source === "string" &&
    /^\s*(%%.*\n\s*)*(erDiagram|sequenceDiagram|flowchart|graph\s|classDiagram|stateDiagram|gantt|journey|mindmap)/.test(unfence(source))
  );
}
