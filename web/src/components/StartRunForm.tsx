/**
 * "Start a run of vN": the fields the feature asks for, what refused the start, and "Start run". Submitting while a
 * start is pending does nothing; the feature starts the run (and opens its conversation) in `onStart`.
 */
import { type FormEvent, type ReactNode, useId } from "react";
import { SendIcon } from "./icons";
import { SubmitButton } from "./SubmitButton";

export function StartRunForm({ className, version, pending, onStart, children }: { className: string; version: number; pending: boolean; onStart(): void; children: ReactNode }) {
  const titleId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!pending) onStart();
  };
  return (
    <form className={`composer ${className}`} onSubmit={submit} aria-labelledby={titleId} aria-busy={pending} noValidate>
      <h2 id={titleId} className="section-title">
        Start a run of v{version}
      </h2>
      {children}
      <div className="composer-actions">
        <SubmitButton pending={pending} icon={<SendIcon />}>
          Start run
        </SubmitButton>
      </div>
    </form>
  );
}
