/** The workflows registered on the server (each one's latest version), "New workflow", and recent runs of them all. */
import { EmptyState } from "../../../components/EmptyState";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Spinner } from "../../../components/Spinner";
import { Table } from "../../../components/Table";
import { Link, paths } from "../../../lib/router";
import type { WorkflowSummary } from "../../../lib/trpc";
import { useWorkflowList } from "../api/workflows";
import { NewWorkflowLink, Tags } from "./WorkflowParts";
import { WorkflowRunsTable } from "./WorkflowRunsTable";
import "../workflows.css";

function WorkflowRows({ workflows }: { workflows: WorkflowSummary[] }) {
  return (
    <Table label="Workflows" className="workflow-table" columns={["Name", "Description", "Version", "Nodes", "Tags"]}>
      {workflows.map((workflow) => (
        <tr key={workflow.name}>
          <td>
            <Link to={paths.workflows.workflow(workflow.name)} className="table-link">
              {workflow.name}
            </Link>
          </td>
          <td className="workflow-description-cell">{workflow.description}</td>
          <td className="nowrap">v{workflow.version}</td>
          <td className="nowrap">{workflow.nodes.length}</td>
          <td>
            <Tags tags={workflow.tags} />
          </td>
        </tr>
      ))}
    </Table>
  );
}

export function WorkflowList() {
  const workflows = useWorkflowList();
  return (
    <div className="page-pad workflows-page">
      <header className="run-header">
        <div className="run-title-row">
          <h1 className="run-title">Workflows</h1>
          <NewWorkflowLink />
        </div>
        <p className="muted small">Workflows written in YAML: open one to read or edit its definition and start a run, whose nodes then talk in its conversation.</p>
      </header>
      {workflows.isPending ? (
        <p className="muted">
          <Spinner label="Loading workflows" /> Loading workflows…
        </p>
      ) : workflows.isError && !workflows.data ? (
        <ErrorNotice title="Workflows could not be loaded" error={workflows.error} />
      ) : workflows.data.length === 0 ? (
        <EmptyState title="No workflows yet">
          <p>
            <Link to={paths.workflows.create()}>Write the first one</Link>, or put <code>*.yaml</code> files in the server's workflows folder.
          </p>
        </EmptyState>
      ) : (
        <WorkflowRows workflows={workflows.data} />
      )}
      <section className="page-section" aria-labelledby="recent-runs-title">
        <h2 id="recent-runs-title" className="section-title">
          Recent runs
        </h2>
        <WorkflowRunsTable />
      </section>
    </div>
  );
}
