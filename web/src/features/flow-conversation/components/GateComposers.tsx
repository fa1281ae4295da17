/**
 * A person's turn at a flow's gate, inline under the turn that asks: a UX node's completion (their input becomes the
 * node's output) or a review gate's approval or request for changes (the shared review form). Whoever may take the
 * gate's decision gets the form, with who it waits for and until when above it; anyone else reads that line instead.
 * What a person types is kept until the server has accepted it, under the same key as in the run's graph.
 */
import { type FormEvent, type KeyboardEvent } from "react";
import { ComposerHead } from "../../../components/ComposerHead";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Field } from "../../../components/Field";
import { SendIcon } from "../../../components/icons";
import { type PendingDecision, ReviewForm } from "../../../components/ReviewForm";
import { SubmitButton } from "../../../components/SubmitButton";
import { WaitingForDecision } from "../../../components/WaitingFor";
import { useMayDecide } from "../../../lib/decisions";
import type { Decision } from "../../../lib/trpc";
import { flowDraftKey, useDraft } from "../../../lib/useDraft";
import { parseOutput } from "../../../lib/userInput";

interface GateProps {
  runId: string;
  nodeId: string;
  label: string;
  decision: Decision | undefined;
  error: unknown;
}

export interface CompletionComposerProps extends GateProps {
  pending: boolean;
  /** Resolves true once the server accepted the input, so the box can be cleared. */
  onComplete(output: unknown): Promise<boolean>;
}

export function CompletionComposer(props: CompletionComposerProps) {
  if (!useMayDecide(props.decision)) return <WaitingForDecision decision={props.decision} subject={props.label} what="a person's input" />;
  return <CompletionForm {...props} />;
}

function CompletionForm({ runId, nodeId, label, decision, pending, error, onComplete }: CompletionComposerProps) {
  const [text, setText, clearText] = useDraft(flowDraftKey(runId, nodeId, "output"));
  const send = async (event?: FormEvent) => {
    event?.preventDefault();
    if (pending) return;
    if (await onComplete(parseOutput(text))) clearText();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && (event.metaKey || event.ctrlKey)) void send();
  };
  return (
    <section className="composer review-composer" aria-label={`Complete ${label}`} aria-busy={pending}>
      <ComposerHead title={`Your input · ${label}`} consequence="Completing it lets the flow go on: your input becomes the node's output." decision={decision} />
      <form className="composer-body" onSubmit={send} noValidate>
        <Field
          label="Output"
          multiline
          rows={4}
          value={text}
          placeholder='{"approved": true} or plain text'
          hint="JSON is sent as JSON; anything else as text. Ctrl+Enter sends it."
          disabled={pending}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
        />
        {error && !pending ? <ErrorNotice title="Your input was not recorded" error={error} /> : null}
        <div className="composer-actions">
          <SubmitButton pending={pending} icon={<SendIcon />}>
            Complete
          </SubmitButton>
        </div>
      </form>
    </section>
  );
}

export interface ReviewGateComposerProps extends GateProps {
  /** The node whose output waits for the review. */
  reviewedLabel: string;
  pending: PendingDecision;
  /** Resolve true once the server accepted, so the feedback box can be cleared. */
  onApprove(): Promise<boolean>;
  onRequestChanges(feedback: string): Promise<boolean>;
}

export function ReviewGateComposer({ runId, nodeId, label, reviewedLabel, decision, pending, error, onApprove, onRequestChanges }: ReviewGateComposerProps) {
  return (
    <ReviewForm
      subject={label}
      title={`Your review · ${reviewedLabel}`}
      consequence={`Approving passes ${reviewedLabel}'s output on. Requesting changes sends your feedback to ${reviewedLabel}, which answers with a new output.`}
      placeholder={`What should ${reviewedLabel} change?`}
      hint="Feedback goes back with a request for changes. Ctrl+Enter sends it."
      pending={pending}
      error={error}
      decision={decision}
      draftKey={flowDraftKey(runId, nodeId, "feedback")}
      onApprove={() => onApprove()}
      onReject={onRequestChanges}
    />
  );
}
