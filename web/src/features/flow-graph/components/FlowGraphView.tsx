/**
 * One engine run followed live: the flow as a graph, every node and splitter path as a table, and
 * the selected node's details and actions, with "Cancel run" while the run is unfinished. Works for
 * any flow; a run another front door owns is cancelled from its owner's page (whose header it gets, or a link to it),
 * and a plain flow's run links to its conversation.
 */
// Before GraphCanvas, so React Flow's stylesheet (which GraphCanvas imports) comes after ours and its states,
// such as a selected edge, keep React Flow's look.
import "../flow-graph.css";
import { type ReactNode, useCallback, useMemo, useRef, useState } from "react";
import { CancelFlowRun } from "../../../components/CancelRun";
import { RunTitleRow } from "../../../components/Chat";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Spinner } from "../../../components/Spinner";
import { EngineRunPill } from "../../../components/StatusPill";
import { Link, paths } from "../../../lib/router";
import { formatDateTime } from "../../../lib/time";
import { useEngineRun, useFlow } from "../api/engine-runs";
import { useCancelEngineRun } from "../api/node-actions";
import { nodeViews, statusLabel } from "../utils/nodeStates";
import { ownerName, ownerPage } from "../utils/owner";
import { GraphCanvas } from "./GraphCanvas";
import { NodeInspector } from "./NodeInspector";
import { NodeTable } from "./NodeTable";

export function FlowGraphView({ stitchRunId, header }: { stitchRunId: string; header?: ReactNode }) {
  const run = useEngineRun(stitchRunId);
  const flow = useFlow(run.data?.flow_id);
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  const onSelect = useCallback((key: string) => setSelectedKey(key), []);
  const views = useMemo(() => (flow.data && run.data ? nodeViews(flow.data.graph, run.data.node_states) : []), [flow.data, run.data]);
  const titleRef = useRef<HTMLHeadingElement>(null);

  const error = (!run.data && run.error) || (!flow.data && flow.error);
  if (error) return <div className="page-pad">{header}<ErrorNotice title="The run's graph could not be loaded" error={error} /></div>;
  if (!run.data || !flow.data) {
    return (
      <div className="page-pad">
        {header}
        <div className="graph-canvas graph-loading" aria-busy="true">
          <Spinner label="Loading the flow" size="md" />
        </div>
      </div>
    );
  }

  const selectedView = selectedKey ? views.find((v) => v.id === selectedKey || v.paths.some((p) => p.key === selectedKey)) : undefined;
  const selectedState = selectedKey ? run.data.node_states[selectedKey] ?? null : null;
  const counts = views.reduce<Record<string, number>>((acc, v) => ({ ...acc, [v.summary]: (acc[v.summary] ?? 0) + 1 }), {});

  return (
    <div className="page-pad graph-page">
      {header ?? (
        <header className="run-header">
          <RunTitleRow title={flow.data.name} titleRef={titleRef}>
            <EngineRunPill status={run.data.status} />
            {run.data.owner ? (
              <Link className="button button-secondary" to={ownerPage(run.data.owner)}>
                Open the {ownerName(run.data.owner)} run
              </Link>
            ) : (
              <>
                <Link className="button button-secondary" to={paths.flowRun(run.data.id)}>
                  Open the conversation
                </Link>
                {run.data.status !== "completed" && run.data.status !== "cancelled" ? (
                  <CancelEngineRun runId={run.data.id} onCancelled={() => titleRef.current?.focus()} />
                ) : null}
              </>
            )}
          </RunTitleRow>
          <p className="run-sub muted small">
            Engine run <code>{run.data.id}</code> · started {formatDateTime(run.data.created_at)}
          </p>
        </header>
      )}
      {run.error ? <ErrorNotice title="Updates paused: the latest state could not be fetched" error={run.error} /> : null}
      <div className="graph-summary muted small" aria-label="Node counts">
        {Object.entries(counts).map(([status, count]) => (
          <span key={status} className={`node-status status-${status}`}>
            {count} {statusLabel[status as keyof typeof statusLabel].toLowerCase()}
          </span>
        ))}
      </div>
      <div className={`graph-layout${selectedView ? " has-inspector" : ""}`}>
        <GraphCanvas graph={flow.data.graph} views={views} selectedKey={selectedKey} onSelect={onSelect} />
        {selectedView && selectedKey ? (
          <NodeInspector runId={run.data.id} owner={run.data.owner} view={selectedView} nodeKey={selectedKey} state={selectedState} onClose={() => setSelectedKey(null)} />
        ) : null}
      </div>
      <h2 className="section-title">Nodes</h2>
      <NodeTable views={views} selectedKey={selectedKey} onSelect={onSelect} />
    </div>
  );
}

function CancelEngineRun({ runId, onCancelled }: { runId: string; onCancelled(): void }) {
  return <CancelFlowRun runId={runId} cancel={useCancelEngineRun()} onCancelled={onCancelled} />;
}
