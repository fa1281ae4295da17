/**
 * A workflow run's header (components/WorkflowRunHeader): "Cancel run" while it is active, "Resume" once it failed
 * or a rejected approval cancelled it ("Cancel run" for operators and whoever started the run, "Resume" for operators),
 * and its parent and forks with links to compare them.
 */
import { RunLineage } from "../../../components/RunLineage";
import { WorkflowRunHeader as RunHeader } from "../../../components/WorkflowRunHeader";
import type { WorkflowRun, WorkflowRunSummary } from "../../../lib/trpc";
import { useCancelWorkflowRun, useResumeWorkflowRun } from "../api/runs";
import { workflowsDoor } from "../utils/door";
import { isResumable, isWorkflowRunActive } from "../utils/turns";
import "../workflows.css";

/** The run, with its parent and forks when the read that answered it carries them (its view and conversation do). */
type HeaderRun = WorkflowRunSummary & Partial<Pick<WorkflowRun, "forked_from" | "forks">>;

export function WorkflowRunHeader({ run, view }: { run: HeaderRun; view: "conversation" | "graph" }) {
  const consequence = "Running nodes stop (their processes are killed) and no further node starts; completed nodes keep their outputs.";
  const cancel = { offered: isWorkflowRunActive(run.status), consequence, mutation: useCancelWorkflowRun() };
  const resume = { offered: isResumable(run), hint: "Failed nodes run again; completed nodes keep their outputs.", mutation: useResumeWorkflowRun() };
  const lineage = run.forks ? <RunLineage run={{ id: run.id, forked_from: run.forked_from ?? null, forks: run.forks }} runPath={workflowsDoor.paths.run} /> : null;
  return <RunHeader door={workflowsDoor} run={run} view={view} runNoun="run" cancel={cancel} resume={resume} lineage={lineage} />;
}
