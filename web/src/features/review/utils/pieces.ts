/** Diff pieces for reading: long unchanged runs folded to their edges, and a changed value's text in a line. */
import type { ReviewDiffChange } from "../../../lib/trpc";

type Piece = ReviewDiffChange["pieces"][number];
const KEEP = 8;

/** Unchanged runs longer than twice `KEEP` words keep `KEEP` words at each side of the change and "…" between. */
export function foldPieces(pieces: readonly Piece[]): Piece[] {
  return pieces.map((piece, i) => {
    if (piece.op !== "equal") return piece;
    const words = piece.text.split(/(\s+)/);
    const wordCount = words.filter((w) => w.trim() !== "").length;
    if (wordCount <= KEEP * 2) return piece;
    const first = i === 0;
    const last = i === pieces.length - 1;
    const head = first ? "" : words.slice(0, KEEP * 2).join("");
    const tail = last ? "" : words.slice(-KEEP * 2).join("");
    return { op: "equal", text: `${head}${head || tail ? " … " : "…"}${tail}`.replace(/^ /, first ? "" : " ") };
  });
}

/** A value in a line: a text as it is, an item by its id and title, anything else as compact JSON. */
export function shortValue(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (typeof value === "object" && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    const id = record.id ?? record.story_id;
    const text = record.title ?? record.name ?? record.description ?? record.story;
    if (typeof text === "string") return typeof id === "string" || typeof id === "number" ? `${id}: ${text}` : text;
  }
  const json = JSON.stringify(value);
  return json.length > 300 ? `${json.slice(0, 299)}…` : json;
}
