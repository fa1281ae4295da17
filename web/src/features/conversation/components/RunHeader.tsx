/** The run's title, status and the switch between its conversation and its flow graph. */
import type { PipelineRunView } from "../../../../../server/pipeline/schemas";
import { RunStatusPill } from "../../../components/StatusPill";
import { Link, paths } from "../../../lib/router";
import { formatDateTime } from "../../../lib/time";

export function RunHeader({ run, view }: { run: PipelineRunView; view: "conversation" | "graph" }) {
  return (
    <header className="run-header">
      <div className="run-title-row">
        <h1 className="run-title">{run.domain}</h1>
        <RunStatusPill status={run.status} agentName={run.current_agent?.name} />
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
