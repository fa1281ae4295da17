/**
 * What the deterministic agents' revisions share: the artifact a revision starts from, remarks kept as review
 * notes, and the edits a reviewer's directive makes to a list (remove or reword the items it names), each with
 * the line it adds to the changes.
 */
import type { Changes } from "../drafts/shared";
import { type Directive, itemMatches, replaceWording } from "../feedback";
import { itemId, itemText } from "../text/items";
import { sentenceCase } from "../text/normalize";
import { isPlainObject } from "../../../lib/json";

// ---- the revision's start and its notes -------------------------------------------------------------

/** The artifact a revision starts from, copied so the caller's context is never modified. */
export function copyOf<T>(value: T): T {
  return structuredClone(value);
}

/** Remarks that name nothing to change are kept in `review_notes`, so the revision still shows them. */
export function recordNote(artifact: Record<string, unknown>, directive: Directive, changes: Changes, outcomes: string[]): void {
  const notes = Array.isArray(artifact.review_notes) ? (artifact.review_notes as unknown[]) : [];
  const note = sentenceCase(directive.sentence);
  notes.push(note);
  artifact.review_notes = notes;
  changes.added.push(`review_notes: "${note}"`);
  outcomes.push(`"${note}" names nothing to add, remove or change, so it is recorded under review_notes.`);
}

// ---- list edits -------------------------------------------------------------------------------------

/** Removes the items the directive names; returns what was removed. */
export function removeMatching<T>(items: T[], directive: Directive): T[] {
  const removed = items.filter((item) => itemMatches(item, directive));
  const kept = items.filter((item) => !removed.includes(item));
  items.splice(0, items.length, ...kept);
  return removed;
}

const TEXT_KEYS = ["name", "title", "description", "risk", "story", "i_want", "expected_result", "purpose", "interest", "responsibility", "mitigation"];

/** Rewrites the named wording inside one item (string or object); undefined when the item is not the one meant. */
export function renameItem<T>(item: T, directive: Directive): T | undefined {
  const replacement = directive.replacement ?? "";
  if (!itemMatches(item, directive)) return undefined;
  if (typeof item === "string") return (replaceWording(item, directive.subject, replacement) ?? sentenceCase(replacement)) as T;
  if (!isPlainObject(item)) return undefined;
  const record: Record<string, unknown> = { ...item };
  let changed = false;
  for (const key of TEXT_KEYS) {
    const value = record[key];
    if (typeof value !== "string") continue;
    const next = replaceWording(value, directive.subject, replacement);
    if (next !== undefined) {
      record[key] = next;
      changed = true;
    }
  }
  if (!changed) {
    const key = ["name", "title", "risk"].find((candidate) => typeof record[candidate] === "string") ?? "name";
    record[key] = sentenceCase(replacement);
  }
  return record as T;
}

/** Applies renameItem across a list; returns a line per changed item ("CAP-002: X -> Y"). */
export function renameMatching<T>(items: T[], directive: Directive): string[] {
  const lines: string[] = [];
  items.forEach((item, index) => {
    const renamed = renameItem(item, directive);
    if (renamed === undefined) return;
    items[index] = renamed;
    const id = itemId(item);
    lines.push(`${id ? `${id}: ` : ""}"${itemText(item)}" -> "${itemText(renamed)}"`);
  });
  return lines;
}

export function label(item: unknown): string {
  const id = itemId(item);
  const text = itemText(item);
  return id && !text.startsWith(id) ? `${id} "${text}"` : `"${text}"`;
}
