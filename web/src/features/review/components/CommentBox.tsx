/**
 * Writing a comment on a part, or a reply to a thread: stored at once when sent. What is typed is kept in the tab
 * (useDraft, one key per decision and part or thread) until the server accepted it, so a refusal or a reload loses nothing.
 */
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from "react";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Field } from "../../../components/Field";
import { Spinner } from "../../../components/Spinner";
import { useDraft } from "../../../lib/useDraft";
import { useAddComment } from "../api/review";
import type { CommentTarget } from "./ReviewSession";

export interface CommentBoxProps {
  decisionId: string;
  target: CommentTarget;
  /** The thread answered; a new thread when omitted. */
  replyTo?: string;
  onDone(): void;
}

export function CommentBox({ decisionId, target, replyTo, onDone }: CommentBoxProps) {
  const key = replyTo ? `review:${decisionId}:reply:${replyTo}` : `review:${decisionId}:${target.anchor}${target.quote ? `:${target.quote.slice(0, 40)}` : ""}`;
  const [text, setText, clear] = useDraft(key);
  const [invalid, setInvalid] = useState<string | null>(null);
  const add = useAddComment();
  const what = replyTo ? "Reply" : `Comment on ${target.label}`;
  // Focused once placed beside its part (the margin aligns it in a layout effect, before this runs), and without the
  // browser's own scroll to it: the page stays on the part the comment is about, the box only brought into view.
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const box = form.current?.querySelector("textarea");
    box?.focus({ preventScroll: true });
    if (typeof form.current?.scrollIntoView === "function") form.current.scrollIntoView({ block: "nearest" });
  }, []);

  const send = async (event?: FormEvent) => {
    event?.preventDefault();
    if (add.isPending) return;
    if (text.trim() === "") {
      setInvalid("Write the comment first.");
      return;
    }
    try {
      await add.mutateAsync({ decisionId, body: { anchor: target.anchor, text: text.trim(), ...(target.quote ? { quote: target.quote } : {}), ...(replyTo ? { reply_to: replyTo } : {}) } });
      clear();
      onDone();
    } catch {
      // Shown below; the text stays.
    }
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && (event.metaKey || event.ctrlKey)) void send();
    if (event.key === "Escape") onDone();
  };

  return (
    <form ref={form} className="comment-box" onSubmit={send} noValidate aria-label={what}>
      {target.quote ? <blockquote className="comment-quote">{target.quote}</blockquote> : null}
      <Field
        label={what}
        multiline
        rows={2}
        value={text}
        error={invalid}
        announce="alert"
        hint="Ctrl+Enter sends it; Escape closes the box and keeps the text."
        onChange={(event) => {
          setText(event.target.value);
          if (invalid) setInvalid(null);
        }}
        onKeyDown={onKeyDown}
      />
      {add.error ? <ErrorNotice title="Your comment was not saved" error={add.error} /> : null}
      <div className="comment-actions">
        <button type="button" className="button button-ghost button-small" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="button button-primary button-small" disabled={add.isPending} aria-busy={add.isPending}>
          {add.isPending ? <Spinner /> : null}
          {replyTo ? "Send reply" : "Add comment"}
        </button>
      </div>
    </form>
  );
}
