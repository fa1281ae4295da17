/** List items of any shape, as earlier artifacts hold them: their readable text, every string inside them, and their ids. */
import { isPlainObject } from "../../../lib/json";

/** Readable text of a list item that may be a string or an object of any shape. */
export function itemText(item: unknown): string {
  if (item === null || item === undefined) return "";
  if (typeof item === "string") return item;
  if (typeof item === "number" || typeof item === "boolean") return String(item);
  if (Array.isArray(item)) return item.map(itemText).join(", ");
  if (!isPlainObject(item)) return "";
  const record = item;
  for (const key of ["name", "title", "capability", "risk", "requirement", "description", "text", "summary", "label", "value"]) {
    const value = record[key];
    if (typeof value === "string" && value.trim() !== "") return value;
  }
  return Object.values(record)
    .filter((value) => typeof value === "string")
    .join(" - ");
}

/** Every string inside a value, for matching feedback against items of unknown shape. */
export function allText(item: unknown): string {
  if (item === null || item === undefined) return "";
  if (typeof item === "string" || typeof item === "number" || typeof item === "boolean") return String(item);
  if (Array.isArray(item)) return item.map(allText).join(" ");
  if (!isPlainObject(item)) return "";
  return Object.values(item)
    .map(allText)
    .join(" ");
}

export function itemId(item: unknown): string | undefined {
  if (isPlainObject(item)) {
    const id = item.id;
    if (typeof id === "string" || typeof id === "number") return String(id);
  }
  return undefined;
}

export function padId(prefix: string, n: number, width = 3): string {
  return `${prefix}-${String(n).padStart(width, "0")}`;
}

/** The next free number after every `PREFIX-n` id in `ids`. */
export function nextNumber(ids: readonly string[], prefix: string): number {
  let max = 0;
  const pattern = new RegExp(`^${prefix}-(\\d+)$`, "i");
  for (const id of ids) {
    const match = pattern.exec(id);
    if (match?.[1]) max = Math.max(max, Number(match[1]));
  }
  return max + 1;
}
