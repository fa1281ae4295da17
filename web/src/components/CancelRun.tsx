/**
 * "Cancel run" and its inline confirmation: an optional reason, "Cancel this run" to confirm and
 * "Keep running" (or Escape) to back out. It holds no server state; the container passes what is
 * pending and what failed, so every state (closed, confirming, sending, refused) renders from props.
 * Operators may cancel any run, whoever started it (`startedById`) her own: for anyone else there is nothing to show.
 */
import { type FormEvent, type KeyboardEvent, useId, useRef, useState } from "react";
import { ErrorNotice } from "./ErrorNotice";
import { Field } from "./Field";
import { useOwnsRun } from "../lib/session";
import { StopIcon } from "./icons";
import { Spinner } from "./Spinner";
import "./CancelRun.css";

/** The server's limit on a cancellation's reason. */
export const cancelReasonMaxLength = 2000;

export interface CancelRunProps {
  /** What cancelling stops, in a sentence for the person deciding. */
  consequence: string;
  pending: boolean;
  error: unknown;
  /** Sends the cancellation (the reason trimmed, undefined when empty); rejects when the server refused it, whose error arrives as `error`. */
  onConfirm(reason: string | undefined): Promise<unknown>;
  /** Forgets a refused attempt when the person backs out. */
  onDismiss?(): void;
  /** Called once the run is cancelled: this control is usually gone by then, so focus is the caller's to place. */
  onCancelled?(): void;
  /** The account that started the run, which may cancel it as an operator may (unknown: operators only). */
  startedById?: string | null;
}

export function CancelRun(props: CancelRunProps) {
  return useOwnsRun(props.startedById) ? <CancelRunControl {...props} /> : null;
}

/** The cancellation of a plain flow run, as its conversation and its canvas offer it: `cancel` is the flows' cancel mutation. */
export function CancelFlowRun({ runId, cancel, onCancelled }: {
  runId: string;
  cancel: { isPending: boolean; error: unknown; mutateAsync(input: { runId: string; reason?: string }): Promise<unknown>; reset(): void };
  onCancelled?: () => void;
}) {
  return (
    <CancelRun
      consequence="Every unfinished node stops and nothing more is sent to its workers; completed nodes keep their output."
      pending={cancel.isPending}
      error={cancel.error}
      onConfirm={(reason) => cancel.mutateAsync({ runId, reason })}
      onDismiss={cancel.reset}
      {...(onCancelled ? { onCancelled } : {})}
    />
  );
}

function CancelRunControl({ consequence, pending, error, onConfirm, onDismiss, onCancelled }: CancelRunProps) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [validation, setValidation] = useState<string | null>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const titleId = useId();

  const close = () => {
    if (pending) return;
    setOpen(false);
    setValidation(null);
    onDismiss?.();
    triggerRef.current?.focus();
  };

  const confirm = async (event?: FormEvent) => {
    event?.preventDefault();
    if (pending) return;
    const trimmed = reason.trim();
    if (trimmed.length > cancelReasonMaxLength) {
      setValidation(`Keep the reason within ${cancelReasonMaxLength} characters (${trimmed.length} written).`);
      return;
    }
    setValidation(null);
    try {
      await onConfirm(trimmed || undefined);
    } catch {
      // The refusal is on `error` and shown below; the reason stays for another try.
      return;
    }
    setOpen(false);
    setReason("");
    onCancelled?.();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      close();
    } else if (event.key === "Enter" && (event.metaKey || event.ctrlKey) && event.target instanceof HTMLTextAreaElement) {
      void confirm();
    }
  };

  return (
    <>
      <button
        ref={triggerRef}
        type="button"
        className="button button-secondary button-small cancel-trigger"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => (open ? close() : setOpen(true))}
      >
        <StopIcon />
        Cancel run
      </button>
      {open ? (
        <form id={panelId} className="cancel-panel" aria-labelledby={titleId} aria-busy={pending} onSubmit={confirm} onKeyDown={onKeyDown} noValidate>
          <h2 id={titleId} className="cancel-panel-title">
            Cancel this run?
          </h2>
          <p className="cancel-panel-sub">{consequence} This cannot be undone.</p>
          <Field
            label="Reason"
            multiline
            rows={2}
            value={reason}
            placeholder="Why is this run being stopped?"
            hint="Optional; recorded with the cancellation. Escape keeps the run going."
            error={validation}
            announce="alert"
            disabled={pending}
            autoFocus
            onChange={(event) => {
              setReason(event.target.value);
              if (validation) setValidation(null);
            }}
          />
          {error && !pending ? <ErrorNotice title="The run was not cancelled" error={error} /> : null}
          <div className="composer-actions">
            <button type="button" className="button button-secondary" disabled={pending} onClick={close}>
              Keep running
            </button>
            <button type="submit" className="button button-danger" disabled={pending} aria-busy={pending}>
              {pending ? <Spinner /> : <StopIcon />}
              Cancel this run
            </button>
          </div>
        </form>
      ) : null}
    </>
  );
}
