/**
 * One step workflow: its name and description, its steps in order (tool, what each runs after, retries, time
 * limit), its outputs, "Start a run" with a form made of its inputs, its JSON definition (read-only, or edited into
 * a new version), and its recent runs.
 */
import { QueryPage } from "../../../components/QueryPage";
import { Table } from "../../../components/Table";
import { DefinitionSection, PageSection, WorkflowHeader } from "../../../components/WorkflowPages";
import type { StepWorkflowDetail } from "../../../lib/trpc";
import { useStepWorkflow } from "../api/step-workflows";
import { definitionText } from "../utils/definition";
import { stepsDoor } from "../utils/door";
import { DefinitionEditor } from "./DefinitionEditor";
import { StartStepRunForm } from "./StartStepRunForm";
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
  const text = definitionText(workflow.definition);
  const about = (
    <>
      {workflow.title ? <p className="step-workflow-title">{workflow.title}</p> : null}
      {workflow.description ? <p className="step-workflow-description">{workflow.description}</p> : null}
    </>
  );
  const definitionVersion = workflow.definition_version ? ` · definition version ${workflow.definition_version}` : "";
  const outputs = workflow.outputs.length > 0 ? ` · outputs: ${[...workflow.outputs].sort().join(", ")}` : "";
  return (
    <div className="page-pad workflows-page">
      <WorkflowHeader door={stepsDoor} workflow={workflow} about={about} registered={definitionVersion + outputs} />

      <PageSection title="Steps">
        <StepsTable workflow={workflow} />
      </PageSection>

      <StartStepRunForm key={workflow.version} name={workflow.name} version={workflow.version} inputs={workflow.inputs} />

      <DefinitionSection
        door={stepsDoor}
        name={workflow.name}
        editLabel="Register a new version"
        editor={(done) => <DefinitionEditor key={workflow.version} initialText={text} saveLabel="Register new version" {...done} />}
      >
        <pre className="code-block step-definition" tabIndex={0} aria-label={`Definition JSON, version ${workflow.version} (read-only)`}>
          <code>{text}</code>
        </pre>
      </DefinitionSection>

      <PageSection title="Recent runs">
        <StepRunsTable workflow={workflow.name} />
      </PageSection>
    </div>
  );
}
