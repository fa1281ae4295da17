/**
 * A plain flow run's header: its flow's name, its status, "Cancel run" while it is unfinished (operators), who started
 * it and when, and the switch between its conversation and its flow graph.
 */
import { useRef } from "react";
import { CancelFlowRun } from "../../../components/CancelRun";
import { RunTabs, RunTitleRow } from "../../../components/Chat";
import { EngineRunPill } from "../../../components/StatusPill";
import { Link, paths } from "../../../lib/router";
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
      <RunLineage run={run} />
      <RunTabs conversation={paths.flowRun(run.id)} graph={paths.flowRunGraph(run.id)} view={view} />
    </header>
  );
}

/** Where the run was forked from, and the runs forked from it, each with a link to it and to its comparison with this run. */
export function RunLineage({ run }: { run: Pick<FlowRun, "id" | "forked_from" | "forks"> }) {
  const { forked_from: parent, forks } = run;
  if (!parent && forks.length === 0) return null;
  return (
    <div className="run-lineage small">
      {parent ? (
        <p>
          Forked from <Link to={paths.flowRun(parent.run_id)}>run {parent.run_id.slice(0, 8)}</Link> at <code>{parent.node_id}</code>
          {parent.by?.name ? ` by ${parent.by.name}` : ""} · {parent.version === "latest" ? `on the latest version (v${parent.flow_version})` : "on the version it ran"} ·{" "}
          <Link to={paths.flowRunCompare(parent.run_id, run.id)}>Compare with it</Link>
        </p>
      ) : null}
      {forks.length > 0 ? (
        <div>
          <span>Forks:</span>
          <ul className="run-forks">
            {forks.map((fork) => (
              <li key={fork.run_id}>
                <Link to={paths.flowRun(fork.run_id)}>run {fork.run_id.slice(0, 8)}</Link> at <code>{fork.node_id}</code>
                {fork.by?.name ? ` by ${fork.by.name}` : ""} · <EngineRunPill status={fork.status} /> · <Link to={paths.flowRunCompare(run.id, fork.run_id)}>compare</Link>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
