/**
 * The computed diff between two versions of a reviewed output, and where it disagrees with the agent's own account of
 * its changes. Pure functions over JSON values: no database, no clock.
 *
 * - `diffOutputs(before, after)`: what changed, part by part, each change at the deepest part that changed and
 *   addressed by its anchor (anchors.ts). List items are matched by their id (`itemSegments`), so an item that kept
 *   its id is the same item wherever it went; items without one are matched by content. Changed text carries
 *   word-level pieces; multi-line text (pseudocode, Mermaid source, a Markdown output) is diffed by lines first, then
 *   by words within the lines that changed, so a three-word edit is three words, not a paragraph.
 * The check of an agent's account of its changes against this diff is the pipeline's (server/pipeline/claimCheck.ts).
 */
import { type ChangeObject, diffArrays, diffLines, diffWordsWithSpace } from "diff";
import { isPlainObject } from "../lib/json";
import { type Segment, formatAnchor, humanizeKey, itemSegments } from "./anchors";
import type { DiffChange, TextPiece } from "./schemas";

export interface OutputDiff {
  changes: DiffChange[];
  /** How many leaf parts (texts, numbers, flags, empty lists) are equal in both versions. */
  unchanged: number;
}

export const WORD = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Beyond this depth a part is compared whole (anchorsOf lists no deeper parts either). */
export const MAX_DEPTH = 12;
const WHOLE_OUTPUT = "The whole output";



// ---- Equality and counting --------------------------------------------------------------------------------------

/** Equality of JSON values; the order of an object's fields does not matter, the order of a list's items does. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => key in b && jsonEqual(a[key], b[key]));
}

/** The leaf parts of a value: texts, numbers, flags, nulls and empty containers. A list item's `id` is its address, not a part. */
function countLeaves(value: unknown, isItem: boolean): number {
  if (Array.isArray(value)) return value.length === 0 ? 1 : value.reduce((sum: number, item) => sum + countLeaves(item, true), 0);
  if (!isPlainObject(value)) return 1;
  const entries = Object.entries(value).filter(([key]) => !(isItem && key === "id"));
  return entries.length === 0 ? 1 : entries.reduce((sum, [, child]) => sum + countLeaves(child, false), 0);
}

// ---- Text pieces ------------------------------------------------------------------------------------------------

const opOf = (part: ChangeObject<string>): TextPiece["op"] => (part.added ? "insert" : part.removed ? "delete" : "equal");

/** Joins neighbouring pieces of the same kind and drops empty ones. */
function mergePieces(pieces: TextPiece[]): TextPiece[] {
  const merged: TextPiece[] = [];
  for (const piece of pieces) {
    if (piece.text === "") continue;
    const last = merged[merged.length - 1];
    if (last && last.op === piece.op) last.text += piece.text;
    else merged.push({ ...piece });
  }
  return merged;
}

/**
 * Below this share of the text in common, a change reads as a rewrite: the old text struck through, then the new one,
 * rather than their words interleaved (which no one can read when little is left of the old).
 */
const REWRITE_BELOW = 0.4;

function wordPieces(before: string, after: string): TextPiece[] {
  const parts = diffWordsWithSpace(before, after);
  const kept = parts.reduce((sum, part) => sum + (part.added || part.removed ? 0 : part.value.trim().length), 0);
  const longest = Math.max(before.trim().length, after.trim().length);
  if (longest > 0 && kept / longest < REWRITE_BELOW) return [{ op: "delete", text: before }, { op: "insert", text: after }];
  return parts.map((part) => ({ op: opOf(part), text: part.value }));
}

/** Lines first, then words within each run of removed lines and the added lines that replace it. */
function linePieces(before: string, after: string): TextPiece[] {
  const parts = diffLines(before, after);
  const pieces: TextPiece[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const next = parts[i + 1];
    if (part.removed && next?.added) {
      pieces.push(...wordPieces(part.value, next.value));
      i++;
    } else if (part.added && next?.removed) {
      pieces.push(...wordPieces(next.value, part.value));
      i++;
    } else {
      pieces.push({ op: opOf(part), text: part.value });
    }
  }
  return pieces;
}

