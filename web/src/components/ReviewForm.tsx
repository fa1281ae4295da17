/**
 * A person's review, inline under the output or request it decides on: approve it, or describe what must change
 * and send it back. It holds no server state; the container passes what is pending and what failed, so every state
 * (idle, sending, refused) renders from props. The feedback box's text goes with either decision: it is the
 * request for changes, and the container may send it with an approval as a comment.
 * Only reviewers and operators decide: anyone else reads that the output waits for a reviewer.
 */
import { type FormEvent, type KeyboardEvent, type ReactNode, useState } from "react";
import { useCan } from "../lib/session";
import { ErrorNotice } from "./ErrorNotice";
import { Field } from "./Field";
import { CheckIcon } from "./icons";
import { Spinner } from "./Spinner";
import "./Chat.css";

export type PendingDecision = "approve" | "reject" | null;

export interface ReviewFormProps {
  /** What is reviewed, naming the region: "Review <subject>". */
  subject: string;
  title: ReactNode;
  /** What the decisions lead to, in a sentence under the title. */
  consequence: string;
  placeholder: string;
  hint: string;
  pending: PendingDecision;
  error: unknown;
  /** The feedback box's text, trimmed (possibly empty). */
  onApprove(feedback: string): void;
  /** Resolves true when the server accepted the feedback, so the box can be cleared. */
  onReject(feedback: string): Promise<boolean>;
}

export function ReviewForm(props: ReviewFormProps) {
  if (!useCan("reviewer")) return <WaitingForReviewer subject={props.subject} what="a decision" />;
  return <ReviewFormControl {...props} />;
}

/** What someone who may not decide sees where the decision would be. */
export function WaitingForReviewer({ subject, what }: { subject: string; what: string }) {
  return (
    <section className="composer waiting-for-reviewer" aria-label={`Waiting for a reviewer on ${subject}`} role="status">
      <p className="muted">
        <strong>Waiting for a reviewer.</strong> {subject} waits for {what} from a reviewer or an operator; this page shows it as soon as there is one.
      </p>
    </section>
  );
}

function ReviewFormControl({ subject, title, consequence, placeholder, hint, pending, error, onApprove, onReject }: ReviewFormProps) {
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
    <section className="composer review-composer" aria-label={`Review ${subject}`} aria-busy={busy}>
      <div className="composer-head">
        <h2 className="composer-title">{title}</h2>
        <p className="composer-sub">{consequence}</p>
      </div>
      <form className="composer-body" onSubmit={sendBack} noValidate>
        <Field
          label="Feedback"
          multiline
          rows={3}
          value={feedback}
          placeholder={placeholder}
          hint={hint}
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
          <button type="button" className="button button-primary" disabled={busy} aria-busy={pending === "approve"} onClick={() => onApprove(feedback.trim())}>
            {pending === "approve" ? <Spinner /> : <CheckIcon />}
            Approve
          </button>
        </div>
      </form>
    </section>
  );
}
