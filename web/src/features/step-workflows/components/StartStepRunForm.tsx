/**
 * "Start a run": one field per input the workflow declares, typed (a number must read as one, objects and lists
 * are JSON, booleans a checkbox or, when optional, a choice that can stay unset). The form refuses what it can
 * tell is wrong beside the field; the server checks the inputs again, and what it refuses is shown beside the
 * input it names. Started, the run's conversation opens.
 */
import { useId, useMemo, useState } from "react";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Field } from "../../../components/Field";
import { Notice } from "../../../components/Notice";
import { StartRunForm } from "../../../components/StartRunForm";
import { navigate, paths } from "../../../lib/router";
import type { StepWorkflowInput } from "../../../lib/trpc";
import { useStartStepRun } from "../api/step-workflows";
import { type InputField, inputFields, parseInputs } from "../utils/inputs";
import { type DefinitionProblem, inputProblems, problemsOf } from "../utils/problems";

export function StartStepRunForm({ name, version, inputs }: { name: string; version: number; inputs: readonly StepWorkflowInput[] }) {
  const fields = useMemo(() => inputFields(inputs), [inputs]);
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(fields.map((field) => [field.name, field.initial])));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [refused, setRefused] = useState<DefinitionProblem[]>([]);
  const start = useStartStepRun();

  const change = (field: string, value: string) => {
    setValues((previous) => ({ ...previous, [field]: value }));
    setErrors(({ [field]: _, ...rest }) => rest);
  };

  const startRun = () => {
    const parsed = parseInputs(fields, values);
    setRefused([]);
    if (!parsed.ok) {
      start.reset();
      setErrors(parsed.errors);
      return;
    }
    setErrors({});
    start.mutate(
      { name, inputs: parsed.inputs },
      {
        onSuccess: (run) => navigate(paths.steps.run(run.id)),
        onError: (error) => {
          const problems = problemsOf(error);
          if (!problems) return;
          const { byInput, other } = inputProblems(problems);
          setErrors(byInput);
          setRefused(other);
        },
      },
    );
  };

  const invalid = Object.keys(errors).length;
  return (
    <StartRunForm className="step-start" version={version} pending={start.isPending} onStart={startRun}>
      {fields.length === 0 ? <p className="muted small">This workflow takes no inputs.</p> : null}
      <div className="step-fields">
        {fields.map((field) => (
          <InputControl key={field.name} field={field} value={values[field.name] ?? field.initial} error={errors[field.name] ?? null} disabled={start.isPending} onChange={(value) => change(field.name, value)} />
        ))}
      </div>
      {invalid > 0 ? (
        <Notice tone="error" title="The run was not started" alert>
          {invalid === 1 ? "One input needs fixing" : `${invalid} inputs need fixing`}: see the message under {invalid === 1 ? "it" : "each"}.
        </Notice>
      ) : null}
      {refused.length > 0 ? (
        <Notice tone="error" title="The server refused the inputs" alert>
          {refused.map((problem) => `${problem.path}: ${problem.message}`).join("; ")}
        </Notice>
      ) : start.error && !start.isPending && invalid === 0 ? (
        <ErrorNotice title="The run was not started" error={start.error} />
      ) : null}
    </StartRunForm>
  );
}

function InputControl({ field, value, error, disabled, onChange }: { field: InputField; value: string; error: string | null; disabled: boolean; onChange(value: string): void }) {
  const hint = `${field.type}${field.optional ? ", optional" : ""} · ${field.hint}`;
  if (field.control === "checkbox" || field.control === "choice") {
    return <ChoiceControl field={field} value={value} hint={hint} error={error} disabled={disabled} onChange={onChange} />;
  }
  const common = { label: field.name, hint, error, announce: "alert" as const, value, disabled, className: `step-field step-field-${field.control}` };
  if (field.control === "json") {
    return <Field {...common} multiline rows={4} spellCheck={false} placeholder={field.type === "array" ? "[ ]" : "{ }"} onChange={(event) => onChange(event.target.value)} />;
  }
  return <Field {...common} inputMode={field.control === "number" ? "decimal" : undefined} autoComplete="off" onChange={(event) => onChange(event.target.value)} />;
}

/** A boolean: a checkbox when it is required (unchecked is false), a choice with "not set" when it is optional. */
function ChoiceControl({ field, value, hint, error, disabled, onChange }: { field: InputField; value: string; hint: string; error: string | null; disabled: boolean; onChange(value: string): void }) {
  const id = useId();
  const line = (
    <p id={`${id}-line`} className={error ? "hint hint-error" : "hint"}>
      {error ?? hint}
    </p>
  );
  if (field.control === "checkbox") {
    return (
      <div className="step-field step-field-checkbox">
        <label className="step-checkbox">
          <input type="checkbox" checked={value === "true"} disabled={disabled} aria-describedby={`${id}-line`} onChange={(event) => onChange(String(event.target.checked))} />
          <span className="field-title">{field.name}</span>
        </label>
        {line}
      </div>
    );
  }
  return (
    <div className="step-field step-field-choice">
      <label htmlFor={id} className="field-title">
        {field.name}
      </label>
      <select id={id} className="input" value={value} disabled={disabled} aria-describedby={`${id}-line`} aria-invalid={error ? true : undefined} onChange={(event) => onChange(event.target.value)}>
        <option value="">not set</option>
        <option value="true">true</option>
        <option value="false">false</option>
      </select>
      {line}
    </div>
  );
}
