/**
 * The selected node in the designer: its fields, where it leads ("Connect to ..." from a list of the other nodes,
 * so the keyboard alone connects a flow), the connections in and out (each removable), and "Delete node".
 */
import { useId, useState } from "react";
import { InspectorHead } from "../../../components/InspectorHead";
import type { FlowGraph, FlowNode } from "../../../lib/trpc";
import { kindInfo, kindOfNode, nodeLabel } from "../model/nodeKinds";
import type { FlowEditor } from "../hooks/useFlowEditor";
import { NodeFields } from "./NodeFields";

export function DesignerInspector({ node, graph, editor, editable, problems, onClose }: {
  node: FlowNode;
  graph: FlowGraph;
  editor: FlowEditor;
  editable: boolean;
  /** The check's problems about this node: by field, and those about the node as a whole. */
  problems: { field?: string; message: string }[];
  onClose(): void;
}) {
  const byField = new Map(problems.filter((p) => p.field).map((p) => [p.field!, p.message]));
  const general = problems.filter((p) => !p.field || !byField.has(p.field));
  return (
    <aside className="designer-inspector" aria-labelledby="designer-inspector-title">
      <InspectorHead titleId="designer-inspector-title" title={nodeLabel(node)} kind={kindInfo(kindOfNode(node)).label} nodeId={node.id} closeLabel="Close the node's fields" onClose={onClose} />
      {general.length ? (
        <ul className="designer-node-problem-list" aria-label={`Problems of ${nodeLabel(node)}`}>
          {general.map((p, i) => (
            <li key={i}>{p.message}</li>
          ))}
        </ul>
      ) : null}
      <NodeFields node={node} editable={editable} serverProblems={byField} onChange={(data, field) => editor.setData(node.id, data, field)} />
      <Connections node={node} graph={graph} editor={editor} editable={editable} />
      {editable ? (
        <button type="button" className="button button-danger" onClick={editor.deleteSelected}>
          Delete {nodeLabel(node)}
        </button>
      ) : null}
    </aside>
  );
}

function Connections({ node, graph, editor, editable }: { node: FlowNode; graph: FlowGraph; editor: FlowEditor; editable: boolean }) {
  const selectId = useId();
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const outgoing = graph.edges.filter((e) => e.source === node.id);
  const incoming = graph.edges.filter((e) => e.target === node.id);
  const candidates = graph.nodes.filter((n) => n.id !== node.id && !outgoing.some((e) => e.target === n.id));
  const [target, setTarget] = useState("");
  const chosen = candidates.some((n) => n.id === target) ? target : "";
  const name = (id: string) => (byId.get(id) ? nodeLabel(byId.get(id)!) : id);
  return (
    <section className="designer-connections" aria-label="Connections">
      <h3 className="inspector-subtitle">Connections</h3>
      {editable ? (
        <form
          className="connect-row"
          onSubmit={(event) => {
            event.preventDefault();
            if (!chosen) return;
            editor.connect(node.id, chosen);
            setTarget("");
          }}
        >
          <label htmlFor={selectId} className="field-title">
            Connect to …
          </label>
          <select id={selectId} className="input" value={chosen} onChange={(e) => setTarget(e.target.value)}>
            <option value="">Choose a node</option>
            {candidates.map((n) => (
              <option key={n.id} value={n.id}>
                {nodeLabel(n)} ({n.id})
              </option>
            ))}
          </select>
          <button type="submit" className="button button-secondary button-small" disabled={!chosen}>
            Connect {nodeLabel(node)} to {chosen ? name(chosen) : "…"}
          </button>
        </form>
      ) : null}
      <ul className="connection-list">
        {incoming.map((edge) => (
          <li key={edge.id}>
            <span>From {name(edge.source)}</span>
            {editable ? (
              <button type="button" className="button button-ghost button-small" onClick={() => editor.disconnect(edge.id)}>
                Remove the connection from {name(edge.source)}
              </button>
            ) : null}
          </li>
        ))}
        {outgoing.map((edge) => (
          <li key={edge.id}>
            <span>To {name(edge.target)}</span>
            {editable ? (
              <button type="button" className="button button-ghost button-small" onClick={() => editor.disconnect(edge.id)}>
                Remove the connection to {name(edge.target)}
              </button>
            ) : null}
          </li>
        ))}
        {incoming.length + outgoing.length === 0 ? <li className="muted small">Not connected.</li> : null}
      </ul>
    </section>
  );
}
