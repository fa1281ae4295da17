/** The step workflows registered on the server (each one's latest version), "New step workflow", and recent runs of them all. */
import { Table } from "../../../components/Table";
import { WorkflowListPage } from "../../../components/WorkflowPages";
import { Link, paths } from "../../../lib/router";
import type { StepWorkflowSummary } from "../../../lib/trpc";
import { useStepWorkflowList } from "../api/step-workflows";
import { stepsDoor } from "../utils/door";
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

const intro =
  "Step workflows are written in JSON, each step a call of one tool: open one to read its definition and start a run from a form made of its inputs; each step then takes its turn in the run's conversation.";

export function StepWorkflowList() {
  const empty = (
    <p>
      <Link to={paths.steps.create()}>Paste the first definition</Link>, or send one to <code>POST /api/workflows</code>.
    </p>
  );
  return (
    <WorkflowListPage door={stepsDoor} intro={intro} workflows={useStepWorkflowList()} empty={empty} runs={<StepRunsTable />}>
      {(workflows) => <WorkflowRows workflows={workflows} />}
    </WorkflowListPage>
  );
}