/** Word-level pieces of a changed text; by lines first when either version has more than one line. */
export function textPieces(before: string, after: string): TextPiece[] {
  const multiLine = before.includes("\n") || after.includes("\n");
  return mergePieces(multiLine ? linePieces(before, after) : wordPieces(before, after));
}

// ---- Walking both versions --------------------------------------------------------------------------------------

/** Where a part is in each version, and how the app names it there. */
interface Place {
  before: Segment[];
  after: Segment[];
  beforeLabel: string;
  afterLabel: string;
}

interface Walk {
  changes: DiffChange[];
  unchanged: number;
}

export const anchorOf = (path: Segment[]) => formatAnchor({ path });
const fieldLabel = (label: string, key: string) => (label ? `${label} › ${WORD.test(key) ? humanizeKey(key) : key}` : humanizeKey(key));
const itemLabel = (label: string, segment: Segment, position: number) => {
  const name = "key" in segment ? segment.key : `item ${position}`;
  return label ? `${label} › ${name}` : humanizeKey(name);
};
const rootLabel = (label: string) => label || WHOLE_OUTPUT;

function added(walk: Walk, place: Place, value: unknown) {
  walk.changes.push({ anchor: anchorOf(place.after), label: rootLabel(place.afterLabel), kind: "added", pieces: [], after: value });
}

function removed(walk: Walk, place: Place, value: unknown) {
  walk.changes.push({ anchor: anchorOf(place.before), label: rootLabel(place.beforeLabel), kind: "removed", pieces: [], before: value });
}

function changed(walk: Walk, place: Place, before: unknown, after: unknown) {
  const pieces = typeof before === "string" && typeof after === "string" ? textPieces(before, after) : [];
  walk.changes.push({ anchor: anchorOf(place.after), label: rootLabel(place.afterLabel), kind: "changed", pieces, before, after });
}

function compare(walk: Walk, before: unknown, after: unknown, place: Place, depth: number, isItem: boolean) {
  if (jsonEqual(before, after)) {
    walk.unchanged += countLeaves(after, isItem);
  } else if (depth >= MAX_DEPTH) {
    changed(walk, place, before, after);
  } else if (Array.isArray(before) && Array.isArray(after)) {
    compareLists(walk, before, after, place, depth);
  } else if (isPlainObject(before) && isPlainObject(after) && !hasUnaddressableChange(before, after)) {
    compareObjects(walk, before, after, place, depth, isItem);
  } else {
    changed(walk, place, before, after);
  }
}

// A key that cannot be written in an anchor (it holds brackets, or looks like a position) has no address of its own,
// so a change there is reported at the object that holds it.
const addressable = (key: string) => !/[[\]]/.test(key) && !/^#\d+$/.test(key) && key !== "";

function hasUnaddressableChange(before: Record<string, unknown>, after: Record<string, unknown>): boolean {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].some((key) => !addressable(key) && !jsonEqual(before[key], after[key]));
}

function compareObjects(walk: Walk, before: Record<string, unknown>, after: Record<string, unknown>, place: Place, depth: number, isItem: boolean) {
  const keys = [...Object.keys(after), ...Object.keys(before).filter((key) => !(key in after))];
  for (const key of keys) {
    if (!addressable(key)) continue;
    const segment: Segment = WORD.test(key) ? { field: key } : { key };
    const child: Place = {
      before: [...place.before, segment],
      after: [...place.after, segment],
      beforeLabel: fieldLabel(place.beforeLabel, key),
      afterLabel: fieldLabel(place.afterLabel, key),
    };
    // An item's id is its address, not a part of its own (anchorsOf lists none): the same id is not counted.
    const sameId = isItem && key === "id" && jsonEqual(before[key], after[key]);
    if (!(key in before)) added(walk, child, after[key]);
    else if (!(key in after)) removed(walk, child, before[key]);
    else if (!sameId) compare(walk, before[key], after[key], child, depth + 1, false);
  }
}

