/** Recent YAML workflow runs, newest first: of one workflow (on its page) or of all (under the list), each named by its message. */
import { WorkflowRunsTable as RunsTable } from "../../../components/WorkflowRunsTable";
import { paths } from "../../../lib/router";
import { useWorkflowRuns } from "../api/runs";

const excerpt = (text: string) => (text.length > 90 ? `${text.slice(0, 90)}…` : text);

export function WorkflowRunsTable({ workflow }: { workflow?: string }) {
  return (
    <RunsTable
      runs={useWorkflowRuns(workflow)}
      workflow={workflow}
      label="Recent workflow runs"
      emptyHint="Open a workflow to start its first run."
      runColumn="Run"
      runText={(run) => (run.message.trim() ? excerpt(run.message) : "Run without a message")}
      runPath={(run) => paths.workflowRun(run.id)}
      workflowPath={paths.workflow}
    />
  );
}
