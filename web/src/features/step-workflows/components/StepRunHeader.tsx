/**
 * A step run's title (its workflow and version), status, "Cancel run" while it runs, "Resume" once it failed or was
 * cancelled, and the switch between its conversation and its flow graph.
 */
import { useRef } from "react";
import { CancelRun } from "../../../components/CancelRun";
import { ResumeRun } from "../../../components/ResumeRun";
import { RunTabs, RunTitleRow } from "../../../components/Chat";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Spinner } from "../../../components/Spinner";
import { EngineRunPill } from "../../../components/StatusPill";
import { Link, paths } from "../../../lib/router";
import { formatDateTime } from "../../../lib/time";
import type { StepRunSummary } from "../../../lib/trpc";
import { useCancelStepRun, useResumeStepRun } from "../api/runs";
import { isStepRunActive, isStepRunResumable } from "../utils/turns";
import "../step-workflows.css";

export function StepRunHeader({ run, view }: { run: StepRunSummary; view: "conversation" | "graph" }) {
  const titleRef = useRef<HTMLHeadingElement>(null);
  const cancel = useCancelStepRun();
  const resume = useResumeStepRun();
  return (
    <header className="run-header">
      <RunTitleRow title={run.workflow} titleRef={titleRef}>
        <span className="version-badge" title={`Version ${run.version} of the step workflow`}>
          v{run.version}
        </span>
        <EngineRunPill status={run.status} />
        {isStepRunActive(run.status) ? (
          <CancelRun
            consequence="The running steps are stopped and no further step starts; completed steps keep their results."
            pending={cancel.isPending}
            error={cancel.error}
            onConfirm={(reason) => cancel.mutateAsync({ runId: run.id, reason })}
            onDismiss={cancel.reset}
            onCancelled={() => titleRef.current?.focus()}
          />
        ) : null}
        {isStepRunResumable(run.status) ? (
          <ResumeRun
            hint="Failed, cancelled and skipped steps run again; completed steps keep their results."
            pending={resume.isPending}
            onResume={() => resume.mutate({ runId: run.id })}
          />
        ) : null}
      </RunTitleRow>
      {resume.error && !resume.isPending ? <ErrorNotice title="The run was not resumed" error={resume.error} /> : null}
      <p className="run-sub muted small">
        <Link to={paths.steps.workflow(run.workflow)}>{run.workflow}</Link> · step workflow run <code>{run.id}</code> · started {formatDateTime(run.created_at)}
      </p>
      <RunTabs conversation={paths.steps.run(run.id)} graph={paths.steps.runGraph(run.id)} view={view} />
    </header>
  );
}
