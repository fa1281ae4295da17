/**
 * A workflow run's header (components/WorkflowRunHeader): "Cancel run" while it is active, "Resume" once it failed
 * or a rejected approval cancelled it ("Cancel run" for operators and whoever started the run, "Resume" for operators).
 */
import { WorkflowRunHeader as RunHeader } from "../../../components/WorkflowRunHeader";
import type { WorkflowRunSummary } from "../../../lib/trpc";
import { useCancelWorkflowRun, useResumeWorkflowRun } from "../api/runs";
import { workflowsDoor } from "../utils/door";
import { isResumable, isWorkflowRunActive } from "../utils/turns";
import "../workflows.css";

export function WorkflowRunHeader({ run, view }: { run: WorkflowRunSummary; view: "conversation" | "graph" }) {
  const consequence = "Running nodes stop (their processes are killed) and no further node starts; completed nodes keep their outputs.";
  const cancel = { offered: isWorkflowRunActive(run.status), consequence, mutation: useCancelWorkflowRun() };
  const resume = { offered: isResumable(run), hint: "Failed nodes run again; completed nodes keep their outputs.", mutation: useResumeWorkflowRun() };
  return <RunHeader door={workflowsDoor} run={run} view={view} runNoun="run" cancel={cancel} resume={resume} />;
}
