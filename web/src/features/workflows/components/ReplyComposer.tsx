/**
 * A person's reply to an interactive loop waiting between iterations: the loop's next iteration reads it as
 * $LOOP_USER_INPUT. Whoever may take the question's decision replies (the reply is kept until it is sent); anyone
 * else reads who the loop waits for.
 */
import { type FormEvent, useState } from "react";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Field } from "../../../components/Field";
import { SendIcon } from "../../../components/icons";
import { SubmitButton } from "../../../components/SubmitButton";
import { WaitingForDecision, WaitingForWithHistory } from "../../../components/WaitingFor";
import { useMayDecide } from "../../../lib/decisions";
import type { Decision } from "../../../lib/trpc";
import { useDraft } from "../../../lib/useDraft";

export interface ReplyComposerProps {
  nodeId: string;
  pending: boolean;
  error: unknown;
  /** The question's decision, once read. */
  decision?: Decision;
  /** Where the reply is kept until it is sent (see useDraft). */
  draftKey: string | null;
  /** Resolves true once the server accepted the reply, so the box can be cleared. */
  onReply(text: string): Promise<boolean>;
}

export function ReplyComposer(props: ReplyComposerProps) {
  if (!useMayDecide(props.decision)) return <WaitingForDecision decision={props.decision} subject={props.nodeId} what="a reply" />;
  return <ReplyForm {...props} />;
}

function ReplyForm({ nodeId, pending, error, decision, draftKey, onReply }: ReplyComposerProps) {
  const [text, setText, clearText] = useDraft(draftKey);
  const [missing, setMissing] = useState(false);

  const send = async (event?: FormEvent) => {
    event?.preventDefault();
    if (pending) return;
    if (!text.trim()) return setMissing(true);
    if (await onReply(text.trim())) clearText();
  };

  return (
    <section className="composer review-composer" aria-label={`Reply to ${nodeId}`} aria-busy={pending}>
      {decision ? <WaitingForWithHistory decision={decision} /> : null}
      <form onSubmit={send} noValidate>
        <Field
          label="Reply"
          multiline
          rows={3}
          value={text}
          hint={`${nodeId} goes on with your reply. Ctrl+Enter sends it.`}
          error={missing ? "Write a reply before sending it." : null}
          announce="alert"
          disabled={pending}
          onChange={(event) => {
            setText(event.target.value);
            setMissing(false);
          }}
          onKeyDown={(event) => event.key === "Enter" && (event.metaKey || event.ctrlKey) && void send()}
        />
        {error && !pending ? <ErrorNotice title="Your reply was not sent" error={error} /> : null}
        <div className="composer-actions">
          <SubmitButton pending={pending} icon={<SendIcon />}>
            Send reply
          </SubmitButton>
        </div>
      </form>
    </section>
  );
}
