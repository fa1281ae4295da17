/**
 * Two versions compared: the newer drawn with what changed marked (the older version's removed nodes drawn back in,
 * dashed), and the same changes as a list. Read-only: it is for looking.
 */
import { ReactFlowProvider } from "@xyflow/react";
import { WordDiff } from "../../../components/WordDiff";
import { useState } from "react";
import type { FlowGraph } from "../../../lib/trpc";
import { emptySelection } from "../model/selection";
import { type FlowDiff, diffLines, diffOnCanvas } from "../model/versionDiff";
import { DesignerCanvas } from "./DesignerCanvas";

export function DiffCanvas({ before, after, diff, title }: { before: FlowGraph; after: FlowGraph; diff: FlowDiff; title: string }) {
  const [selection, setSelection] = useState(emptySelection);
  const shown = diffOnCanvas(before, after, diff);
  const lines = diffLines(diff);
  return (
    <section className="designer-diff" aria-label={title}>
      <h3 className="inspector-subtitle">{title}</h3>
      <ReactFlowProvider>
        <DesignerCanvas
          graph={shown.graph}
          selection={selection}
          decorations={shown.decorations}
          edgeMarks={shown.edgeMarks}
          editable={false}
          onPreview={() => undefined}
          onCommit={() => undefined}
          onSelectionChange={setSelection}
          onDropKind={() => undefined}
        />
      </ReactFlowProvider>
      <ul className="diff-list" aria-label={`${title}: the changes`}>
        {lines.length ? (
          lines.map((line, i) => (
            <li key={i}>
              {line.text}
              {line.fields ? (
                <ul>
                  {line.fields.map((f) => (
                    <li key={f.field}>
                      <code>{f.field}</code>:{" "}
                      {f.pieces ? (
                        <WordDiff pieces={f.pieces} />
                      ) : (
                        <>
                          <del>{f.before}</del> → <ins>{f.after}</ins>
                        </>
                      )}
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))
        ) : (
          <li className="muted">No changes.</li>
        )}
      </ul>
    </section>
  );
}
