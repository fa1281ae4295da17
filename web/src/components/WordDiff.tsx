/**
 * A changed text as its words kept, inserted (<ins>) and deleted (<del>): the product's word diff as every diff in the
 * app shows it (inline review's, the designer's versions). `fold`: long unchanged runs folded to their edges.
 */
import { type WordPiece, foldPieces } from "../lib/wordPieces";

export function WordDiff({ pieces, fold = true, className = "diff-text" }: { pieces: readonly WordPiece[]; fold?: boolean; className?: string }) {
  const shown = fold ? foldPieces(pieces) : pieces;
  return (
    <span className={className}>
      {shown.map((piece, i) => (piece.op === "insert" ? <ins key={i}>{piece.text}</ins> : piece.op === "delete" ? <del key={i}>{piece.text}</del> : <span key={i}>{piece.text}</span>))}
    </span>
  );
}
