/** Small pieces the step workflow pages share: a step's status, a value shown as text. */
import type { RunStepStatus } from "../../../lib/trpc";
import { byName } from "../utils/definition";
import { formatValue } from "../utils/result";

/** A step's status as `run_steps` words it: COMPLETED, FAILED, SKIPPED, CANCELLED, RUNNING, PENDING. */
export function StepStatus({ status }: { status: RunStepStatus }) {
  return <span className={`step-status step-status-${status.toLowerCase()}`}>{status}</span>;
}

/** A value typed by the run or a tool: a string as text, anything else as pretty JSON; never markup. */
export function Value({ value, label }: { value: unknown; label: string }) {
  const shown = formatValue(value);
  return shown.json ? (
    <pre className="code-block step-json" tabIndex={0} aria-label={label}>
      <code>{shown.text}</code>
    </pre>
  ) : (
    <span className="step-value">{shown.text}</span>
  );
}

/** Name → value pairs (a run's inputs, its outputs), with why a value is missing where there is a reason. */
export function ValueList({ values, reasons = {}, label }: { values: Record<string, unknown>; reasons?: Record<string, string>; label: string }) {
  const entries = byName(values);
  if (entries.length === 0) return <p className="muted small">None.</p>;
  return (
    <dl className="step-values" aria-label={label}>
      {entries.map(([name, value]) => (
        <div key={name} className="step-value-row">
          <dt>
            <code>{name}</code>
          </dt>
          <dd>
            {reasons[name] !== undefined ? (
              <>
                <span className="muted">null</span> <span className="step-value-reason">{reasons[name]}</span>
              </>
            ) : (
              <Value value={value} label={`${label}: ${name}`} />
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
