/**
 * A step run's header (components/WorkflowRunHeader): "Cancel run" while it runs, "Resume" once it failed or was
 * cancelled ("Cancel run" for operators and whoever started the run, "Resume" for operators), and its parent and
 * forks with links to compare them.
 */
import { RunLineage } from "../../../components/RunLineage";
import { WorkflowRunHeader } from "../../../components/WorkflowRunHeader";
import type { StepRun, StepRunSummary } from "../../../lib/trpc";
import { useCancelStepRun, useResumeStepRun } from "../api/runs";
import { stepsDoor } from "../utils/door";
import { isStepRunActive, isStepRunResumable } from "../utils/turns";
import "../step-workflows.css";

/** The run, with its parent and forks when the read that answered it carries them (its view does). */
type HeaderRun = StepRunSummary & Partial<Pick<StepRun, "forked_from" | "forks">>;

export function StepRunHeader({ run, view }: { run: HeaderRun; view: "conversation" | "graph" }) {
  const consequence = "The running steps are stopped and no further step starts; completed steps keep their results.";
  const cancel = { offered: isStepRunActive(run.status), consequence, mutation: useCancelStepRun() };
  const hint = "Failed, cancelled and skipped steps run again; completed steps keep their results.";
  const resume = { offered: isStepRunResumable(run.status), hint, mutation: useResumeStepRun() };
  const lineage = run.forks ? <RunLineage run={{ id: run.id, forked_from: run.forked_from ?? null, forks: run.forks }} runPath={stepsDoor.paths.run} /> : null;
  return <WorkflowRunHeader door={stepsDoor} run={run} view={view} runNoun="step workflow run" cancel={cancel} resume={resume} lineage={lineage} />;
}
