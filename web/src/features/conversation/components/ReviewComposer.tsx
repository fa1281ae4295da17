/**
 * The reviewer's turn, inline under the output it decides on: approve it, or describe what must
 * change and send it back. It holds no server state; the container passes what is pending and
 * what failed, so every state (idle, sending, refused) renders from props.
 */
import { type FormEvent, type KeyboardEvent, useState } from "react";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Field } from "../../../components/Field";
import { CheckIcon } from "../../../components/icons";
import { Spinner } from "../../../components/Spinner";

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
        <Field
          label="Feedback"
          multiline
          rows={3}
          value={feedback}
          placeholder={`What should the ${agentName} agent change?`}
          hint="Feedback goes back to the same agent, which answers with a new version. Ctrl+Enter sends it."
          error={validation}
          announce="alert"
          disabled={busy}
          onChange={(event) => {
            setFeedback(event.target.value);
            if (validation) setValidation(null);
          }}
          onKeyDown={onKeyDown}
        />
        {error && !busy ? <ErrorNotice title="Your decision was not recorded" error={error} /> : null}
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
