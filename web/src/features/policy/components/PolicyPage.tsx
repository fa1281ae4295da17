/**
 * Operators' policies: whether the person who started a run may decide its decisions (self-approval), wherever its
 * definition sets no `self_approval`. Two choices, each saying what it does; the change applies to decisions already
 * waiting too (those whose definition is silent), and it is recorded in the audit trail.
 */
import { useId, useState } from "react";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Spinner } from "../../../components/Spinner";
import { Link, paths } from "../../../lib/router";
import { formatDateTime } from "../../../lib/time";
import { useChangePolicy, usePolicy } from "../api/policy";
import "../policy.css";

const CHOICES = [
  { value: true, label: "Allow self-approval", hint: "Whoever started a run may decide its decisions too. A team of one can take a run to its end." },
  { value: false, label: "Separate duties", hint: "Someone other than whoever started a run decides it: an analyst's brief is reviewed by a colleague." },
] as const;

export function PolicyPage() {
  const policy = usePolicy();
  return (
    <div className="page-pad policy-page">
      <header className="run-header">
        <h1 className="run-title">Policies</h1>
        <p className="muted small">What holds for every workflow, flow and pipeline whose definition does not say otherwise.</p>
      </header>
      {policy.isPending ? (
        <p className="muted">
          <Spinner label="Loading the policies" /> Loading the policies…
        </p>
      ) : policy.isError && !policy.data ? (
        <ErrorNotice title="The policies could not be loaded" error={policy.error} />
      ) : (
        <SelfApprovalForm current={policy.data.self_approval} updatedAt={policy.data.updated_at} updatedBy={policy.data.updated_by} />
      )}
    </div>
  );
}

function SelfApprovalForm({ current, updatedAt, updatedBy }: { current: boolean; updatedAt: string | null; updatedBy: string | null }) {
  const [chosen, setChosen] = useState(current);
  const change = useChangePolicy();
  const name = useId();
  const unchanged = chosen === current;
  return (
    <form
      className="composer policy-form"
      aria-labelledby="self-approval-title"
      onSubmit={(event) => {
        event.preventDefault();
        if (!unchanged) change.mutate({ self_approval: chosen });
      }}
    >
      <h2 id="self-approval-title" className="section-title">
        Separation of duties
      </h2>
      <p className="muted small">
        Whether the person who started a run may approve, review or answer its decisions. A definition's own <code>self_approval</code> wins over this.
        Decisions already waiting follow the change; a decision nobody could take then is marked in Reviews with its fix.
      </p>
      <fieldset className="policy-choices">
        <legend className="visually-hidden">Self-approval</legend>
        {CHOICES.map((choice) => (
          <label key={String(choice.value)} className="policy-choice">
            <input type="radio" name={name} checked={chosen === choice.value} onChange={() => setChosen(choice.value)} />
            <span>
              {choice.label}
              {choice.value === current ? <span className="tag">current</span> : null}
              <span className="hint">{choice.hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div className="policy-actions">
        <button type="submit" className="button button-primary" disabled={unchanged || change.isPending} aria-busy={change.isPending}>
          {change.isPending ? <Spinner /> : null}
          {chosen ? "Allow self-approval" : "Separate duties"}
        </button>
        <p className="hint" role="status">
          {unchanged
            ? updatedAt
              ? `Set by ${updatedBy ?? "an operator"} on ${formatDateTime(updatedAt)}.`
              : "As installed: self-approval is allowed."
            : "Not saved yet."}
        </p>
      </div>
      {change.error ? <ErrorNotice title="The policy was not changed" error={change.error} /> : null}
      <p className="muted small">
        Every change is recorded in the <Link to={paths.audit()}>audit trail</Link>.
      </p>
    </form>
  );
}