// ---- Lists ------------------------------------------------------------------------------------------------------

/** An item of the older version, of the newer, or the same item in both (`moved` when its place among the others changed). */
interface Pairing {
  before?: number;
  after?: number;
  moved?: boolean;
}

const keyOf = (segment: Segment | undefined) => (segment && "key" in segment ? segment.key : undefined);

/** Items with an id are the same item when the id is. */
function pairByKey(beforeSegments: Segment[], afterSegments: Segment[]): Pairing[] {
  const beforeAt = new Map<string, number>();
  beforeSegments.forEach((segment, i) => {
    const key = keyOf(segment);
    if (key !== undefined) beforeAt.set(key, i);
  });
  const afterKeys = new Set(afterSegments.map(keyOf));
  const pairs: Pairing[] = [];
  afterSegments.forEach((segment, i) => {
    const key = keyOf(segment);
    if (key !== undefined) pairs.push(beforeAt.has(key) ? { before: beforeAt.get(key)!, after: i } : { after: i });
  });
  beforeSegments.forEach((segment, i) => {
    const key = keyOf(segment);
    if (key !== undefined && !afterKeys.has(key)) pairs.push({ before: i });
  });
  return markMoved(pairs);
}

/** The matched items outside a longest run that kept its order moved; the others only shifted as items came and went. */
function markMoved(pairs: Pairing[]): Pairing[] {
  const matched = pairs.filter((pair) => pair.before !== undefined && pair.after !== undefined).sort((a, b) => a.before! - b.before!);
  const kept = longestIncreasingRun(matched.map((pair) => pair.after!));
  matched.forEach((pair, i) => {
    if (!kept.has(i)) pair.moved = true;
  });
  return pairs;
}

/** The positions (in `values`) of a longest strictly increasing subsequence. */
function longestIncreasingRun(values: number[]): Set<number> {
  const tails: number[] = [];
  const previous: number[] = [];
  values.forEach((value, i) => {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (values[tails[middle]!]! < value) low = middle + 1;
      else high = middle;
    }
    previous[i] = low > 0 ? tails[low - 1]! : -1;
    tails[low] = i;
  });
  const run = new Set<number>();
  for (let i = tails.length > 0 ? tails[tails.length - 1]! : -1; i >= 0; i = previous[i]!) run.add(i);
  return run;
}

/** Items without an id, by content: equal runs are the same items; what was removed and added at one spot is a change. */
function pairByContent(before: unknown[], after: unknown[], beforeSegments: Segment[], afterSegments: Segment[]): Pairing[] {
  const beforeIndexes = beforeSegments.flatMap((segment, i) => ("index" in segment ? [i] : []));
  const afterIndexes = afterSegments.flatMap((segment, i) => ("index" in segment ? [i] : []));
  const parts = diffArrays(beforeIndexes.map((i) => before[i]), afterIndexes.map((i) => after[i]), { comparator: jsonEqual });
  const pairs: Pairing[] = [];
  const spots: { removed: number[]; added: number[] }[] = [];
  let b = 0;
  let a = 0;
  let spot: { removed: number[]; added: number[] } | undefined;
  for (const part of parts) {
    if (!part.added && !part.removed) {
      for (let n = 0; n < part.count; n++) pairs.push({ before: beforeIndexes[b++]!, after: afterIndexes[a++]! });
      spot = undefined;
      continue;
    }
    if (!spot) spots.push((spot = { removed: [], added: [] }));
    for (let n = 0; n < part.count; n++) {
      if (part.removed) spot.removed.push(beforeIndexes[b++]!);
      else spot.added.push(afterIndexes[a++]!);
    }
  }
  return [...pairs, ...pairSpots(spots, before, after)];
}

