/**
 * The analyst's composer: a domain and a brief. It mirrors the server's rules (domain required,
 * brief at least 30 characters) so mistakes show before sending, and shows the server's own
 * message beside the field it names when the server still refuses.
 */
import { type FormEvent, useState } from "react";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Field } from "../../../components/Field";
import { SendIcon } from "../../../components/icons";
import { SubmitButton } from "../../../components/SubmitButton";
import { fieldErrorsOf } from "../../../lib/errors";
import type { NewRunInput } from "../../../lib/trpc";
import "../runs.css";

export const minimumBriefLength = 30;

export interface NewBriefFormProps {
  pending: boolean;
  error: unknown;
  onSubmit(brief: NewRunInput): void;
  autoFocus?: boolean;
}

export function NewBriefForm({ pending, error, onSubmit, autoFocus = false }: NewBriefFormProps) {
  const [domain, setDomain] = useState("");
  const [brief, setBrief] = useState("");
  const [touched, setTouched] = useState(false);

  const briefLength = brief.trim().length;
  const serverFieldErrors = fieldErrorsOf(error);
  const domainError = touched && domain.trim().length === 0 ? "Name the domain this brief belongs to." : serverFieldErrors.domain;
  const briefError =
    touched && briefLength < minimumBriefLength
      ? `Write at least ${minimumBriefLength} characters (${minimumBriefLength - briefLength} more).`
      : serverFieldErrors.brief;
  const generalError = error && !serverFieldErrors.domain && !serverFieldErrors.brief;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (pending || domain.trim().length === 0 || briefLength < minimumBriefLength) return;
    onSubmit({ domain: domain.trim(), brief: brief.trim() });
  };

  return (
    <form className="composer brief-composer" onSubmit={submit} noValidate aria-busy={pending}>
      <Field
        className="form-row"
        label="Domain"
        value={domain}
        autoFocus={autoFocus}
        autoComplete="off"
        placeholder="e.g. super-app, logistics, retail banking"
        error={domainError}
        disabled={pending}
        onChange={(event) => setDomain(event.target.value)}
      />
      <Field
        className="form-row"
        label="Brief"
        multiline
        rows={7}
        value={brief}
        placeholder="What should be built, for whom, and why? Mention constraints, integrations and anything the agents must not assume."
        hint={`${briefLength < minimumBriefLength ? `At least ${minimumBriefLength} characters` : "Ready to send"} · ${briefLength} written`}
        error={briefError}
        disabled={pending}
        onChange={(event) => setBrief(event.target.value)}
      />
      {generalError ? <ErrorNotice title="The run was not started" error={error} /> : null}
      <div className="composer-actions">
        <SubmitButton pending={pending} icon={<SendIcon />}>
          Submit brief
        </SubmitButton>
      </div>
    </form>
  );
}
