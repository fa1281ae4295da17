/**
 * A run on the designer's canvas: the version it ran with (the run keeps it to its end, whatever is saved since),
 * each node coloured by its state, a split node with how many of its paths completed and failed, and the selected
 * node's input, output, error, attempts and actions in the side panel (which the page composes: the run's node
 * details belong to the engine's run view). Live while the run is unfinished.
 */
import { ReactFlowProvider } from "@xyflow/react";
import type { ReactNode } from "react";
import { CancelFlowRun } from "../../../components/CancelRun";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Spinner } from "../../../components/Spinner";
import { EngineRunPill } from "../../../components/StatusPill";
import { Link, paths } from "../../../lib/router";
import { formatDateTime } from "../../../lib/time";
import type { EngineRun, FlowGraph } from "../../../lib/trpc";
import { useDesignedFlow } from "../api/flows";
import { useCancelFlowRun, useLiveRun } from "../api/runs";
import { useVersion } from "../api/versions";
import { useFlowEditor } from "../hooks/useFlowEditor";
import type { Decorations } from "../model/decorations";
import { DesignerWorkspace } from "./DesignerWorkspace";
import "../designer.css";

export interface RunOverlay {
  /** Each node's state in the run, drawn over it. */
  decorate(graph: FlowGraph, run: EngineRun): Decorations;
  /** The side panel for the selected node of the run. */
  nodePanel(args: { run: EngineRun; graph: FlowGraph; nodeId: string; onClose(): void }): ReactNode;
}

export function RunDesignView({ runId, overlay }: { runId: string; overlay: RunOverlay }) {
  const run = useLiveRun(runId);
  const version = useVersion(run.data?.flow_id ?? "", run.data ? run.data.flow_version : null);
  const flow = useDesignedFlow(run.data?.flow_id ?? null);
  const error = (!run.data && run.error) || version.error;
  if (error) return <div className="page-pad"><ErrorNotice title="The run could not be opened in the designer" error={error} /></div>;
  if (!run.data || !version.data) {
    return (
      <div className="page-pad" aria-busy="true">
        <Spinner label="Opening the run" size="md" />
      </div>
    );
  }
  return (
    <ReactFlowProvider>
      <RunCanvas run={run.data} graph={version.data.graph} flowName={flow.data?.name ?? "Flow"} overlay={overlay} />
    </ReactFlowProvider>
  );
}

function RunCanvas({ run, graph, flowName, overlay }: { run: EngineRun; graph: FlowGraph; flowName: string; overlay: RunOverlay }) {
  const editor = useFlowEditor(graph);
  const cancel = useCancelFlowRun();
  const node = editor.selectedNode;
  const finished = run.status === "completed" || run.status === "cancelled";
  return (
    <div className="page-pad designer-page">
      <header className="designer-head">
        <div>
          <h1 className="designer-title">
            {flowName}: run of version {run.flow_version}
          </h1>
          <p className="muted small">
            <EngineRunPill status={run.status} /> Started {formatDateTime(run.created_at)} · <code>{run.id.slice(0, 8)}</code>
          </p>
        </div>
        <div className="designer-head-actions">
          <Link className="button button-secondary" to={paths.flowRun(run.id)}>
            Open the conversation
          </Link>
          <Link className="button button-secondary" to={paths.flows.flow(run.flow_id)}>
            Edit the flow
          </Link>
          {!finished && !run.owner ? (
            <CancelFlowRun runId={run.id} cancel={cancel} />
          ) : null}
        </div>
      </header>
      <DesignerWorkspace
        editor={editor}
        editable={false}
        decorations={overlay.decorate(graph, run)}
        problems={[]}
        checking={false}
        sidePanel={node ? overlay.nodePanel({ run, graph, nodeId: node.id, onClose: () => editor.selectOnly([]) }) : undefined}
      />
    </div>
  );
}
