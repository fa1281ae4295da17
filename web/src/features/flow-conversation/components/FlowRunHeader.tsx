/**
 * A plain flow run's header: its flow's name, its status, "Cancel run" while it is unfinished (operators), who started
 * it and when, its parent and forks (components/RunLineage), and the switch between its conversation and its flow graph.
 */
import { useRef } from "react";
import { CancelFlowRun } from "../../../components/CancelRun";
import { RunTabs, RunTitleRow } from "../../../components/Chat";
import { RunLineage } from "../../../components/RunLineage";
import { EngineRunPill } from "../../../components/StatusPill";
import { paths } from "../../../lib/router";
import { formatDateTime } from "../../../lib/time";
import type { FlowRun } from "../../../lib/trpc";
import { useCancelFlowRun } from "../api/runs";
import { isFlowRunActive } from "../utils/turns";
import "../flow-conversation.css";

export function FlowRunHeader({ run, view }: { run: FlowRun; view: "conversation" | "graph" }) {
  const titleRef = useRef<HTMLHeadingElement>(null);
  const cancel = useCancelFlowRun();
  // A failed run can be cancelled too (its failed nodes can then no longer be retried), as the engine allows.
  const cancellable = isFlowRunActive(run.status) || run.status === "failed";
  return (
    <header className="run-header">
      <RunTitleRow title={run.flow_name} titleRef={titleRef}>
        <EngineRunPill status={run.status} />
        {cancellable ? (
          <CancelFlowRun runId={run.id} cancel={cancel} onCancelled={() => titleRef.current?.focus()} />
        ) : null}
      </RunTitleRow>
      <p className="run-sub muted small">
        Flow run <code>{run.id}</code>
        {run.started_by?.name ? ` · started by ${run.started_by.name}` : ""} · started {formatDateTime(run.created_at)}
      </p>
      <RunLineage run={run} runPath={paths.flowRun} />
      <RunTabs conversation={paths.flowRun(run.id)} graph={paths.flowRunGraph(run.id)} view={view} />
    </header>
  );
}
