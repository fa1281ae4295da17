/**
 * Export and import of a flow's graph as React Flow JSON (the API's shape). Export downloads the file or copies the
 * text; import takes pasted text or an uploaded file, checks that it is a graph, and puts it in the designer (as one
 * undoable change, to be saved as a new version) or starts a new flow with it.
 */
import { type FormEvent, useId, useState } from "react";
import { Field } from "../../../components/Field";
import type { FlowGraph } from "../../../lib/trpc";
import { flowJson, parseFlowJson } from "../model/flowJson";

export function exportFlow(name: string, graph: FlowGraph): void {
  const url = URL.createObjectURL(new Blob([flowJson(graph)], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = `${name.replace(/[^\w.-]+/g, "-") || "flow"}.flow.json`;
  link.click();
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function ImportPanel({ canImportHere, onImportHere, onImportAsNewFlow, onClose }: {
  /** Whether the graph may replace the drawing here (an operator editing a flow). */
  canImportHere: boolean;
  onImportHere(graph: FlowGraph): void;
  onImportAsNewFlow(graph: FlowGraph): void;
  onClose(): void;
}) {
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const fileId = useId();
  const parsed = text.trim() ? parseFlowJson(text) : null;
  const shownError = error ?? (parsed && !parsed.ok ? parsed.error : null);
  const go = (event: FormEvent, into: "here" | "new") => {
    event.preventDefault();
    if (!parsed) return setError("Paste a flow's JSON or choose a file first.");
    if (!parsed.ok) return setError(parsed.error);
    if (into === "here") onImportHere(parsed.graph);
    else onImportAsNewFlow(parsed.graph);
  };
  return (
    <form className="designer-dialog" aria-labelledby="import-title" onSubmit={(e) => go(e, canImportHere ? "here" : "new")}>
      <h2 id="import-title" className="inspector-subtitle">Import React Flow JSON</h2>
      <Field
        label="Flow JSON"
        multiline
        rows={8}
        className="field"
        value={text}
        spellCheck={false}
        onChange={(e) => {
          setText(e.target.value);
          setError(null);
        }}
        hint={'Paste {"nodes": [...], "edges": [...]}, as Export writes it, or choose a file below.'}
        error={shownError}
        announce="polite"
      />
      <div className="field">
        <label htmlFor={fileId} className="field-title">
          Or upload a file
        </label>
        <input
          id={fileId}
          type="file"
          accept=".json,application/json"
          onChange={async (e) => {
            const file = e.target.files?.[0];
            if (!file) return;
            setText(await file.text());
            setError(null);
          }}
        />
      </div>
      <div className="dialog-actions">
        {canImportHere ? (
          <button type="submit" className="button button-primary">
            Replace the drawing (undo brings it back)
          </button>
        ) : null}
        <button type="button" className={`button ${canImportHere ? "button-secondary" : "button-primary"}`} onClick={(e) => go(e, "new")}>
          Start a new flow with it
        </button>
        <button type="button" className="button button-secondary" onClick={onClose}>
          Close without importing
        </button>
      </div>
    </form>
  );
}
