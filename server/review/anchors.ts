/**
 * Anchors: the address of every part of an output, so a comment can point at a requirement, a story, a test case, a
 * field or a line, and still find it in the next version. Pure functions over JSON values.
 *
 * Grammar: a path of segments, then optionally a line or paragraph of the text it reaches.
 * - `.field` (the first without the dot) for an object's field whose name is a word: `problem_statement_refined`;
 * - `[key]` for a list item by its id (`core_capabilities[CAP-001]`) or an object's entry whose key is not a word
 *   (`user_story_pseudocode[US-003]`); a list item's id is its `id`, else its `story_id`, else its `name` when no
 *   other item of the list has the same;
 * - `[#n]` for a list item that has no id, by its position from 1 (`assumptions[#2]`);
 * - `:Ln` a line of the text the path reaches (`mermaid_sequence_diagram:L4`, `user_story_pseudocode[US-003]:L2`);
 *   `:Pn` a paragraph (text separated by a blank line). For an output that is text the path is empty: `P3`, `L7`.
 * Ids and paragraphs survive a revision that keeps the part; positions and lines are re-found by the text they held.
 */
import { isPlainObject } from "../lib/json";
import type { AnchorInfo } from "./schemas";

export type Segment = { field: string } | { key: string } | { index: number };
export interface ParsedAnchor {
  path: Segment[];
  /** A line or paragraph of the text the path reaches, from 1. */
  part?: { line: number } | { paragraph: number };
}

export class AnchorError extends Error {
  override name = "AnchorError";
}

const WORD = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MAX_ANCHORS = 5_000;
const MAX_DEPTH = 12;
const QUOTE_LENGTH = 500;

// ---- Reading and writing anchors --------------------------------------------------------------------------------

/** Parses an anchor; a malformed one throws AnchorError naming where. */
export function parseAnchor(anchor: string): ParsedAnchor {
  const root = /^([PL])(\d+)$/.exec(anchor);
  if (root) return { path: [], part: root[1] === "L" ? { line: Number(root[2]) } : { paragraph: Number(root[2]) } };
  const path: Segment[] = [];
  let rest = anchor;
  let part: ParsedAnchor["part"];
  const suffix = /:([PL])(\d+)$/.exec(rest);
  if (suffix) {
    part = suffix[1] === "L" ? { line: Number(suffix[2]) } : { paragraph: Number(suffix[2]) };
    rest = rest.slice(0, suffix.index);
  }
  let first = true;
  while (rest.length > 0) {
    const field = (first ? /^([A-Za-z_][A-Za-z0-9_]*)/ : /^\.([A-Za-z_][A-Za-z0-9_]*)/).exec(rest);
    if (field) {
      path.push({ field: field[1]! });
      rest = rest.slice(field[0].length);
    } else {
      const bracket = /^\[([^[\]]+)\]/.exec(rest);
      if (!bracket) throw new AnchorError(`anchor "${anchor}": cannot read "${rest}" (expected .field, [id] or [#position])`);
      const inner = bracket[1]!;
      const position = /^#(\d+)$/.exec(inner);
      path.push(position ? { index: Number(position[1]) } : { key: inner });
      rest = rest.slice(bracket[0].length);
    }
    first = false;
  }
  if (part && ("line" in part ? part.line : part.paragraph) < 1) throw new AnchorError(`anchor "${anchor}": lines and paragraphs count from 1`);
  return part ? { path, part } : { path };
}

export function formatAnchor(parsed: ParsedAnchor): string {
  const path = parsed.path
    .map((segment, i) => ("field" in segment ? (i === 0 ? segment.field : `.${segment.field}`) : "key" in segment ? `[${segment.key}]` : `[#${segment.index}]`))
    .join("");
  if (!parsed.part) return path;
  const part = "line" in parsed.part ? `L${parsed.part.line}` : `P${parsed.part.paragraph}`;
  return path === "" ? part : `${path}:${part}`;
}

// ---- Ids of list items ------------------------------------------------------------------------------------------

const idText = (value: unknown): string | undefined =>
  (typeof value === "string" && value.trim() !== "") || typeof value === "number" ? String(value).trim() : undefined;
const usableKey = (key: string | undefined): key is string => key !== undefined && !/[[\]]/.test(key) && !/^#\d+$/.test(key);

/** Each item's segment in its list: its id when it has a usable, unique one, else its position. */
export function itemSegments(items: readonly unknown[]): Segment[] {
  const candidates = items.map((item) => {
    if (!isPlainObject(item)) return undefined;
    return idText(item.id) ?? idText(item.story_id) ?? idText(item.user_story_id && !("test_cases" in item) && !("title" in item) ? item.user_story_id : undefined) ?? idText(item.name);
  });
  const counts = new Map<string, number>();
  for (const key of candidates) if (key !== undefined) counts.set(key, (counts.get(key) ?? 0) + 1);
  return candidates.map((key, i) => (usableKey(key) && counts.get(key) === 1 ? { key } : { index: i + 1 }));
}

