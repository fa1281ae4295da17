/**
 * A workflow run's title (its workflow and version), status, "Cancel run" while it is active, "Resume" once it
 * failed or a rejected approval cancelled it (both for operators), and the switch between its conversation and its
 * flow graph.
 */
import { useRef } from "react";
import { CancelRun } from "../../../components/CancelRun";
import { ResumeRun } from "../../../components/ResumeRun";
import { RunTabs, RunTitleRow } from "../../../components/Chat";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Spinner } from "../../../components/Spinner";
import { EngineRunPill } from "../../../components/StatusPill";
import { Link, paths } from "../../../lib/router";
import { useCan } from "../../../lib/session";
import { formatDateTime } from "../../../lib/time";
import type { WorkflowRunSummary } from "../../../lib/trpc";
import { useCancelWorkflowRun, useResumeWorkflowRun } from "../api/runs";
import { isResumable, isWorkflowRunActive } from "../utils/turns";
import "../workflows.css";

export function WorkflowRunHeader({ run, view }: { run: WorkflowRunSummary; view: "conversation" | "graph" }) {
  const titleRef = useRef<HTMLHeadingElement>(null);
  const cancel = useCancelWorkflowRun();
  const resume = useResumeWorkflowRun();
  const operator = useCan("operator");
  return (
    <header className="run-header">
      <RunTitleRow title={run.workflow} titleRef={titleRef}>
        <span className="version-badge" title={`Version ${run.version} of the workflow`}>
          v{run.version}
        </span>
        <EngineRunPill status={run.status} />
        {isWorkflowRunActive(run.status) ? (
          <CancelRun
            consequence="Running nodes stop (their processes are killed) and no further node starts; completed nodes keep their outputs."
            pending={cancel.isPending}
            error={cancel.error}
            onConfirm={(reason) => cancel.mutateAsync({ runId: run.id, reason })}
            onDismiss={cancel.reset}
            onCancelled={() => titleRef.current?.focus()}
          />
        ) : null}
        {isResumable(run) ? (
          <ResumeRun hint="Failed nodes run again; completed nodes keep their outputs." pending={resume.isPending} onResume={() => resume.mutate({ runId: run.id })} />
        ) : null}
      </RunTitleRow>
      {resume.error && !resume.isPending ? <ErrorNotice title="The run was not resumed" error={resume.error} /> : null}
      <p className="run-sub muted small">
        <Link to={paths.workflows.workflow(run.workflow)}>{run.workflow}</Link> · run <code>{run.id}</code> · started {formatDateTime(run.created_at)}
      </p>
      <RunTabs conversation={paths.workflows.run(run.id)} graph={paths.workflows.runGraph(run.id)} view={view} />
    </header>
  );
}
