/**
 * One step workflow: its name and description, its steps in order (tool, what each runs after, retries, time
 * limit), its outputs, "Start a run" with a form made of its inputs, its JSON definition (read-only, or edited into
 * a new version), and its recent runs.
 */
import { useId, useState } from "react";
import { QueryPage } from "../../../components/QueryPage";
import { Table } from "../../../components/Table";
import { navigate, paths } from "../../../lib/router";
import { useCan } from "../../../lib/session";
import { formatDateTime } from "../../../lib/time";
import type { StepWorkflowDetail } from "../../../lib/trpc";
import { useStepWorkflow } from "../api/step-workflows";
import { definitionText } from "../utils/definition";
import { DefinitionEditor } from "./DefinitionEditor";
import { StartStepRunForm } from "./StartStepRunForm";
import { StepWorkflowsCrumb } from "./StepParts";
import { StepRunsTable } from "./StepRunsTable";
import "../step-workflows.css";

export function StepWorkflowPage({ name }: { name: string }) {
  return (
    <QueryPage query={useStepWorkflow(name)} what="step workflow">
      {(workflow) => <WorkflowBody workflow={workflow} />}
    </QueryPage>
  );
}

const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);

function StepsTable({ workflow }: { workflow: StepWorkflowDetail }) {
  return (
    <Table label="Steps" columns={["#", "Step", "Tool", "Runs after", "Retries", "Time limit"]}>
      {workflow.steps.map((step, i) => (
        <tr key={step.id}>
          <td className="nowrap muted">{i + 1}</td>
          <td>
            <code>{step.id}</code>
          </td>
          <td>
            <code>{step.tool}</code>
          </td>
          <td>{step.depends_on.length > 0 ? step.depends_on.join(", ") : <span className="muted">starts with the run</span>}</td>
          <td className="nowrap">{step.retries}</td>
          <td className="nowrap">{step.timeout_ms === null ? "—" : seconds(step.timeout_ms)}</td>
        </tr>
      ))}
    </Table>
  );
}

function WorkflowBody({ workflow }: { workflow: StepWorkflowDetail }) {
  const [editing, setEditing] = useState(false);
  const operator = useCan("operator");
  const jsonId = useId();
  const text = definitionText(workflow.definition);
  const versions = workflow.versions.length;
  return (
    <div className="page-pad step-page">
      <header className="run-header">
        <StepWorkflowsCrumb />
        <div className="run-title-row">
          <h1 className="run-title">{workflow.name}</h1>
          <span className="version-badge" title={`Version ${workflow.version}, the latest`}>
            v{workflow.version}
          </span>
        </div>
        {workflow.title ? <p className="step-workflow-title">{workflow.title}</p> : null}
        {workflow.description ? <p className="step-workflow-description">{workflow.description}</p> : null}
        <p className="run-sub muted small">
          Version {workflow.version} registered {formatDateTime(workflow.created_at)} · {versions} version{versions === 1 ? "" : "s"}
          {workflow.definition_version ? ` · definition version ${workflow.definition_version}` : ""}
          {workflow.outputs.length > 0 ? ` · outputs: ${[...workflow.outputs].sort().join(", ")}` : ""}
        </p>
      </header>

      <section className="step-section" aria-labelledby={`${jsonId}-steps`}>
        <h2 id={`${jsonId}-steps`} className="section-title">
          Steps
        </h2>
        <StepsTable workflow={workflow} />
      </section>

      <StartStepRunForm key={workflow.version} name={workflow.name} version={workflow.version} inputs={workflow.inputs} />

      <section className="step-section" aria-labelledby={`${jsonId}-definition`}>
        <div className="step-section-head">
          <h2 id={`${jsonId}-definition`} className="section-title">
            Definition
          </h2>
          {editing || !operator ? null : (
            <button type="button" className="button button-secondary button-small" onClick={() => setEditing(true)}>
              Register a new version
            </button>
          )}
        </div>
        {editing ? (
          <DefinitionEditor
            key={workflow.version}
            initialText={text}
            saveLabel="Register new version"
            onDiscard={() => setEditing(false)}
            onSaved={(saved) => {
              setEditing(false);
              if (saved.name !== workflow.name) navigate(paths.steps.workflow(saved.name));
            }}
          />
        ) : (
          <pre className="code-block step-definition" tabIndex={0} aria-label={`Definition JSON, version ${workflow.version} (read-only)`}>
            <code>{text}</code>
          </pre>
        )}
      </section>

      <section className="step-section" aria-labelledby={`${jsonId}-runs`}>
        <h2 id={`${jsonId}-runs`} className="section-title">
          Recent runs
        </h2>
        <StepRunsTable workflow={workflow.name} />
      </section>
    </div>
  );
}
