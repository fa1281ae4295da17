/**
 * A workflow run's header, whichever front door it belongs to: its title (its workflow and version), status, "Cancel
 * run" while it is active (for operators, and for whoever started the run) and "Resume" once it can be resumed (for
 * operators), the line naming its workflow, who started it and when, and the switch between its conversation and its
 * flow graph. The feature says when each action is
 * offered, what it does, and sends it.
 */
import { type ReactNode, useRef } from "react";
import { Link } from "../lib/router";
import { formatDateTime } from "../lib/time";
import type { WorkflowDoor } from "../lib/workflowDoor";
import { CancelRun } from "./CancelRun";
import { RunTabs, RunTitleRow } from "./Chat";
import { ErrorNotice } from "./ErrorNotice";
import { ResumeRun } from "./ResumeRun";
import { EngineRunPill } from "./StatusPill";
import type { RunRow } from "./WorkflowRunsTable";

/** "Cancel run": offered while the run is active, saying what cancelling stops; the mutation that cancels. */
export interface CancelAction {
  offered: boolean;
  consequence: string;
  mutation: { isPending: boolean; error: unknown; mutateAsync(input: { runId: string; reason?: string }): Promise<unknown>; reset(): void };
}

/** "Resume": offered once the run can be resumed, its hint saying what runs again; the mutation that resumes. */
export interface ResumeAction {
  offered: boolean;
  hint: string;
  mutation: { isPending: boolean; error: unknown; mutate(input: { runId: string }): void };
}

export interface WorkflowRunHeaderProps {
  door: WorkflowDoor;
  /** The run, with who started it (null when not known: then only operators cancel it). */
  run: RunRow & { started_by: { id: string | null; name: string | null } | null };
  view: "conversation" | "graph";
  /** How the line under the title names the run: "run", "step workflow run". */
  runNoun: string;
  cancel: CancelAction;
  resume: ResumeAction;
  /** Under the line naming the run: its parent and forks (components/RunLineage), where the front door forks its runs. */
  lineage?: ReactNode;
}

export function WorkflowRunHeader({ door, run, view, runNoun, cancel, resume, lineage }: WorkflowRunHeaderProps) {
  const titleRef = useRef<HTMLHeadingElement>(null);
  const cancelling = cancel.mutation;
  const resuming = resume.mutation;
  return (
    <header className="run-header">
      <RunTitleRow title={run.workflow} titleRef={titleRef}>
        <span className="version-badge" title={`Version ${run.version} of the ${door.noun}`}>
          v{run.version}
        </span>
        <EngineRunPill status={run.status} />
        {cancel.offered ? (
          <CancelRun
            consequence={cancel.consequence}
            pending={cancelling.isPending}
            error={cancelling.error}
            onConfirm={(reason) => cancelling.mutateAsync({ runId: run.id, reason })}
            onDismiss={cancelling.reset}
            onCancelled={() => titleRef.current?.focus()}
            startedById={run.started_by?.id ?? null}
          />
        ) : null}
        {resume.offered ? <ResumeRun hint={resume.hint} pending={resuming.isPending} onResume={() => resuming.mutate({ runId: run.id })} /> : null}
      </RunTitleRow>
      {resuming.error && !resuming.isPending ? <ErrorNotice title="The run was not resumed" error={resuming.error} /> : null}
      <p className="run-sub muted small">
        <Link to={door.paths.workflow(run.workflow)}>{run.workflow}</Link> · {runNoun} <code>{run.id}</code> · {run.started_by?.name ? `started by ${run.started_by.name}, ` : "started "}
        {formatDateTime(run.created_at)}
      </p>
      {lineage}
      <RunTabs conversation={door.paths.run(run.id)} graph={door.paths.runGraph(run.id)} view={view} />
    </header>
  );
}