const pairable = (a: unknown, b: unknown) => (typeof a === "string" && typeof b === "string") || (isPlainObject(a) && isPlainObject(b));

/** An item removed at one spot and added, equal, at another moved; the rest removed and added at one spot changed. */
function pairSpots(spots: { removed: number[]; added: number[] }[], before: unknown[], after: unknown[]): Pairing[] {
  const pairs: Pairing[] = [];
  const used = new Set<number>();
  const addedIndexes = spots.flatMap((spot) => spot.added);
  const movedFrom = new Set<number>();
  for (const i of spots.flatMap((spot) => spot.removed)) {
    const j = addedIndexes.find((candidate) => !used.has(candidate) && jsonEqual(before[i], after[candidate]));
    if (j === undefined) continue;
    used.add(j);
    movedFrom.add(i);
    pairs.push({ before: i, after: j, moved: true });
  }
  for (const spot of spots) {
    const gone = spot.removed.filter((i) => !movedFrom.has(i));
    const come = spot.added.filter((j) => !used.has(j));
    while (gone.length > 0 && come.length > 0 && pairable(before[gone[0]!], after[come[0]!])) pairs.push({ before: gone.shift()!, after: come.shift()! });
    pairs.push(...gone.map((i) => ({ before: i })), ...come.map((j) => ({ after: j })));
  }
  return pairs;
}

/** Reading order of the newer version; a removed item comes right after the item that preceded it in the older. */
function readingOrder(pairs: Pairing[]): Pairing[] {
  const afterOf = new Map<number, number>();
  for (const pair of pairs) if (pair.before !== undefined && pair.after !== undefined) afterOf.set(pair.before, pair.after);
  const place = (pair: Pairing): number => {
    if (pair.after !== undefined) return pair.after;
    for (let i = pair.before! - 1; i >= 0; i--) if (afterOf.has(i)) return afterOf.get(i)! + 0.5;
    return -0.5;
  };
  return [...pairs].sort((x, y) => place(x) - place(y) || (x.before ?? 0) - (y.before ?? 0));
}

function compareLists(walk: Walk, before: unknown[], after: unknown[], place: Place, depth: number) {
  const beforeSegments = itemSegments(before);
  const afterSegments = itemSegments(after);
  const pairs = readingOrder([...pairByKey(beforeSegments, afterSegments), ...pairByContent(before, after, beforeSegments, afterSegments)]);
  for (const pair of pairs) {
    const item: Place = { ...place };
    if (pair.before !== undefined) {
      const segment = beforeSegments[pair.before]!;
      item.before = [...place.before, segment];
      item.beforeLabel = itemLabel(place.beforeLabel, segment, pair.before + 1);
    }
    if (pair.after !== undefined) {
      const segment = afterSegments[pair.after]!;
      item.after = [...place.after, segment];
      item.afterLabel = itemLabel(place.afterLabel, segment, pair.after + 1);
    }
    if (pair.before === undefined) added(walk, item, after[pair.after!]);
    else if (pair.after === undefined) removed(walk, item, before[pair.before]);
    else {
      if (pair.moved) {
        walk.changes.push({ anchor: anchorOf(item.after), label: item.afterLabel, kind: "moved", pieces: [], before: pair.before + 1, after: pair.after + 1 });
      }
      compare(walk, before[pair.before], after[pair.after], item, depth + 1, true);
    }
  }
}

/**
 * The changes from `before` to `after` (two versions of one output), in the newer version's reading order, and how
 * many leaf parts are the same in both. A `moved` change's `before` and `after` are the item's positions (from 1).
 */
export function diffOutputs(before: unknown, after: unknown): OutputDiff {
  const walk: Walk = { changes: [], unchanged: 0 };
  compare(walk, before, after, { before: [], after: [], beforeLabel: "", afterLabel: "" }, 0, false);
  return walk;
}
