/**
 * "Run": the run's input as JSON, checked as it is typed, starting from the input of the flow's last run (offered, not
 * forced: "Use the last input"). What is typed is kept in the tab until the run starts.
 */
import { type FormEvent, useState } from "react";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Field } from "../../../components/Field";
import { useDraft } from "../../../lib/useDraft";

function parseInput(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  if (text.trim() === "") return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: `Not JSON yet: ${error instanceof Error ? error.message : String(error)}` };
  }
}

export function RunDialog({ flowId, versionLabel, lastInput, pending, error, onStart, onClose }: {
  flowId: string;
  versionLabel: string;
  lastInput: unknown;
  pending: boolean;
  error: unknown;
  onStart(input: unknown): Promise<unknown>;
  onClose(): void;
}) {
  const [text, setText, clear] = useDraft(`designer-run:${flowId}:input`);
  const [touched, setTouched] = useState(false);
  const parsed = parseInput(text);
  const last = lastInput === undefined || lastInput === null ? null : JSON.stringify(lastInput, null, 2);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!parsed.ok) return;
    await onStart(parsed.value).then(clear, () => undefined);
  };
  return (
    <form className="designer-dialog" aria-labelledby="run-dialog-title" onSubmit={submit}>
      <h2 id="run-dialog-title" className="inspector-subtitle">Run {versionLabel}</h2>
      <Field
        label="Input (JSON)"
        multiline
        rows={6}
        className="field"
        value={text}
        onChange={(e) => setText(e.target.value)}
        spellCheck={false}
        hint="What the flow's first nodes receive, such as {&quot;items&quot;: [1, 2, 3]}. Empty: no input."
        error={!parsed.ok && (touched || text.length > 0) ? parsed.error : null}
        announce="polite"
      />
      {last ? (
        <button type="button" className="button button-ghost button-small" onClick={() => setText(last)}>
          Use the last run's input
        </button>
      ) : null}
      {error ? <ErrorNotice title="The run did not start" error={error} /> : null}
      <div className="dialog-actions">
        <button type="submit" className="button button-primary" disabled={pending || !parsed.ok}>
          {pending ? "Starting…" : `Start a run of ${versionLabel}`}
        </button>
        <button type="button" className="button button-secondary" onClick={onClose}>
          Close without running
        </button>
      </div>
    </form>
  );
}
