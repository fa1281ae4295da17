/** Recent step workflow runs, newest first: of one workflow (on its page) or of all (under the list), each with its inputs in short. */
import { WorkflowRunsTable } from "../../../components/WorkflowRunsTable";
import { useStepRuns } from "../api/runs";
import { stepsDoor } from "../utils/door";
import { inputsInShort } from "../utils/result";

export function StepRunsTable({ workflow }: { workflow?: string }) {
  return <WorkflowRunsTable door={stepsDoor} runs={useStepRuns(workflow)} workflow={workflow} runColumn="Inputs" runText={(run) => inputsInShort(run.inputs)} />;
}
