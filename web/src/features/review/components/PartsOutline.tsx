/**
 * The parts of an output no renderer lays out (a JSON or text output of a workflow or a flow): listed in reading
 * order, each with its comment button and its comments, so any part can be commented on from the keyboard.
 */
import { PartThreads, partName } from "../../../components/artifacts/parts";
import type { ReviewAnchor, ReviewOutput } from "../../../lib/trpc";
import { CommentButton } from "./CommentButton";

const clip = (text: string, length = 120) => (text.length > length ? `${text.slice(0, length - 1)}…` : text);

/** A text's paragraphs when it has several, else its lines; a JSON output's fields and items, not their lines. */
export function outlineParts(output: Pick<ReviewOutput, "format" | "anchors">): ReviewAnchor[] {
  if (output.format === "text") {
    const paragraphs = output.anchors.filter((a) => /^P\d+$/.test(a.anchor));
    return paragraphs.length > 1 ? paragraphs : output.anchors.filter((a) => /^L\d+$/.test(a.anchor));
  }
  return output.anchors.filter((a) => !/:[LP]\d+$/.test(a.anchor));
}

export function PartsOutline({ parts }: { parts: readonly ReviewAnchor[] }) {
  if (parts.length === 0) return null;
  return (
    <details className="parts-outline" open>
      <summary>Parts of this output ({parts.length})</summary>
      <ol>
        {parts.map((part) => (
          <li key={part.anchor} className="outline-part">
            <div className="outline-row">
              <span className="outline-label">{part.label}</span>
              <span className="outline-quote">{clip(part.quote)}</span>
              <CommentButton part={part} name={partName(part.label, part.anchor)} />
            </div>
            <PartThreads anchor={part.anchor} />
          </li>
        ))}
      </ol>
    </details>
  );
}
