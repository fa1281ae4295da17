/**
 * A person's review, inline under the output or request it decides on: approve it, or describe what must change
 * and send it back. It holds no server state; the container passes what is pending and what failed, so every state
 * (idle, sending, refused) renders from props. The feedback box's text goes with either decision: it is the
 * request for changes, and the container may send it with an approval as a comment; it is kept (useDraft) until the
 * server accepted it. Only whoever may take the decision decides (its assignee, or anyone with its role while it is
 * assigned to no one): anyone else reads who it waits for, and the decider reads the same line above the form.
 * Where rejecting cancels the run (`rejectCancels`), the button says so and asks for confirmation first.
 */
import { type FormEvent, type KeyboardEvent, type ReactNode, useId, useRef, useState } from "react";
import { ConfirmDialog } from "./ConfirmDialog";
import { useMayDecide } from "../lib/decisions";
import type { Decision } from "../lib/trpc";
import { useReviewDraft } from "./review/useReviewDraft";
import { ErrorNotice } from "./ErrorNotice";
import { Field } from "./Field";
import { CheckIcon } from "./icons";
import { Spinner } from "./Spinner";
import { WaitingForDecision } from "./WaitingFor";
import { ComposerHead } from "./ComposerHead";
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
  /** The decision this review takes, once read: who may take it, since and until when it waits. */
  decision?: Decision;
  /** Where the feedback is kept until it is sent (see useDraft); null keeps it in the page only. */
  draftKey: string | null;
  /** Rejecting cancels the run (no revision step is left): "Reject and cancel run", confirmed first. */
  rejectCancels?: boolean;
  /** The form's element id, so a "Skip to the decision" link can lead to it. */
  id?: string;
  /** The feedback box's text, trimmed (possibly empty); resolving true once accepted clears the box. */
  onApprove(feedback: string): void | Promise<boolean>;
  /** Resolves true when the server accepted the feedback, so the box can be cleared. */
  onReject(feedback: string): Promise<boolean>;
}

export function ReviewForm(props: ReviewFormProps) {
  if (!useMayDecide(props.decision)) return <WaitingForDecision decision={props.decision} subject={props.subject} what="a decision" />;
  return <ReviewFormControl {...props} />;
}

function ReviewFormControl({ subject, title, consequence, placeholder, hint, pending, error, decision, draftKey, rejectCancels = false, id, onApprove, onReject }: ReviewFormProps) {
  const { text: feedback, setText: setFeedback, clear: clearFeedback, openComments } = useReviewDraft(draftKey, decision?.id);
  const openCommentsId = useId();
  const [validation, setValidation] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const rejectRef = useRef<HTMLButtonElement>(null);
  const busy = pending !== null;
  const rejectLabel = rejectCancels ? "Reject and cancel run" : "Request changes";

  const sendBack = async (event?: FormEvent, confirmed = false) => {
    event?.preventDefault();
    if (busy) return;
    // A rejection that cancels the run needs its reason; a request for changes may leave it to the open comments.
    if (feedback.trim().length === 0 && (rejectCancels || openComments === 0)) {
      setValidation(rejectCancels ? "Say why before rejecting: it is recorded as the reason the run was cancelled." : "Describe what should change before requesting changes.");
      return;
    }
    setValidation(null);
    // A rejection that cancels the run is confirmed first; the text stays whatever is chosen.
    if (rejectCancels && !confirmed) {
      setConfirming(true);
      return;
    }
    const accepted = await onReject(feedback.trim());
    setConfirming(false);
    if (accepted) clearFeedback();
  };

  const keepRun = () => {
    setConfirming(false);
    rejectRef.current?.focus();
  };

  const approve = async () => {
    if (busy) return;
    if ((await onApprove(feedback.trim())) === true) clearFeedback();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && (event.metaKey || event.ctrlKey)) void sendBack();
  };

  return (
    <section id={id} className="composer review-composer" aria-label={`Review ${subject}`} aria-busy={busy}>
      <ComposerHead title={title} consequence={consequence} decision={decision} />
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
          {openComments > 0 ? <OpenCommentsNote id={openCommentsId} count={openComments} /> : null}
          <button
            ref={rejectRef}
            type="submit"
            className="button button-secondary"
            disabled={busy}
            aria-busy={pending === "reject"}
            aria-haspopup={rejectCancels ? "dialog" : undefined}
            aria-describedby={openComments > 0 ? openCommentsId : undefined}
          >
            {pending === "reject" ? <Spinner /> : null}
            {rejectLabel}
          </button>
          <button type="button" className="button button-primary" disabled={busy} aria-busy={pending === "approve"} onClick={() => void approve()}>
            {pending === "approve" ? <Spinner /> : <CheckIcon />}
            Approve
          </button>
        </div>
        {confirming ? (
          <ConfirmDialog
            title="Reject and cancel this run?"
            confirmLabel="Reject and cancel run"
            cancelLabel="Keep the run"
            pending={pending === "reject"}
            onConfirm={() => void sendBack(undefined, true)}
            onCancel={keepRun}
          >
            There is no revision step left: rejecting cancels the run for good, with your feedback recorded as the reason. Your text stays in the box if you keep the run.
          </ConfirmDialog>
        ) : null}
      </form>
    </section>
  );
}

/** What a request for changes sends besides the feedback. */
function OpenCommentsNote({ id, count }: { id: string; count: number }) {
  return (
    <span id={id} className="open-comments-note">
      {count === 1 ? "1 open comment will be sent" : `${count} open comments will be sent`}
    </span>
  );
}
