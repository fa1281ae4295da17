/** Recent YAML workflow runs, newest first: of one workflow (on its page) or of all (under the list), each named by its message. */
import { WorkflowRunsTable as RunsTable } from "../../../components/WorkflowRunsTable";
import { useWorkflowRuns } from "../api/runs";
import { workflowsDoor } from "../utils/door";

const excerpt = (text: string) => (text.length > 90 ? `${text.slice(0, 90)}…` : text);

export function WorkflowRunsTable({ workflow }: { workflow?: string }) {
  const runText = (run: { message: string }) => (run.message.trim() ? excerpt(run.message) : "Run without a message");
  return <RunsTable door={workflowsDoor} runs={useWorkflowRuns(workflow)} workflow={workflow} runColumn="Run" runText={runText} />;
}
