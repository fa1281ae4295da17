/**
 * Editing the output under review before approving it (whoever may decide): a pipeline artifact field by field and
 * item by item, or as JSON; a JSON output as JSON (or field by field); a text output (a Stitch review gate's or a YAML
 * approval's) as text. What keeps it from being saved shows as it is typed (an emptied text, JSON that does not parse); the server
 * checks the rest like an agent's output and its refusal is shown as it says. "Save as vN" makes the edit the version
 * under review; Cancel asks before discarding edits.
 */
import { useRef, useState } from "react";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Field } from "../../../components/Field";
import { Spinner } from "../../../components/Spinner";
import type { ReviewOutput } from "../../../lib/trpc";
import { type EditProblem, useEditCheck, useEditOutput } from "../api/review";
import { fieldOrder } from "../../../components/artifacts/ArtifactView";
import { type Path, emptyTexts, fieldsInOrder, parseJson, setAt } from "../utils/editing";
import { ValueEditor } from "./ValueEditor";

export function OutputEditor({ output, onClose }: { output: ReviewOutput; onClose(): void }) {
  return output.format === "text" ? <TextEditor output={output} onClose={onClose} /> : <StructuredEditor output={output} onClose={onClose} />;
}

const nextVersionOf = (output: ReviewOutput) => Math.max(...output.versions.map((v) => v.version)) + 1;

/** A text output: one text box; an emptied text is not saved. */
function TextEditor({ output, onClose }: { output: ReviewOutput; onClose(): void }) {
  const original = typeof output.output === "string" ? output.output : "";
  const [text, setText] = useState(original);
  const [note, setNote] = useState("");
  const edit = useEditOutput();
  const checked = useEditCheck(output.decision_id, text, text.trim() !== "" && text !== original);
  const problem = text.trim() === "" ? "The text is empty: write the edited text." : problemsText(checked);
  const save = async () => {
    if (problem || edit.isPending) return;
    try {
      await edit.mutateAsync({ decisionId: output.decision_id, body: { output: text, ...(note.trim() ? { note: note.trim() } : {}) } });
      onClose();
    } catch {
      // The server's reason is shown below; the edits stay.
    }
  };
  return (
    <section className="output-editor" aria-label={`Edit version ${output.version}`}>
      <Field className="edit-field" label="Edited text" multiline rows={14} value={text} error={problem} announce="polite" onChange={(event) => setText(event.target.value)} />
      <Field className="edit-field" label="What you changed (optional)" value={note} onChange={(event) => setNote(event.target.value)} />
      <EditorActions output={output} problem={problem} dirty={text !== original} pending={edit.isPending} error={edit.error} onSave={() => void save()} onClose={onClose} />
    </section>
  );
}

/** The server's problems with the edit, one sentence naming each field ("core_capabilities.0.name: ..."), or null when none. */
function problemsText(problems: EditProblem[] | null): string | null {
  if (!problems?.length) return null;
  const shown = problems.slice(0, 3).map((p) => `${p.path || "The output"}: ${p.message}`);
  return `Not saved like this: ${shown.join("; ")}${problems.length > 3 ? `; and ${problems.length - 3} more` : ""}.`;
}

/** Save as the next version, or Cancel (which asks before discarding edits); the server's refusal shown as it says. */
function EditorActions({ output, problem, dirty, pending, error, onSave, onClose }: { output: ReviewOutput; problem: string | null; dirty: boolean; pending: boolean; error: unknown; onSave(): void; onClose(): void }) {
  const [confirming, setConfirming] = useState(false);
  const discard = useRef<HTMLButtonElement | null>(null);
  const nextVersion = nextVersionOf(output);
  const cancel = () => {
    if (!dirty) onClose();
    else {
      setConfirming(true);
      requestAnimationFrame(() => discard.current?.focus());
    }
  };
  return (
    <>
      {error ? <ErrorNotice title={`Version ${nextVersion} was not saved`} error={error} /> : null}
      {confirming ? (
        <div className="notice notice-warning editor-confirm" role="alertdialog" aria-label="Discard your edits?">
          <p>Discard your edits to version {output.version}? They are not saved anywhere.</p>
          <div className="comment-actions">
            <button type="button" className="button button-secondary button-small" onClick={() => setConfirming(false)}>
              Keep editing
            </button>
            <button ref={discard} type="button" className="button button-danger button-small" onClick={onClose}>
              Discard edits
            </button>
          </div>
        </div>
      ) : null}
      <div className="composer-actions">
        <button type="button" className="button button-secondary" onClick={cancel}>
          Cancel
        </button>
        <button type="button" className="button button-primary" disabled={problem !== null || !dirty || pending} aria-busy={pending} onClick={onSave}>
          {pending ? <Spinner /> : null}
          Save as v{nextVersion}
        </button>
      </div>
    </>
  );
}

