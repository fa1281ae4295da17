/**
 * The analyst's composer: a domain and a brief. It mirrors the server's rules (domain required,
 * brief at least 30 characters) so mistakes show before sending, and shows the server's own
 * message beside the field it names when the server still refuses. Beside the box, prompts say what a good brief
 * covers (each marked once the brief speaks to it); a thin brief is checked once before starting: what it lacks is
 * said, and she may add it or start anyway.
 */
import { type FormEvent, useId, useState } from "react";
import { useDraft } from "../../../lib/useDraft";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Field } from "../../../components/Field";
import { SendIcon } from "../../../components/icons";
import { SubmitButton } from "../../../components/SubmitButton";
import { fieldErrorsOf } from "../../../lib/errors";
import type { NewRunInput } from "../../../lib/trpc";
import { briefCoverage, briefTopics, thinBriefMessage } from "../utils/briefCoverage";
import "../runs.css";

export const minimumBriefLength = 30;

export interface NewBriefFormProps {
  pending: boolean;
  error: unknown;
  onSubmit(brief: NewRunInput): void;
  autoFocus?: boolean;
}

/** Where the brief being written is kept until a run is started with it (a reload or another page loses nothing). */
export const newBriefDraftKeys = { domain: "new-brief:domain", brief: "new-brief:brief" } as const;

export function NewBriefForm({ pending, error, onSubmit, autoFocus = false }: NewBriefFormProps) {
  const [domain, setDomain] = useDraft(newBriefDraftKeys.domain);
  const [brief, setBrief] = useDraft(newBriefDraftKeys.brief);
  const [touched, setTouched] = useState(false);
  // The brief the thin-brief check was shown for: starting again with the same text goes ahead.
  const [checked, setChecked] = useState<string | null>(null);
  const promptsId = useId();
  const coverage = briefCoverage(brief);

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
    if (coverage.thin && checked !== brief.trim()) return setChecked(brief.trim());
    onSubmit({ domain: domain.trim(), brief: brief.trim() });
  };
  const thinCheck = checked !== null && checked === brief.trim() && coverage.thin;

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
      <div className="brief-box">
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
        <aside className="brief-prompts" aria-labelledby={promptsId}>
          <h3 id={promptsId} className="brief-prompts-title">
            A brief the agents can work from says
          </h3>
          <ul>
            {briefTopics.map((topic) => {
              const said = coverage.covered.has(topic.id);
              return (
                <li key={topic.id} className={said ? "is-covered" : undefined}>
                  <span className="brief-prompt-mark" aria-hidden="true">
                    {said ? "✓" : "•"}
                  </span>
                  <span>
                    <strong>{topic.prompt}</strong>
                    <span className="visually-hidden">{said ? " (your brief says this)" : " (not yet in your brief)"}</span>
                    <span className="muted small"> e.g. {topic.example}</span>
                  </span>
                </li>
              );
            })}
          </ul>
        </aside>
      </div>
      {generalError ? <ErrorNotice title="The run was not started" error={error} /> : null}
      {thinCheck ? (
        <div className="notice notice-warning thin-brief" role="alert">
          <p>
            <strong>This brief may be too thin for six agents.</strong> {thinBriefMessage(brief)} Add what you can, or start anyway.
          </p>
        </div>
      ) : null}
      <div className="composer-actions">
        <SubmitButton pending={pending} icon={<SendIcon />}>
          {thinCheck ? "Start anyway" : "Submit brief"}
        </SubmitButton>
      </div>
    </form>
  );
}
