/** A node's output (or an approval's message): wrapped text, JSON pretty-printed, code and program output in monospace. */
import { useMemo } from "react";
import { cutLongText as cut } from "../../../components/Chat";
import { outputBlocks } from "../utils/output";

export function TurnOutput({ text, nodeKind, label }: { text: string; nodeKind: string | null; label: string }) {
  const blocks = useMemo(() => outputBlocks(text, nodeKind), [text, nodeKind]);
  if (blocks.length === 0) return <p className="muted small">Empty output.</p>;
  return (
    <div className="turn-output">
      {blocks.map((block, i) =>
        block.kind === "text" ? (
          <p key={i} className="turn-text">
            {cut(block.text)}
          </p>
        ) : (
          <pre key={i} className={`code-block turn-code turn-${block.kind}`} tabIndex={0} aria-label={block.kind === "json" ? `${label} as JSON` : `${label}, code`} data-language={block.kind === "code" ? (block.language ?? undefined) : "json"}>
            <code>{cut(block.text)}</code>
          </pre>
        ),
      )}
    </div>
  );
}
