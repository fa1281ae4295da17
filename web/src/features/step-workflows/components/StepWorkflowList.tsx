/** The step workflows registered on the server (each one's latest version), "New step workflow", and recent runs of them all. */
import { EmptyState } from "../../../components/EmptyState";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Spinner } from "../../../components/Spinner";
import { Table } from "../../../components/Table";
import { Link, paths } from "../../../lib/router";
import type { StepWorkflowSummary } from "../../../lib/trpc";
import { useStepWorkflowList } from "../api/step-workflows";
import { NewStepWorkflowLink } from "./StepParts";
import { StepRunsTable } from "./StepRunsTable";
import "../step-workflows.css";

function WorkflowRows({ workflows }: { workflows: StepWorkflowSummary[] }) {
  return (
    <Table label="Step workflows" columns={["Id", "Name", "Version", "Steps", "Inputs"]}>
      {workflows.map((workflow) => (
        <tr key={workflow.name}>
          <td>
            <Link to={paths.steps.workflow(workflow.name)} className="table-link">
              {workflow.name}
            </Link>
          </td>
          <td className="step-title-cell">
            {workflow.title ?? <span className="muted">—</span>}
            {workflow.description ? <span className="muted small step-description-line">{workflow.description}</span> : null}
          </td>
          <td className="nowrap">v{workflow.version}</td>
          <td className="nowrap">{workflow.steps.length}</td>
          <td>{workflow.inputs.length > 0 ? workflow.inputs.map((input) => input.name).join(", ") : <span className="muted">none</span>}</td>
        </tr>
      ))}
    </Table>
  );
}

export function StepWorkflowList() {
  const workflows = useStepWorkflowList();
  return (
    <div className="page-pad step-page">
      <header className="run-header">
        <div className="run-title-row">
          <h1 className="run-title">Step workflows</h1>
          <NewStepWorkflowLink />
        </div>
        <p className="muted small">
          Playbooks written in JSON, each step a call of one tool: open one to read its definition and start a run from a form made of its inputs;
          each step then takes its turn in the run's conversation.
        </p>
      </header>
      {workflows.isPending ? (
        <p className="muted">
          <Spinner label="Loading step workflows" /> Loading step workflows…
        </p>
      ) : workflows.isError && !workflows.data ? (
        <ErrorNotice title="Step workflows could not be loaded" error={workflows.error} />
      ) : workflows.data.length === 0 ? (
        <EmptyState title="No step workflows yet">
          <p>
            <Link to={paths.steps.create()}>Paste the first definition</Link>, or send one to <code>POST /api/workflows</code>.
          </p>
        </EmptyState>
      ) : (
        <WorkflowRows workflows={workflows.data} />
      )}
      <section className="step-section" aria-labelledby="step-recent-runs">
        <h2 id="step-recent-runs" className="section-title">
          Recent runs
        </h2>
        <StepRunsTable />
      </section>
    </div>
  );
}
