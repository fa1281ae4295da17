/**
 * "Your feedback was not sent": where a person's composer was, once the server refused their decision because someone
 * else decided first. It holds their text (Copy), says what the server answered and what changed, and offers to send
 * the same text again when the same output waits in a new version. Nothing is dropped unless they discard it. Focus
 * moves here when it appears, since the button they pressed has gone with the composer.
 */
import { useEffect, useId, useRef } from "react";
import type { RefusedDecision } from "../lib/refusedDecision";
import { useCopyText } from "../lib/useCopyText";
import { ErrorNotice } from "./ErrorNotice";
import { CheckIcon, SendIcon } from "./icons";
import { Spinner } from "./Spinner";
import "./RefusedDecisionCard.css";

export interface ResendControl {
  /** What the button does: "Send against v2". */
  label: string;
  /** What sending it again decides, in a sentence under the text. */
  consequence: string;
  pending: boolean;
  error: unknown;
  onSend(): void;
}

export interface RefusedDecisionCardProps {
  refused: RefusedDecision;
  /** What the decision was on: "Requirements v1", "review". */
  subject: string;
  /** What happened meanwhile: "Rita Ramos approved Requirements v1; the run moved on to Inception." */
  change: string | null;
  resend: ResendControl | null;
  onDiscard(): void;
}

const what = { approve: "approval", reject: "request for changes" } as const;

export function RefusedDecisionCard({ refused, subject, change, resend, onDiscard }: RefusedDecisionCardProps) {
  const titleId = useId();
  const textId = useId();
  const cardRef = useRef<HTMLElement>(null);
  const boxRef = useRef<HTMLTextAreaElement>(null);
  const [copied, copy] = useCopyText(boxRef);
  useEffect(() => cardRef.current?.focus(), []);
  const busy = resend?.pending ?? false;
  return (
    <section ref={cardRef} className="composer refused-decision" aria-labelledby={titleId} aria-busy={busy} tabIndex={-1}>
      <div className="composer-head">
        <h2 id={titleId} className="composer-title">
          Your {what[refused.action]} on {subject} was not sent
        </h2>
        <p className="composer-sub">
          {change ? <strong>{change} </strong> : null}
          The server answered: {refused.message}
        </p>
      </div>
      <div className="composer-body">
        {refused.text ? (
          <>
            <label className="field-title" htmlFor={textId}>
              Your text, kept
            </label>
            <textarea ref={boxRef} id={textId} className="textarea refused-text" readOnly rows={3} value={refused.text} />
          </>
        ) : (
          <p className="muted small">You wrote no comment with it.</p>
        )}
        {resend ? <p className="hint">{resend.consequence}</p> : null}
        {resend?.error && !busy ? <ErrorNotice title="It was not sent this time either" error={resend.error} /> : null}
        <div className="composer-actions">
          <button type="button" className="button button-ghost" disabled={busy} onClick={onDiscard}>
            Discard this text
          </button>
          {refused.text ? (
            <button type="button" className="button button-secondary" onClick={() => void copy(refused.text)}>
              {copied === "copied" ? <CheckIcon /> : null}
              {copied === "copied" ? "Copied" : "Copy"}
            </button>
          ) : null}
          {resend ? (
            <button type="button" className="button button-primary" disabled={busy} aria-busy={busy} onClick={resend.onSend}>
              {busy ? <Spinner /> : <SendIcon />}
              {resend.label}
            </button>
          ) : null}
        </div>
        <p className="hint" role="status">
          {copied === "failed" ? "This browser did not let the app copy it: the text is selected, copy it with Ctrl+C." : ""}
        </p>
      </div>
    </section>
  );
}
