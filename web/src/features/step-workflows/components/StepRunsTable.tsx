/** Recent step workflow runs, newest first: of one workflow (on its page) or of all (under the list), each with its inputs in short. */
import { WorkflowRunsTable } from "../../../components/WorkflowRunsTable";
import { paths } from "../../../lib/router";
import { useStepRuns } from "../api/runs";
import { inputsInShort } from "../utils/result";

export function StepRunsTable({ workflow }: { workflow?: string }) {
  return (
    <WorkflowRunsTable
      runs={useStepRuns(workflow)}
      workflow={workflow}
      label="Recent step workflow runs"
      emptyHint="Open a step workflow to start its first run."
      runColumn="Inputs"
      runText={(run) => inputsInShort(run.inputs)}
      runPath={(run) => paths.stepRun(run.id)}
      workflowPath={paths.stepWorkflow}
    />
  );
}
