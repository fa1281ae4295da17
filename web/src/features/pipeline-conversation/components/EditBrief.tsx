/**
 * "Edit brief" on the latest brief, for the analyst who submitted it (and operators) while no output has been
 * approved: the text is kept until sent (a draft per run), and restarting asks first, since the first agent's work in
 * progress, or its output waiting for review, is discarded.
 */
import { type FormEvent, useId, useRef, useState } from "react";
import { ConfirmDialog } from "../../../components/ConfirmDialog";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Field } from "../../../components/Field";
import { useDraft } from "../../../lib/useDraft";
import { useEditBrief } from "../api/review-run";

/** The server's rule for a brief (as when submitting one). */
export const briefMinLength = 30;

export function EditBrief({ runId, brief, firstAgentName }: { runId: string; brief: string; firstAgentName: string }) {
  const [open, setOpen] = useState(false);
  const [draft, setDraft, clearDraft] = useDraft(`brief:${runId}`);
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const edit = useEditBrief();
  const triggerRef = useRef<HTMLButtonElement>(null);
  const formId = useId();
  const text = draft === "" && !open ? brief : draft;

  const start = () => {
    if (draft === "") setDraft(brief);
    setOpen(true);
  };
  const close = () => {
    setOpen(false);
    setConfirming(false);
    setProblem(null);
    edit.reset();
    triggerRef.current?.focus();
  };
  const review = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = draft.trim();
    if (trimmed.length < briefMinLength) return setProblem(`Write at least ${briefMinLength} characters (${trimmed.length} written).`);
    if (trimmed === brief.trim()) return setProblem("This is the brief the run already has: change something first.");
    setProblem(null);
    setConfirming(true);
  };
  const send = async () => {
    try {
      await edit.mutateAsync({ runId, brief: draft.trim() });
    } catch {
      setConfirming(false);
      return;
    }
    clearDraft();
    setOpen(false);
    setConfirming(false);
  };

  if (!open) {
    return (
      <button ref={triggerRef} type="button" className="button button-secondary button-small edit-brief-button" onClick={start}>
        Edit brief
      </button>
    );
  }
  return (
    <form id={formId} className="edit-brief" onSubmit={review} aria-label="Edit the brief">
      <Field
        multiline
        className="field"
        label="New brief"
        hint={`At least ${briefMinLength} characters. The ${firstAgentName} agent starts again from it; the earlier version stays in the conversation.`}
        error={problem}
        announce="alert"
        rows={6}
        value={text}
        onChange={(e) => setDraft(e.target.value)}
        disabled={edit.isPending}
      />
      {edit.error ? <ErrorNotice title="The brief was not changed" error={edit.error} /> : null}
      {confirming ? (
        <ConfirmDialog
          title="Restart with the new brief?"
          confirmLabel="Discard and restart"
          cancelLabel="Keep editing"
          pending={edit.isPending}
          onConfirm={() => void send()}
          onCancel={() => setConfirming(false)}
        >
          The {firstAgentName} agent's draft in progress (or its output waiting for review) is discarded, and it starts again from this brief.
        </ConfirmDialog>
      ) : (
        <div className="composer-actions">
          <button type="button" className="button button-secondary" onClick={close}>
            Close (keeps your text)
          </button>
          <button type="submit" className="button button-primary">
            Restart with this brief
          </button>
        </div>
      )}
    </form>
  );
}
