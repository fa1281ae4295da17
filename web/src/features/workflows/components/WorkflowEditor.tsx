/**
 * Writing a workflow: the YAML editor, the server's check of the text as it is typed (problems and warnings at
 * their lines and listed under the editor), and saving it, which registers the text as the next version of the
 * workflow it names. A refused save shows its problems the same way.
 */
import { type FormEvent, useId, useMemo, useState } from "react";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { SubmitButton } from "../../../components/SubmitButton";
import type { RouterOutputs } from "../../../lib/trpc";
import { useLiveValidation } from "../api/validate-workflow";
import { useRegisterWorkflow } from "../api/workflows";
import { locatedIssuesOf } from "../utils/issues";
import { LazyYamlEditor } from "./LazyYamlEditor";
import { CheckSummary, ProblemList } from "./ProblemList";
import type { FocusRequest } from "./YamlEditor";

export interface WorkflowEditorProps {
  initialYaml: string;
  saveLabel: string;
  onSaved(workflow: RouterOutputs["workflows"]["register"]): void;
  /** Offered as "Discard changes" when given. */
  onDiscard?(): void;
}

export function WorkflowEditor({ initialYaml, saveLabel, onSaved, onDiscard }: WorkflowEditorProps) {
  const [yaml, setYaml] = useState(initialYaml);
  const [focus, setFocus] = useState<FocusRequest | null>(null);
  const check = useLiveValidation(yaml);
  const register = useRegisterWorkflow();
  const labelId = useId();
  const summaryId = useId();

  // A refused save speaks of the text on screen (editing forgets it), so its problems stand in for the live check's.
  const refusal = useMemo(() => (register.isPending ? null : locatedIssuesOf(register.error)), [register.isPending, register.error]);
  const problems = refusal?.problems ?? check.problems;
  const warnings = refusal?.warnings ?? check.warnings;

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (register.isPending) return;
    register.mutate({ yaml }, { onSuccess: onSaved });
  };

  return (
    <form className="workflow-editor" onSubmit={save} aria-busy={register.isPending} noValidate>
      <p id={labelId} className="field-title">
        Workflow YAML
      </p>
      <LazyYamlEditor
        value={yaml}
        onChange={(next) => {
          setYaml(next);
          if (register.error) register.reset();
        }}
        labelledBy={labelId}
        describedBy={summaryId}
        problems={problems}
        warnings={warnings}
        focusRequest={focus}
      />
      <p className="hint">Checked as you type. Tab indents; press Escape, then Tab, to leave the editor.</p>
      <CheckSummary id={summaryId} status={refusal ? "invalid" : check.status} problems={problems.length} warnings={warnings.length} error={check.error} />
      <ProblemList problems={problems} warnings={warnings} onSelect={(issue) => setFocus({ line: issue.line, column: issue.column, seq: Date.now() })} />
      {register.error && !register.isPending ? <ErrorNotice title="The workflow was not saved" error={register.error} /> : null}
      <div className="composer-actions">
        {onDiscard ? (
          <button type="button" className="button button-secondary" disabled={register.isPending} onClick={onDiscard}>
            Discard changes
          </button>
        ) : null}
        <SubmitButton pending={register.isPending} disabled={yaml.trim() === ""}>
          {saveLabel}
        </SubmitButton>
      </div>
    </form>
  );
}
