/**
 * The analyst's composer: a domain and a brief. It mirrors the server's rules (domain required,
 * brief at least 30 characters) so mistakes show before sending, and shows the server's own
 * message beside the field it names when the server still refuses.
 */
import { type FormEvent, useId, useState } from "react";
import { Spinner } from "../../../components/Spinner";
import { errorMessage, fieldErrorsOf } from "../../../lib/errors";

export const minimumBriefLength = 30;

export interface NewBriefFormProps {
  pending: boolean;
  error: unknown;
  onSubmit(brief: { domain: string; brief: string }): void;
  autoFocus?: boolean;
}

export function NewBriefForm({ pending, error, onSubmit, autoFocus = false }: NewBriefFormProps) {
  const [domain, setDomain] = useState("");
  const [brief, setBrief] = useState("");
  const [touched, setTouched] = useState(false);
  const domainId = useId();
  const briefId = useId();
  const briefHintId = useId();
  const domainErrorId = useId();

  const briefLength = brief.trim().length;
  const serverFieldErrors = fieldErrorsOf(error);
  const domainError = touched && domain.trim().length === 0 ? "Name the domain this brief belongs to." : serverFieldErrors.domain;
  const briefError =
    touched && briefLength < minimumBriefLength
      ? `Write at least ${minimumBriefLength} characters (${minimumBriefLength - briefLength} more).`
      : serverFieldErrors.brief;
  const generalError = error && !serverFieldErrors.domain && !serverFieldErrors.brief ? errorMessage(error) : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (pending || domain.trim().length === 0 || briefLength < minimumBriefLength) return;
    onSubmit({ domain: domain.trim(), brief: brief.trim() });
  };

  return (
    <form className="composer brief-composer" onSubmit={submit} noValidate aria-busy={pending}>
      <div className="form-row">
        <label htmlFor={domainId} className="field-title">
          Domain
        </label>
        <input
          id={domainId}
          className="input"
          value={domain}
          autoFocus={autoFocus}
          autoComplete="off"
          placeholder="e.g. super-app, logistics, retail banking"
          aria-invalid={domainError ? true : undefined}
          aria-describedby={domainError ? domainErrorId : undefined}
          disabled={pending}
          onChange={(event) => setDomain(event.target.value)}
        />
        {domainError ? (
          <p id={domainErrorId} className="hint hint-error">
            {domainError}
          </p>
        ) : null}
      </div>
      <div className="form-row">
        <label htmlFor={briefId} className="field-title">
          Brief
        </label>
        <textarea
          id={briefId}
          className="textarea"
          rows={7}
          value={brief}
          placeholder="What should be built, for whom, and why? Mention constraints, integrations and anything the agents must not assume."
          aria-invalid={briefError ? true : undefined}
          aria-describedby={briefHintId}
          disabled={pending}
          onChange={(event) => setBrief(event.target.value)}
        />
        <p id={briefHintId} className={briefError ? "hint hint-error" : "hint"}>
          {briefError ?? (
            <>
              {briefLength < minimumBriefLength ? `At least ${minimumBriefLength} characters` : "Ready to send"} · {briefLength} written
            </>
          )}
        </p>
      </div>
      {generalError ? (
        <div className="notice notice-error" role="alert">
          <div>
            <strong className="notice-title">The run was not started</strong>
            <p className="notice-body">{generalError}</p>
          </div>
        </div>
      ) : null}
      <div className="composer-actions">
        <button type="submit" className="button button-primary" disabled={pending} aria-busy={pending}>
          {pending ? <Spinner /> : <SendIcon />}
          Submit brief
        </button>
      </div>
    </form>
  );
}

function SendIcon() {
  return (
    <svg className="icon" viewBox="0 0 20 20" aria-hidden="true">
      <path d="M3.5 10h11M10.5 5l5 5-5 5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
