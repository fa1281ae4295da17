/**
 * The run's title, status, "Cancel run" while it can still be cancelled, its downloads once it has an output, and the
 * switch between its conversation and its flow graph.
 */
import { type RefObject, useRef } from "react";
import { BreakableText } from "../../../components/BreakableText";
import { RunTabs, RunTitleRow } from "../../../components/Chat";
import { RunStatusPill } from "../../../components/StatusPill";
import { Link, paths } from "../../../lib/router";
import { isRunCancellable } from "../../../lib/runStatus";
import { formatDateTime } from "../../../lib/time";
import type { PipelineRun } from "../../../lib/trpc";
import { CancelPipelineRun } from "./CancelPipelineRun";
import { RunDownloads } from "./RunDownloads";
import "../conversation.css";
import "../../../components/RunLineage.css";

/** `statusRef`: where focus goes after a decision (the run's status says what happens next); `exportable`: it has an output. */
export function RunHeader({ run, view, statusRef, exportable = false }: { run: PipelineRun; view: "conversation" | "graph"; statusRef?: RefObject<HTMLSpanElement | null>; exportable?: boolean }) {
  const titleRef = useRef<HTMLHeadingElement>(null);
  return (
    <header className="run-header">
      <RunTitleRow title={run.domain} titleRef={titleRef}>
        <span className="run-header-status" ref={statusRef} tabIndex={-1}>
          <RunStatusPill state={run.state} agentName={run.current_agent?.name} />
        </span>
        {isRunCancellable(run.state) ? <CancelPipelineRun runId={run.run_id} submittedById={run.submitted_by?.id} onCancelled={() => titleRef.current?.focus()} /> : null}
      </RunTitleRow>
      <p className="run-sub muted small">
        <code>
          <BreakableText text={run.run_id} />
        </code>{" "}
        · {run.submitted_by?.name ? `submitted by ${run.submitted_by.name}, ` : "started "}
        {formatDateTime(run.created_at)}
      </p>
      <PipelineLineage run={run} />
      {exportable ? <RunDownloads runId={run.run_id} completed={run.state.phase === "completed"} /> : null}
      <RunTabs conversation={paths.run(run.run_id)} graph={paths.runGraph(run.run_id)} view={view} />
    </header>
  );
}

/** Where the run was forked from (the parent, the agent), and the runs forked from it, each a link. */
function PipelineLineage({ run }: { run: PipelineRun }) {
  const { forked_from: parent, forks } = run;
  if (!parent && forks.length === 0) return null;
  const at = (fork: { node_id: string; agent: string | null }) => `${fork.node_id.startsWith("review_") ? "the review of " : ""}${fork.agent ?? fork.node_id}`;
  return (
    <div className="run-lineage small">
      {parent ? (
        <p>
          Forked from <Link to={paths.run(parent.run_id)}>{parent.run_id}</Link> at {at(parent)}
          {parent.by ? ` by ${parent.by}` : ""} · {parent.version === "latest" ? "on the pipeline in force then" : "on the pipeline it ran"} ·{" "}
          <Link to={paths.runCompare(parent.run_id, run.run_id)}>Compare with parent</Link>
        </p>
      ) : null}
      {forks.length > 0 ? (
        <div>
          <span>Forks:</span>
          <ul className="run-forks">
            {forks.map((fork) => (
              <li key={fork.run_id}>
                <Link to={paths.run(fork.run_id)}>{fork.run_id}</Link> at {at(fork)}
                {fork.by ? ` by ${fork.by}` : ""} · <Link to={paths.runCompare(run.run_id, fork.run_id)} aria-label={`Compare with ${fork.run_id}`}>compare</Link>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
