/**
 * Pure helpers of the output editor: change a value at a path, add an item shaped like its neighbours (with the next
 * id), move or remove one, and what keeps a version from being saved (an emptied text, JSON that does not parse).
 */

import { isRecord } from "../../../lib/json";

export type Path = readonly (string | number)[];


export function setAt(value: unknown, path: Path, next: unknown): unknown {
  if (path.length === 0) return next;
  const [head, ...rest] = path;
  if (Array.isArray(value) && typeof head === "number") return value.map((item, i) => (i === head ? setAt(item, rest, next) : item));
  if (isRecord(value) && typeof head === "string") return { ...value, [head]: setAt(value[head], rest, next) };
  return value;
}

export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  if (to < 0 || to >= items.length) return [...items];
  const copy = [...items];
  const [item] = copy.splice(from, 1);
  copy.splice(to, 0, item!);
  return copy;
}

export const removeItem = <T>(items: readonly T[], at: number): T[] => items.filter((_, i) => i !== at);

/** "CAP-009" after "CAP-008"; "US-010" after "US-009". */
export function nextId(ids: readonly unknown[]): string | undefined {
  const numbered = ids.map((id) => (typeof id === "string" ? /^(.*?)(\d+)$/.exec(id) : null)).filter((m) => m !== null);
  const last = numbered[numbered.length - 1];
  if (!last) return undefined;
  const max = Math.max(...numbered.filter((m) => m[1] === last[1]).map((m) => Number(m[2])));
  return `${last[1]}${String(max + 1).padStart(last[2]!.length, "0")}`;
}

function blankLike(value: unknown): unknown {
  if (typeof value === "string") return "";
  if (typeof value === "number") return 0;
  if (typeof value === "boolean") return false;
  if (Array.isArray(value)) return [];
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, blankLike(v)]));
  return null;
}

/** A new item for a list: shaped like its last item, empty, with the next id when its items are numbered. */
export function newItem(items: readonly unknown[]): unknown {
  const last = items[items.length - 1];
  if (last === undefined) return "";
  const blank = blankLike(last);
  if (isRecord(blank) && isRecord(last)) {
    for (const key of ["id", "story_id"]) {
      if (typeof last[key] === "string") {
        const id = nextId(items.map((item) => (isRecord(item) ? item[key] : undefined)));
        if (id) blank[key] = id;
      }
    }
  }
  return blank;
}

/**
 * The fields of a list's records as its table shows them: every field any item has, in the order they first appear,
 * each with the first value it holds (what a field an item lacks is offered as). Undefined for a list not all records.
 */
export function fieldsOfItems(items: readonly unknown[]): Map<string, unknown> | undefined {
  if (items.length === 0 || !items.every(isRecord)) return undefined;
  const fields = new Map<string, unknown>();
  for (const item of items) for (const [key, value] of Object.entries(item)) if (!fields.has(key) && value !== undefined) fields.set(key, value);
  return fields;
}

/**
 * The fields the output's schema names for the record at `path` (list indexes read as `*`, as the server writes them),
 * each with a value like the ones it holds (an empty text, an empty list), for offering a field no value has yet.
 */
export function schemaFieldsAt(schema: readonly { path: string; key: string; kind: string }[], path: Path): Map<string, unknown> {
  const pattern = path.map((part) => (typeof part === "number" ? "*" : part)).join(".");
  const like = (kind: string): unknown => (kind === "text" ? "" : kind === "list" ? [] : kind === "number" ? 0 : kind === "boolean" ? false : null);
  return new Map(schema.filter((field) => field.path === pattern).map((field) => [field.key, like(field.kind)]));
}

/** An artifact's fields in the order its page shows them (`order`, the renderer's), then the others as they come. */
export function fieldsInOrder(artifact: unknown, order: readonly string[]): Map<string, unknown> | undefined {
  if (!isRecord(artifact)) return undefined;
  const keys = [...order.filter((key) => key in artifact), ...Object.keys(artifact).filter((key) => !order.includes(key))];
  return new Map(keys.map((key) => [key, artifact[key]]));
}

/** Where a text was left empty, as paths ("core_capabilities.2.description"). */
export function emptyTexts(value: unknown, path: Path = []): string[] {
  if (typeof value === "string") return value.trim() === "" ? [path.join(".")] : [];
  if (Array.isArray(value)) return value.flatMap((item, i) => emptyTexts(item, [...path, i]));
  if (isRecord(value)) return Object.entries(value).flatMap(([key, v]) => emptyTexts(v, [...path, key]));
  return [];
}

export function parseJson(text: string): { value: unknown; error: null } | { value: undefined; error: string } {
  try {
    return { value: JSON.parse(text) as unknown, error: null };
  } catch (error) {
    return { value: undefined, error: error instanceof Error ? error.message : String(error) };
  }
}
