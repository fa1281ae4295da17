/** The run's title, status, "Cancel run" while it can still be cancelled, and the switch between its conversation and its flow graph. */
import { useRef } from "react";
import { RunStatusPill } from "../../../components/StatusPill";
import { Link, paths } from "../../../lib/router";
import { isRunCancellable } from "../../../lib/runStatus";
import { formatDateTime } from "../../../lib/time";
import type { PipelineRun } from "../../../lib/trpc";
import { CancelPipelineRun } from "./CancelPipelineRun";
import "../conversation.css";

export function RunHeader({ run, view }: { run: PipelineRun; view: "conversation" | "graph" }) {
  const titleRef = useRef<HTMLHeadingElement>(null);
  return (
    <header className="run-header">
      <div className="run-title-row">
        {/* Focus lands here once the run is cancelled and "Cancel run" is gone. */}
        <h1 className="run-title" ref={titleRef} tabIndex={-1}>
          {run.domain}
        </h1>
        <RunStatusPill state={run.state} agentName={run.current_agent?.name} />
        {isRunCancellable(run.state) ? <CancelPipelineRun runId={run.run_id} onCancelled={() => titleRef.current?.focus()} /> : null}
      </div>
      <p className="run-sub muted small">
        <code>{run.run_id}</code> · started {formatDateTime(run.created_at)}
      </p>
      <nav className="tabs" aria-label="Run views">
        <Link to={paths.run(run.run_id)} className="tab" aria-current={view === "conversation" ? "page" : undefined}>
          Conversation
        </Link>
        <Link to={paths.runGraph(run.run_id)} className="tab" aria-current={view === "graph" ? "page" : undefined}>
          Flow graph
        </Link>
      </nav>
    </header>
  );
}
