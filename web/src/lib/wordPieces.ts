/** A word diff's pieces for reading: long unchanged runs folded to their edges. */

/** A piece of a word diff, as the server's diffs write them (server/review/diff.ts `textPieces`). */
export interface WordPiece {
  op: "equal" | "insert" | "delete";
  text: string;
}

const KEEP = 8;

/** Unchanged runs longer than twice `KEEP` words keep `KEEP` words at each side of the change and "…" between. */
export function foldPieces(pieces: readonly WordPiece[]): WordPiece[] {
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

