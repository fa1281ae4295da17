/**
 * "Re-run from here" on a node of a flow run: opens what may be changed, prefilled with what the original had (the
 * node's input as JSON, kept as a draft while typed, so a re-render or a reload loses nothing), a first feedback for a
 * Worker, and the version to run (the one the run ran, or the flow's latest); then starts the fork, and the new run
 * opens. The server decides who may fork and says why not. Under a node's turn of a conversation, and in a run's graph.
 */
import { type FormEvent, type ReactNode, useId, useState } from "react";
import { navigate } from "../lib/router";
import { trpc } from "../lib/trpc";
import { useDraft } from "../lib/useDraft";
import { ErrorNotice } from "./ErrorNotice";
import { SubmitButton } from "./SubmitButton";
import "./RerunFromHere.css";

export interface ForkTarget {
  runId: string;
  nodeId: string;
  label: string;
  nodeType: string;
  /** What the node received in this run (a workflow's: the run's input): the form's starting point. */
  input: unknown;
  /** How the input's field is named, when it is not the node's own input (a workflow run's message). */
  inputLabel?: string;
  /**
   * The input as plain text rather than JSON (a pipeline run's brief): the field starts from `value`, and a changed
   * text is sent as `toInput(text)`.
   */
  text?: { value: string; toInput: (text: string) => unknown };
  /** What the latest version is called ("The flow's latest version"; a pipeline's: the pipeline in force now). */
  latestLabel?: string;
}

const asJson = (value: unknown) => JSON.stringify(value ?? null, null, 2);

/** The edited input as JSON, or why it is not JSON. */
function parsed(text: string): { value: unknown } | { problem: string } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return { problem: `The input is not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** Starts a fork; once the server accepted it, the new run opens. */
function useForkRun() {
  const utils = trpc.useUtils();
  return trpc.engine.runs.fork.useMutation({
    onSuccess: async (forked, sent) => {
      await Promise.all([
        utils.engine.runs.conversation.invalidate({ id: sent.runId }), utils.engine.runs.get.invalidate({ id: sent.runId }), utils.engine.runs.list.invalidate(),
        // A pipeline run's and a step run's own conversations name their forks too.
        utils.pipeline.conversation.invalidate(), utils.pipeline.listChanges.invalidate(), utils.steps.conversation.invalidate({ runId: sent.runId }),
      ]);
      navigate(forked.path);
    },
  });
}

export function RerunFromHere({ target }: { target: ForkTarget }) {
  const id = useId();
  const original = target.text ? target.text.value : asJson(target.input);
  const draftKey = `fork:${target.runId}:${target.nodeId}`;
  const [inputDraft, setInputDraft, clearInput] = useDraft(`${draftKey}:input`);
  const [feedback, setFeedback, clearFeedback] = useDraft(target.nodeType === "Worker" ? `${draftKey}:feedback` : null);
  const [version, setVersion] = useState<"original" | "latest">("original");
  const [problem, setProblem] = useState<string | null>(null);
  const fork = useForkRun();
  const input = inputDraft === "" ? original : inputDraft;
  const collector = target.nodeType === "Collector";

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    const text = target.text;
    const edited = collector ? undefined : text ? { value: text.toInput(input.trim()) } : parsed(input);
    if (edited && "problem" in edited) return setProblem(edited.problem);
    if (text && input.trim() === "") return setProblem(`${target.inputLabel ?? "The input"} must not be blank.`);
    const changed = edited && input.trim() !== original.trim() ? { input: edited.value } : {};
    fork.mutate(
      { runId: target.runId, node_id: target.nodeId, version, ...changed, ...(feedback.trim() ? { feedback: feedback.trim() } : {}) },
      { onSuccess: () => (clearInput(), clearFeedback()) },
    );
  };

  return (
    <details className="rerun-from-here">
      <summary className="button button-secondary button-small">Re-run from here</summary>
      <form className="rerun-form" onSubmit={submit} aria-label={`Re-run from ${target.label}`}>
        <p className="muted small">
          A new run: the nodes before {target.label} keep their outputs (copied, not run again); {target.label} and everything after it start afresh. This run is not changed.
        </p>
        {collector ? (
          <p className="small">{target.label} collects what its paths delivered: its input cannot be edited.</p>
        ) : (
          <label className="field" htmlFor={`${id}-input`}>
            <span className="field-label">{target.inputLabel ?? `Input of ${target.label} (JSON)`}</span>
            <textarea
              id={`${id}-input`} className={target.text ? "input" : "input code-input"} rows={Math.min(12, Math.max(3, input.split("\n").length + 1))} value={input}
              onChange={(e) => setInputDraft(e.target.value)} spellCheck={target.text !== undefined}
            />
          </label>
        )}
        {target.nodeType === "Worker" ? (
          <label className="field" htmlFor={`${id}-feedback`}>
            <span className="field-label">First feedback to {target.label} (optional)</span>
            <textarea id={`${id}-feedback`} className="input" rows={2} value={feedback} onChange={(e) => setFeedback(e.target.value)} />
          </label>
        ) : null}
        <fieldset className="rerun-version">
          <legend className="field-label">Version</legend>
          <label>
            <input type="radio" name={`${id}-version`} value="original" checked={version === "original"} onChange={() => setVersion("original")} /> The version this run ran
          </label>
          <label>
            <input type="radio" name={`${id}-version`} value="latest" checked={version === "latest"} onChange={() => setVersion("latest")} /> {target.latestLabel ?? "The flow's latest version"}
          </label>
        </fieldset>
        {problem ? <p className="error-text" role="alert">{problem}</p> : null}
        {fork.error ? <ErrorNotice title="The fork was not started" error={fork.error} /> : null}
        <div className="rerun-actions">
          <SubmitButton pending={fork.isPending}>Start the fork</SubmitButton>
          {inputDraft !== "" && inputDraft !== original ? (
            <button type="button" className="button button-secondary" onClick={clearInput}>
              Back to the original input
            </button>
          ) : null}
        </div>
      </form>
    </details>
  );
}

/** A conversation's turn with "Re-run from here" under it, where the run offers a fork at its node (`target`). */
export function WithRerunFromHere({ target, children }: { target: ForkTarget | null | undefined; children: ReactNode }) {
  if (!target) return children;
  return (
    <div className="flow-turn-with-fork">
      {children}
      <RerunFromHere target={target} />
    </div>
  );
}
