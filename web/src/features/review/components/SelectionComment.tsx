/**
 * "Comment on selection": text selected inside the output becomes a comment's quote, on the smallest part holding it.
 * The button keeps the selection when pressed (no focus change on mouse down); from the keyboard it is reached after
 * selecting with Shift and the arrows in a focusable block (a code block, the output's text).
 */
import { type RefObject, useEffect, useState } from "react";
import { partName } from "../../../components/artifacts/parts";
import type { ReviewOutput } from "../../../lib/trpc";
import { partOfSelection } from "../utils/threads";
import { useReviewSession } from "./ReviewSession";

function useSelectionIn(root: RefObject<HTMLElement | null>): string {
  const [text, setText] = useState("");
  useEffect(() => {
    const read = () => {
      const selection = document.getSelection();
      const inside = selection && !selection.isCollapsed && root.current && selection.anchorNode && root.current.contains(selection.anchorNode) && selection.focusNode && root.current.contains(selection.focusNode);
      setText(inside ? selection.toString().trim() : "");
    };
    document.addEventListener("selectionchange", read);
    return () => document.removeEventListener("selectionchange", read);
  }, [root]);
  return text;
}

export function SelectionComment({ root, output }: { root: RefObject<HTMLElement | null>; output: ReviewOutput }) {
  const session = useReviewSession();
  const selected = useSelectionIn(root);
  const [problem, setProblem] = useState<string | null>(null);
  if (!session.canComment) return null;
  const comment = () => {
    if (selected === "") {
      setProblem("Select some text of the output first.");
      return;
    }
    const part = partOfSelection(output.anchors, selected, typeof output.output === "string" ? output.output : null);
    if (!part) {
      setProblem("That text spans several parts: select text within one part.");
      return;
    }
    setProblem(null);
    session.startComment({ anchor: part.anchor, label: part.anchor === "" ? part.label : partName(part.label, part.anchor), quote: selected });
  };
  return (
    <span className="selection-comment">
      <button type="button" className="button button-secondary button-small" aria-disabled={selected === ""} onMouseDown={(event) => event.preventDefault()} onClick={comment}>
        Comment on selection
      </button>
      <span className="muted small" role={problem ? "alert" : undefined}>
        {problem ?? (selected ? `“${selected.length > 40 ? `${selected.slice(0, 39)}…` : selected}”` : "Select text to quote it.")}
      </span>
    </span>
  );
}
