/** The workflows registered on the server (each one's latest version), "New workflow", and recent runs of them all. */
import { Table } from "../../../components/Table";
import { WorkflowListPage } from "../../../components/WorkflowPages";
import { Link, paths } from "../../../lib/router";
import type { WorkflowSummary } from "../../../lib/trpc";
import { useWorkflowList } from "../api/workflows";
import { workflowsDoor } from "../utils/door";
import { Tags } from "./Tags";
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

const intro = "Workflows written in YAML: open one to read or edit its definition and start a run, whose nodes then talk in its conversation.";

export function WorkflowList() {
  const empty = (
    <p>
      <Link to={paths.workflows.create()}>Write the first one</Link>, or put <code>*.yaml</code> files in the server's workflows folder.
    </p>
  );
  return (
    <WorkflowListPage door={workflowsDoor} intro={intro} workflows={useWorkflowList()} empty={empty} runs={<WorkflowRunsTable />}>
      {(workflows) => <WorkflowRows workflows={workflows} />}
    </WorkflowListPage>
  );
}
