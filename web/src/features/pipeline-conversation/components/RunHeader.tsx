/**
 * The run's title, status, "Cancel run" while it can still be cancelled, its downloads once it has an output, and the
 * switch between its conversation and its flow graph.
 */
import { type RefObject, useRef } from "react";
import { BreakableText } from "../../../components/BreakableText";
import { RunTabs, RunTitleRow } from "../../../components/Chat";
import { RunStatusPill } from "../../../components/StatusPill";
import { LineageList } from "../../../components/RunLineage";
import { paths } from "../../../lib/router";
import { forkPoint } from "../utils/forkPoint";
import { isRunCancellable } from "../../../lib/runStatus";
import { formatDateTime } from "../../../lib/time";
import type { AgentRef, PipelineRun } from "../../../lib/trpc";
import { CancelPipelineRun } from "./CancelPipelineRun";
import { RunDownloads } from "./RunDownloads";
import "../pipeline-conversation.css";

/** `statusRef`: where focus goes after a decision (the run's status says what happens next); `exportable`: it has an output. */
/** `agents`: the run's agents, which name where it was forked and where its forks start ("at Inception"). */
export function RunHeader({ run, agents, view, statusRef, exportable = false }: {
  run: PipelineRun;
  agents: readonly AgentRef[];
  view: "conversation" | "graph";
  statusRef?: RefObject<HTMLSpanElement | null>;
  exportable?: boolean;
}) {
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
      <PipelineLineage run={run} agents={agents} />
      {exportable ? <RunDownloads runId={run.run_id} completed={run.state.phase === "completed"} /> : null}
      <RunTabs conversation={paths.run(run.run_id)} graph={paths.runGraph(run.run_id)} view={view} />
    </header>
  );
}

/** Where the run was forked from (the parent, the agent), and the runs forked from it, each a link with its comparison. */
function PipelineLineage({ run, agents }: { run: PipelineRun; agents: readonly AgentRef[] }) {
  // An agent the run's pipeline no longer names is told by its slug.
  const nameOf = (slug: string | null) => (slug === null ? null : (agents.find((agent) => agent.slug === slug)?.name ?? slug));
  const at = (fork: { node_id: string; agent: string | null }) => forkPoint(fork.node_id, nameOf(fork.agent));
  const parent = run.forked_from;
  return (
    <LineageList
      runId={run.run_id}
      runPath={paths.run}
      parent={parent ? { runId: parent.run_id, name: parent.run_id, at: at(parent), by: parent.by, note: parent.version === "latest" ? "on the pipeline in force then" : "on the pipeline it ran" } : null}
      forks={run.forks.map((fork) => ({ runId: fork.run_id, name: fork.run_id, at: at(fork), by: fork.by, note: null }))}
    />
  );
}
