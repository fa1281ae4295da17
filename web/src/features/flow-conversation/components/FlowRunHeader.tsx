/**
 * A plain flow run's header: its flow's name, its status, "Cancel run" while it is unfinished (operators), who started
 * it and when, and the switch between its conversation and its flow graph.
 */
import { useRef } from "react";
import { CancelRun } from "../../../components/CancelRun";
import { RunTabs, RunTitleRow } from "../../../components/Chat";
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
          <CancelRun
            consequence="Every unfinished node stops and nothing more is sent to its workers; completed nodes keep their output."
            pending={cancel.isPending}
            error={cancel.error}
            onConfirm={(reason) => cancel.mutateAsync({ runId: run.id, reason })}
            onDismiss={cancel.reset}
            onCancelled={() => titleRef.current?.focus()}
          />
        ) : null}
      </RunTitleRow>
      <p className="run-sub muted small">
        Flow run <code>{run.id}</code>
        {run.started_by?.name ? ` · started by ${run.started_by.name}` : ""} · started {formatDateTime(run.created_at)}
      </p>
      <RunTabs conversation={paths.flowRun(run.id)} graph={paths.flowRunGraph(run.id)} view={view} />
    </header>
  );
}