/** A pipeline artifact or a JSON output: field by field, or as JSON (where a JSON output starts). */
function StructuredEditor({ output, onClose }: { output: ReviewOutput; onClose(): void }) {
  const [value, setValue] = useState<unknown>(output.output);
  const [mode, setMode] = useState<"form" | "json">(output.format === "json" ? "json" : "form");
  const [json, setJson] = useState(output.format === "json" ? JSON.stringify(output.output, null, 2) : "");
  const [note, setNote] = useState("");
  const edit = useEditOutput();

  const parsed = mode === "json" ? parseJson(json) : { value, error: null };
  const current = parsed.error === null ? parsed.value : undefined;
  // A pipeline artifact is checked like an agent's (no emptied text); a JSON output may hold any JSON value.
  const empty = current === undefined || output.format !== "artifact" ? [] : emptyTexts(current);
  const dirty = mode === "json" ? json !== JSON.stringify(output.output, null, 2) : JSON.stringify(value) !== JSON.stringify(output.output);
  // The artifact type's schema, checked by the server as she types (the rule saving applies).
  const checked = useEditCheck(output.decision_id, current, current !== undefined && dirty && empty.length === 0);
  const problem =
    parsed.error !== null
      ? `The JSON does not parse: ${parsed.error}`
      : empty.length > 0
        ? `${empty.length === 1 ? "A text is" : `${empty.length} texts are`} empty: ${empty.slice(0, 3).join(", ")}.`
        : problemsText(checked);

  const toJson = () => {
    setJson(JSON.stringify(value, null, 2));
    setMode("json");
  };
  const toForm = () => {
    if (parsed.error !== null) return;
    setValue(parsed.value);
    setMode("form");
  };
  const save = async () => {
    if (problem || current === undefined || edit.isPending) return;
    try {
      await edit.mutateAsync({ decisionId: output.decision_id, body: { output: current, ...(note.trim() ? { note: note.trim() } : {}) } });
      onClose();
    } catch {
      // The server's reason is shown below; the edits stay.
    }
  };

  return (
    <section className="output-editor" aria-label={`Edit version ${output.version}`}>
      <div className="editor-modes" role="group" aria-label="How to edit">
        <button type="button" className="button button-ghost button-small" aria-pressed={mode === "form"} onClick={toForm} disabled={mode === "json" && parsed.error !== null}>
          Edit field by field
        </button>
        <button type="button" className="button button-ghost button-small" aria-pressed={mode === "json"} onClick={() => (mode === "json" ? undefined : toJson())}>
          Edit as JSON
        </button>
      </div>
      {mode === "form" ? (
        <ValueEditor
          value={value}
          label="Output"
          path={[]}
          fields={fieldsInOrder(value, fieldOrder(output.artifact_type))}
          original={output.output}
          schema={output.fields}
          onChange={(path: Path, next) => setValue((before: unknown) => setAt(before, path, next))}
        />
      ) : (
        <Field
          className="edit-field edit-json"
          label="Output as JSON"
          multiline
          rows={18}
          spellCheck={false}
          value={json}
          error={parsed.error !== null ? `The JSON does not parse: ${parsed.error}` : null}
          announce="polite"
          onChange={(event) => setJson(event.target.value)}
        />
      )}
      <Field className="edit-field" label="What you changed (optional)" value={note} onChange={(event) => setNote(event.target.value)} />
      {problem && (mode === "form" || parsed.error === null) ? (
        <p className="hint hint-error" role="status">
          {problem}
        </p>
      ) : null}
      <EditorActions output={output} problem={problem} dirty={dirty} pending={edit.isPending} error={edit.error} onSave={() => void save()} onClose={onClose} />
    </section>
  );
}
