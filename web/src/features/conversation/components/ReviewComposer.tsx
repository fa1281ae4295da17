/**
 * The reviewer's turn, inline under the output it decides on: approve it, or describe what must
 * change and send it back. It holds no server state; the container passes what is pending and
 * what failed, so every state (idle, sending, refused) renders from props.
 */
import { type FormEvent, type KeyboardEvent, useId, useState } from "react";
import { Spinner } from "../../../components/Spinner";
import { errorMessage } from "../../../lib/errors";

export type PendingDecision = "approve" | "reject" | null;

export interface ReviewComposerProps {
  agentName: string;
  version: number | null;
  /** The next agent an approval starts, or null when this is the last one. */
  nextAgentName: string | null;
  pending: PendingDecision;
  error: unknown;
  onApprove(): void;
  /** Resolves true when the server accepted the feedback, so the box can be cleared. */
  onReject(feedback: string): Promise<boolean>;
}

export function ReviewComposer({ agentName, version, nextAgentName, pending, error, onApprove, onReject }: ReviewComposerProps) {
  const [feedback, setFeedback] = useState("");
  const [validation, setValidation] = useState<string | null>(null);
  const feedbackId = useId();
  const hintId = useId();
  const busy = pending !== null;

  const sendBack = async (event?: FormEvent) => {
    event?.preventDefault();
    if (busy) return;
    if (feedback.trim().length === 0) {
      setValidation("Describe what should change before requesting changes.");
      return;
    }
    setValidation(null);
    if (await onReject(feedback.trim())) setFeedback("");
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && (event.metaKey || event.ctrlKey)) void sendBack();
  };

  return (
    <section className="composer review-composer" aria-label={`Review ${agentName}`} aria-busy={busy}>
      <div className="composer-head">
        <h2 className="composer-title">
          Your review · {agentName}
          {version ? <span className="version-badge">v{version}</span> : null}
        </h2>
        <p className="composer-sub">
          {nextAgentName ? `Approving hands the output to the ${nextAgentName} agent.` : "This is the last agent; approving completes the run."}
        </p>
      </div>
      <form className="composer-body" onSubmit={sendBack} noValidate>
        <label htmlFor={feedbackId} className="field-title">
          Feedback
        </label>
        <textarea
          id={feedbackId}
          className="textarea"
          rows={3}
          value={feedback}
          placeholder={`What should the ${agentName} agent change?`}
          aria-describedby={hintId}
          aria-invalid={validation ? true : undefined}
          disabled={busy}
          onChange={(event) => {
            setFeedback(event.target.value);
            if (validation) setValidation(null);
          }}
          onKeyDown={onKeyDown}
        />
        <p id={hintId} className={validation ? "hint hint-error" : "hint"} role={validation ? "alert" : undefined}>
          {validation ?? "Feedback goes back to the same agent, which answers with a new version. Ctrl+Enter sends it."}
        </p>
        {error && !busy ? (
          <div className="notice notice-error" role="alert">
            <div>
              <strong className="notice-title">Your decision was not recorded</strong>
              <p className="notice-body">{errorMessage(error)}</p>
            </div>
          </div>
        ) : null}
        <div className="composer-actions">
          <button type="submit" className="button button-secondary" disabled={busy} aria-busy={pending === "reject"}>
            {pending === "reject" ? <Spinner /> : null}
            Request changes
          </button>
          <button type="button" className="button button-primary" disabled={busy} aria-busy={pending === "approve"} onClick={onApprove}>
            {pending === "approve" ? <Spinner /> : <CheckIcon />}
            Approve
          </button>
        </div>
      </form>
    </section>
  );
}

function CheckIcon() {
  return (
    <svg className="icon" viewBox="0 0 20 20" aria-hidden="true">
      <path d="M5 10.5l3.2 3.2L15 7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
