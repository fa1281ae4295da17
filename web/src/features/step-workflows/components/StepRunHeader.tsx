/**
 * A step run's header (components/WorkflowRunHeader): "Cancel run" while it runs, "Resume" once it failed or was
 * cancelled ("Cancel run" for operators and whoever started the run, "Resume" for operators).
 */
import { WorkflowRunHeader } from "../../../components/WorkflowRunHeader";
import type { StepRunSummary } from "../../../lib/trpc";
import { useCancelStepRun, useResumeStepRun } from "../api/runs";
import { stepsDoor } from "../utils/door";
import { isStepRunActive, isStepRunResumable } from "../utils/turns";
import "../step-workflows.css";

export function StepRunHeader({ run, view }: { run: StepRunSummary; view: "conversation" | "graph" }) {
  const consequence = "The running steps are stopped and no further step starts; completed steps keep their results.";
  const cancel = { offered: isStepRunActive(run.status), consequence, mutation: useCancelStepRun() };
  const hint = "Failed, cancelled and skipped steps run again; completed steps keep their results.";
  const resume = { offered: isStepRunResumable(run.status), hint, mutation: useResumeStepRun() };
  return <WorkflowRunHeader door={stepsDoor} run={run} view={view} runNoun="step workflow run" cancel={cancel} resume={resume} />;
}
