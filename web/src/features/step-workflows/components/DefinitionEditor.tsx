/**
 * A step workflow definition pasted or written as JSON: "Check" asks the server (storing nothing), "Register" stores
 * it as the next version of its `id`. Text that is not a JSON object is refused here, saying where the JSON breaks;
 * the server's refusal lists every problem at its JSON path (`steps[1].params.text`).
 */
import { type FormEvent, useId, useState } from "react";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Spinner } from "../../../components/Spinner";
import { SubmitButton } from "../../../components/SubmitButton";
import type { StepWorkflowSummary } from "../../../lib/trpc";
import { useRegisterStepWorkflow, useValidateStepWorkflow } from "../api/step-workflows";
import { type DefinitionProblem, parseDefinition, problemsOf } from "../utils/problems";

type Verdict = { text: string } & ({ kind: "valid" } | { kind: "local"; problem: string } | { kind: "problems"; problems: DefinitionProblem[] } | { kind: "error"; error: unknown });

export function DefinitionEditor({ initialText, saveLabel, onSaved, onDiscard }: { initialText: string; saveLabel: string; onSaved(workflow: StepWorkflowSummary): void; onDiscard?(): void }) {
  const [text, setText] = useState(initialText);
  const [verdict, setVerdict] = useState<Verdict | null>(null);
  const validate = useValidateStepWorkflow();
  const register = useRegisterStepWorkflow();
  const labelId = useId();
  const summaryId = useId();
  const pending = validate.isPending || register.isPending;

  /** The definition to send, or null when the text is not one (the verdict says why). */
  const definitionOf = (): Record<string, unknown> | null => {
    const parsed = parseDefinition(text);
    if (parsed.ok) return parsed.definition;
    setVerdict({ text, kind: "local", problem: parsed.problem });
    return null;
  };
  const refused = (error: unknown) => {
    const problems = problemsOf(error);
    setVerdict(problems ? { text, kind: "problems", problems } : { text, kind: "error", error });
  };

  const check = () => {
    const definition = definitionOf();
    if (!definition || pending) return;
    validate.mutate({ definition }, { onSuccess: () => setVerdict({ text, kind: "valid" }), onError: refused });
  };
  const save = (event: FormEvent) => {
    event.preventDefault();
    const definition = definitionOf();
    if (!definition || pending) return;
    register.mutate({ definition }, { onSuccess: onSaved, onError: refused });
  };

  // A verdict speaks of the text it was given; once the text changes it is stale, and said so.
  const stale = verdict !== null && verdict.text !== text;
  return (
    <form className="step-editor" onSubmit={save} aria-busy={pending} noValidate>
      <label id={labelId} htmlFor={`${labelId}-text`} className="field-title">
        Definition (JSON)
      </label>
      <textarea
        id={`${labelId}-text`}
        className="textarea step-editor-text"
        value={text}
        rows={22}
        spellCheck={false}
        autoCapitalize="off"
        autoComplete="off"
        aria-describedby={summaryId}
        aria-invalid={!stale && verdict !== null && verdict.kind !== "valid" ? true : undefined}
        disabled={register.isPending}
        onChange={(event) => setText(event.target.value)}
      />
      <div id={summaryId} role="status" className="step-check">
        {pending ? (
          <span>
            <Spinner /> {register.isPending ? "Registering…" : "Checking…"}
          </span>
        ) : verdict === null ? (
          <span className="muted">Check the definition, or register it: the server checks it either way.</span>
        ) : stale ? (
          <span className="muted">Changed since the last check.</span>
        ) : verdict.kind === "valid" ? (
          <span className="step-check-valid">No problems: the definition can be registered.</span>
        ) : verdict.kind === "problems" ? (
          <span className="step-check-invalid">
            {verdict.problems.length} problem{verdict.problems.length === 1 ? "" : "s"}, each at its JSON path. Nothing was stored.
          </span>
        ) : verdict.kind === "local" ? (
          <span className="step-check-invalid">{verdict.problem}</span>
        ) : null}
      </div>
      {verdict?.kind === "problems" ? <ProblemList problems={verdict.problems} /> : null}
      {verdict?.kind === "error" && !pending ? <ErrorNotice title="The definition could not be checked" error={verdict.error} /> : null}
      <div className="composer-actions">
        {onDiscard ? (
          <button type="button" className="button button-secondary" disabled={register.isPending} onClick={onDiscard}>
            Discard
          </button>
        ) : null}
        <button type="button" className="button button-secondary" disabled={pending} onClick={check}>
          Check
        </button>
        <SubmitButton pending={register.isPending}>{saveLabel}</SubmitButton>
      </div>
    </form>
  );
}

function ProblemList({ problems }: { problems: readonly DefinitionProblem[] }) {
  const titleId = useId();
  return (
    <section className="step-problems" aria-labelledby={titleId}>
      <h3 id={titleId} className="step-problems-title">
        Problems ({problems.length})
      </h3>
      <ul>
        {problems.map((problem, i) => (
          <li key={`${problem.path}:${i}`}>
            <code className="step-problem-path">{problem.path || "(definition)"}</code> <span className="step-problem-text">{problem.message}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
