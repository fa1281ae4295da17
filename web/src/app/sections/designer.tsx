/**
 * The flow designer's pages: loaded when one is first opened (web/src/app/routes.tsx). A run drawn on the designer's
 * canvas takes its node states and node details from the engine's run view (features/flow-graph): composed here,
 * since features do not import each other.
 */
import { useState } from "react";
import { NodeInspector } from "../../features/flow-graph/components/NodeInspector";
import { nodeViews, statusLabel } from "../../features/flow-graph/utils/nodeStates";
import type { RunOverlay } from "../../features/flow-designer/components/RunDesignView";
import { RunDesignView } from "../../features/flow-designer/components/RunDesignView";
import type { NodeDecoration } from "../../features/flow-designer/model/decorations";
import type { EngineRun, FlowGraph } from "../../lib/trpc";
import "../../features/flow-graph/flow-graph.css";

export { FlowListPage } from "../../features/flow-designer/components/FlowListPage";
export { FlowDesignerPage } from "../../features/flow-designer/components/FlowDesignerPage";

function decorate(graph: FlowGraph, run: EngineRun): Map<string, NodeDecoration> {
  return new Map(
    nodeViews(graph, run.node_states).map((view) => {
      const paths = view.paths.length
        ? { total: view.paths.length, completed: view.paths.filter((p) => p.state.status === "completed").length, failed: view.paths.filter((p) => p.state.status === "failed").length }
        : undefined;
      return [view.id, { run: { status: view.summary, statusLabel: statusLabel[view.summary], paths } }];
    }),
  );
}

/** The selected node of the run, or one of its split paths: the engine run view's details and actions for it. */
function RunNodePanel({ run, graph, nodeId, onClose }: { run: EngineRun; graph: FlowGraph; nodeId: string; onClose(): void }) {
  const view = nodeViews(graph, run.node_states).find((v) => v.id === nodeId)!;
  const [key, setKey] = useState(nodeId);
  const shownKey = key === nodeId || view.paths.some((p) => p.key === key) ? key : nodeId;
  return (
    <div className="designer-run-node">
      {view.paths.length ? (
        <nav aria-label={`Paths of ${view.label}`} className="path-chips">
          {[{ key: nodeId, label: "All paths" }, ...view.paths.map((p) => ({ key: p.key, label: `Path ${p.indices.join(".")}: ${statusLabel[p.state.status]}` }))].map((choice) => (
            <button key={choice.key} type="button" className={`button button-small ${choice.key === shownKey ? "button-primary" : "button-secondary"}`} aria-pressed={choice.key === shownKey} onClick={() => setKey(choice.key)}>
              {choice.label}
            </button>
          ))}
        </nav>
      ) : null}
      <NodeInspector runId={run.id} owner={run.owner} view={view} nodeKey={shownKey} state={run.node_states[shownKey] ?? null} onClose={onClose} />
    </div>
  );
}

const overlay: RunOverlay = { decorate, nodePanel: (args) => <RunNodePanel key={args.nodeId} {...args} /> };

export function FlowRunDesignPage({ runId }: { runId: string }) {
  return <RunDesignView runId={runId} overlay={overlay} />;
}