// ---- The text of a part -----------------------------------------------------------------------------------------

const TEXT_FIELDS = ["title", "name", "story", "risk", "description", "text", "pseudocode", "expected_result"];

/** A part's text as a comment quotes it: a text itself, an item's title, name or description, or its JSON. */
export function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.map(textOf).join("; ");
  if (isPlainObject(value)) {
    const id = idText(value.id);
    for (const field of TEXT_FIELDS) {
      const text = value[field];
      if (typeof text === "string" && text.trim() !== "") return id && field !== "id" ? `${id}: ${text}` : text;
    }
  }
  return JSON.stringify(value);
}

const clip = (text: string) => (text.length > QUOTE_LENGTH ? `${text.slice(0, QUOTE_LENGTH - 1)}…` : text);

export const humanizeKey = (key: string) => {
  const words = key.replace(/_/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const paragraphsOf = (text: string) => text.split(/\n\s*\n/);
const linesOf = (text: string) => text.split("\n");

// ---- Listing every part -----------------------------------------------------------------------------------------

/** Every part of `output` a comment can point at, in reading order: fields, list items, and lines of multi-line texts. */
export function anchorsOf(output: unknown): AnchorInfo[] {
  const found: AnchorInfo[] = [];
  const add = (path: Segment[], label: string, value: unknown, part?: ParsedAnchor["part"]) => {
    if (found.length < MAX_ANCHORS) found.push({ anchor: formatAnchor(part ? { path, part } : { path }), label, quote: clip(textOf(value)) });
  };
  const textParts = (path: Segment[], label: string, text: string, root: boolean) => {
    const lines = linesOf(text);
    const lineAnchor = (l: number) => {
      if (lines[l]!.trim() !== "") add(path, `${label ? `${label}, line` : "Line"} ${l + 1}`, lines[l]!.trim(), { line: l + 1 });
    };
    if (!root) {
      if (lines.length > 1) lines.forEach((_line, l) => lineAnchor(l));
      return;
    }
    // A text output: its paragraphs, and the lines of a paragraph that has several (a list, a code block).
    let line = 0;
    paragraphsOf(text).forEach((paragraph, p) => {
      const start = lines.findIndex((candidate, l) => l >= line && candidate.trim() !== "");
      const count = paragraph.split("\n").length;
      if (paragraph.trim() !== "") add(path, `Paragraph ${p + 1}`, paragraph.trim(), { paragraph: p + 1 });
      if (start >= 0 && paragraph.trim().split("\n").length > 1) for (let l = start; l < start + paragraph.trim().split("\n").length; l++) lineAnchor(l);
      line = (start >= 0 ? start : line) + count;
    });
  };
  const walk = (value: unknown, path: Segment[], label: string, depth: number) => {
    if (depth > MAX_DEPTH || found.length >= MAX_ANCHORS) return;
    if (typeof value === "string") {
      textParts(path, label, value, path.length === 0);
      return;
    }
    if (Array.isArray(value)) {
      const segments = itemSegments(value);
      value.forEach((item, i) => {
        const segment = segments[i]!;
        const itemPath = [...path, segment];
        const itemLabel = `${label} › ${"key" in segment ? segment.key : `item ${i + 1}`}`;
        add(itemPath, itemLabel, item);
        if (typeof item !== "string" || item.includes("\n")) walk(item, itemPath, itemLabel, depth + 1);
      });
      return;
    }
    if (isPlainObject(value)) {
      for (const [key, child] of Object.entries(value)) {
        const segment: Segment = WORD.test(key) ? { field: key } : { key };
        // An item's id is its address already; a key that cannot be written in brackets has none.
        if ((key === "id" && path.length > 0) || ("key" in segment && !usableKey(key))) continue;
        const childPath = [...path, segment];
        const childLabel = label ? `${label} › ${WORD.test(key) ? humanizeKey(key) : key}` : humanizeKey(key);
        add(childPath, childLabel, child);
        walk(child, childPath, childLabel, depth + 1);
      }
    }
  };
  walk(output, [], "", 0);
  return found;
}

// ---- Resolving an anchor ----------------------------------------------------------------------------------------

function step(value: unknown, segment: Segment): unknown {
  if ("field" in segment) return isPlainObject(value) ? value[segment.field] : undefined;
  if ("index" in segment) return Array.isArray(value) ? value[segment.index - 1] : undefined;
  if (Array.isArray(value)) {
    const segments = itemSegments(value);
    const i = segments.findIndex((s) => "key" in s && s.key === segment.key);
    return i < 0 ? undefined : value[i];
  }
  return isPlainObject(value) ? value[segment.key] : undefined;
}

function partOf(text: unknown, part: NonNullable<ParsedAnchor["part"]>): string | undefined {
  if (typeof text !== "string") return undefined;
  const pieces = "line" in part ? linesOf(text) : paragraphsOf(text);
  const piece = pieces["line" in part ? part.line - 1 : part.paragraph - 1];
  return piece === undefined ? undefined : piece.trim();
}

/** The value at `anchor` in `output`, or undefined when the part is not there (a malformed anchor throws AnchorError). */
export function valueAt(output: unknown, anchor: string): unknown {
  const parsed = parseAnchor(anchor);
  let value: unknown = output;
  for (const segment of parsed.path) {
    value = step(value, segment);
    if (value === undefined) return undefined;
  }
  return parsed.part ? partOf(value, parsed.part) : value;
}

/** The part at `anchor` as a comment sees it (its label and text), or undefined when it is not in `output`. */
export function describeAnchor(output: unknown, anchor: string): AnchorInfo | undefined {
  const value = valueAt(output, anchor);
  if (value === undefined) return undefined;
  const listed = anchor === "" ? undefined : anchorsOf(output).find((a) => a.anchor === anchor);
  return { anchor, label: listed?.label ?? (anchor === "" ? "The whole output" : anchor), quote: clip(textOf(value)) };
}

/**
 * Where the part a comment was written on (`anchor`, quoting `quote`) is in another version: the same anchor when it
 * is there and still holds the text (a line, a paragraph or a position must; an id or a field need not); else the
 * part of that version holding the quoted text (it moved); else null (it is gone: the comment is outdated).
 */
export function relocate(output: unknown, anchor: string, quote: string, listed?: () => AnchorInfo[]): string | null {
  if (anchor === "") return "";
  const parsed = parseAnchor(anchor);
  const value = valueAt(output, anchor);
  const byPosition = parsed.part !== undefined || parsed.path.some((segment) => "index" in segment);
  const wanted = quote.trim();
  if (value !== undefined && (!byPosition || wanted === "" || textOf(value).includes(wanted) || clip(textOf(value)) === wanted)) return anchor;
  if (wanted === "") return null;
  // `listed`: the output's anchors when the caller relocates many comments in one output (computed once).
  const anchors = listed ? listed() : anchorsOf(output);
  // The same kind of part first (a line stays a line), then any part holding the quoted text.
  const kind = (a: string) => /(?:^|:)L\d+$/.test(a) ? "line" : /(?:^|:)P\d+$/.test(a) ? "paragraph" : "part";
  const wantedKind = parsed.part ? ("line" in parsed.part ? "line" : "paragraph") : "part";
  const sameKind = anchors.filter((a) => kind(a.anchor) === wantedKind);
  const match = sameKind.find((a) => a.quote === wanted) ?? anchors.find((a) => a.quote === wanted) ?? sameKind.find((a) => a.quote.includes(wanted));
  return match?.anchor ?? null;
}

// ---- Writing at an anchor ---------------------------------------------------------------------------------------

/**
 * A copy of `output` with the part at `anchor` replaced by `value` (a line or paragraph replaced by text), the rest
 * untouched. Throws AnchorError when the part is not there.
 */
export function replaceAt<T>(output: T, anchor: string, value: unknown): T {
  const parsed = parseAnchor(anchor);
  const write = (current: unknown, depth: number): unknown => {
    if (depth === parsed.path.length) {
      if (!parsed.part) return value;
      if (typeof current !== "string") throw new AnchorError(`anchor "${anchor}": the part is not text, so it has no lines`);
      const paragraph = "paragraph" in parsed.part;
      const pieces = paragraph ? current.split(/(\n\s*\n)/) : linesOf(current);
      // Paragraph splitting keeps the separators at odd positions.
      const at = paragraph ? (parsed.part as { paragraph: number }).paragraph * 2 - 2 : (parsed.part as { line: number }).line - 1;
      if (pieces[at] === undefined) throw new AnchorError(`anchor "${anchor}": there is no such ${paragraph ? "paragraph" : "line"}`);
      pieces[at] = String(value);
      return pieces.join(paragraph ? "" : "\n");
    }
    const segment = parsed.path[depth]!;
    if (Array.isArray(current)) {
      const i = "index" in segment ? segment.index - 1 : "key" in segment ? itemSegments(current).findIndex((s) => "key" in s && s.key === segment.key) : -1;
      if (i < 0 || i >= current.length) throw new AnchorError(`anchor "${anchor}": no such item`);
      const copy = [...current];
      copy[i] = write(current[i], depth + 1);
      return copy;
    }
    if (isPlainObject(current) && !("index" in segment)) {
      const key = "field" in segment ? segment.field : segment.key;
      if (!(key in current)) throw new AnchorError(`anchor "${anchor}": no field "${key}"`);
      return { ...current, [key]: write(current[key], depth + 1) };
    }
    throw new AnchorError(`anchor "${anchor}": the part is not there`);
  };
  return write(output, 0) as T;
}
