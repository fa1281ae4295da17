/**
 * An inline confirmation for a click that cannot be undone (a rejection that cancels the run): an alertdialog that
 * takes focus on its safe choice, says what will happen, and confirms only on its named button. Escape or the
 * cancel button backs out and changes nothing; where focus goes then is the caller's (the button that opened it).
 */
import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef } from "react";
import { StopIcon } from "./icons";
import { Spinner } from "./Spinner";
import "./CancelRun.css";

export interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  /** The button that goes ahead, named for what it does. */
  confirmLabel: string;
  /** The button that backs out, named for what it keeps. */
  cancelLabel: string;
  pending: boolean;
  onConfirm(): void;
  onCancel(): void;
}

export function ConfirmDialog({ title, children, confirmLabel, cancelLabel, pending, onConfirm, onCancel }: ConfirmDialogProps) {
  const titleId = useId();
  const bodyId = useId();
  const keepRef = useRef<HTMLButtonElement>(null);
  useEffect(() => keepRef.current?.focus(), []);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== "Escape" || pending) return;
    event.preventDefault();
    event.stopPropagation();
    onCancel();
  };
  return (
    <div role="alertdialog" aria-labelledby={titleId} aria-describedby={bodyId} aria-busy={pending} className="cancel-panel" onKeyDown={onKeyDown}>
      <h3 id={titleId} className="cancel-panel-title">
        {title}
      </h3>
      <div id={bodyId} className="cancel-panel-sub">
        {children}
      </div>
      <div className="composer-actions">
        <button ref={keepRef} type="button" className="button button-secondary" disabled={pending} onClick={onCancel}>
          {cancelLabel}
        </button>
        <button type="button" className="button button-danger" disabled={pending} aria-busy={pending} onClick={onConfirm}>
          {pending ? <Spinner /> : <StopIcon />}
          {confirmLabel}
        </button>
      </div>
    </div>
  );
}
