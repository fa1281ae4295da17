/** The run's title, status, "Cancel run" while it can still be cancelled, and the switch between its conversation and its flow graph. */
import { useRef } from "react";
import { RunTabs, RunTitleRow } from "../../../components/Chat";
import { RunStatusPill } from "../../../components/StatusPill";
import { paths } from "../../../lib/router";
import { isRunCancellable } from "../../../lib/runStatus";
import { formatDateTime } from "../../../lib/time";
import type { PipelineRun } from "../../../lib/trpc";
import { CancelPipelineRun } from "./CancelPipelineRun";
import "../conversation.css";

export function RunHeader({ run, view }: { run: PipelineRun; view: "conversation" | "graph" }) {
  const titleRef = useRef<HTMLHeadingElement>(null);
  return (
    <header className="run-header">
      <RunTitleRow title={run.domain} titleRef={titleRef}>
        <RunStatusPill state={run.state} agentName={run.current_agent?.name} />
        {isRunCancellable(run.state) ? <CancelPipelineRun runId={run.run_id} submittedById={run.submitted_by?.id} onCancelled={() => titleRef.current?.focus()} /> : null}
      </RunTitleRow>
      <p className="run-sub muted small">
        <code>{run.run_id}</code> · {run.submitted_by?.name ? `submitted by ${run.submitted_by.name}, ` : "started "}
        {formatDateTime(run.created_at)}
      </p>
      <RunTabs conversation={paths.run(run.run_id)} graph={paths.runGraph(run.run_id)} view={view} />
    </header>
  );
}
