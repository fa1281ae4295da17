/**
 * The drawing surface as a whole: the palette, the canvas, the selected node's inspector (or, in a run, whatever the
 * page puts there), the problems list and the editing toolbar, with the designer's keys: Ctrl+Z / Ctrl+Shift+Z (or
 * Ctrl+Y) undo and redo, Delete removes the selection, Ctrl+D duplicates it, Ctrl+A selects everything, and Ctrl+C /
 * Ctrl+V copy and paste nodes as JSON through the system clipboard (so between tabs and flows). In text fields the
 * keys are the field's own.
 */
import { useReactFlow } from "@xyflow/react";
import { type ClipboardEvent, type KeyboardEvent, type ReactNode, useState } from "react";
import type { Decorations } from "../model/decorations";
import type { FlowEditor } from "../hooks/useFlowEditor";
import { nodeLabel } from "../model/nodeKinds";
import { type FlowProblem, withProblems } from "../model/problems";
import { DesignerCanvas } from "./DesignerCanvas";
import { DesignerInspector } from "./DesignerInspector";
import { Palette } from "./Palette";
import { ProblemsList } from "./ProblemsList";

const typingIn = (target: EventTarget) => target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));

export function DesignerWorkspace({ editor, editable, decorations, edgeMarks, problems, checking, sidePanel }: {
  editor: FlowEditor;
  editable: boolean;
  decorations: Decorations;
  edgeMarks?: ReadonlyMap<string, "added" | "removed">;
  problems: FlowProblem[];
  checking: boolean;
  /** In place of the node's fields (a run's node): what the page shows for the selected node, or null for the fields. */
  sidePanel?: ReactNode;
}) {
  const flow = useReactFlow();
  const [status, setStatus] = useState("");
  const { graph, selectedNode } = editor;
  const shown = withProblems(decorations, problems);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (typingIn(event.target)) return;
    const mod = event.ctrlKey || event.metaKey;
    const key = event.key.toLowerCase();
    if (mod && key === "z" && !event.shiftKey) editor.undo();
    else if (mod && (key === "y" || (key === "z" && event.shiftKey))) editor.redo();
    else if (!editable) return;
    else if (!mod && (event.key === "Delete" || event.key === "Backspace")) editor.deleteSelected();
    else if (mod && key === "d") editor.duplicate();
    else if (mod && key === "a") editor.selectAll();
    else return;
    event.preventDefault();
  };
  const onCopy = (event: ClipboardEvent<HTMLDivElement>) => {
    if (typingIn(event.target)) return;
    const text = editor.copySelected();
    if (!text) return;
    event.clipboardData.setData("text/plain", text);
    event.preventDefault();
    setStatus(`Copied ${editor.selection.nodes.size} node${editor.selection.nodes.size > 1 ? "s" : ""}.`);
  };
  const onPaste = (event: ClipboardEvent<HTMLDivElement>) => {
    if (!editable || typingIn(event.target)) return;
    if (editor.paste(event.clipboardData.getData("text/plain"))) {
      event.preventDefault();
      setStatus("Pasted.");
    }
  };
  const showProblem = (problem: FlowProblem) => {
    const id = problem.node_id ?? graph.edges.find((e) => e.id === problem.edge_id)?.source;
    const node = graph.nodes.find((n) => n.id === id);
    if (!node) return;
    editor.selectOnly([node.id]);
    void flow.setCenter(node.position.x + 100, node.position.y + 40, { zoom: Math.max(flow.getZoom(), 0.8), duration: 200 });
  };

  const selectedProblems = selectedNode ? problems.filter((p) => p.node_id === selectedNode.id).map((p) => ({ field: p.field ?? undefined, message: p.message })) : [];
  return (
    <div className="designer-workspace" onKeyDown={onKeyDown}>
      {editable ? (
        <div className="designer-toolbar" role="toolbar" aria-label="Edit the flow">
          <button type="button" className="button button-secondary button-small" onClick={editor.undo} disabled={!editor.canUndo} aria-keyshortcuts="Control+Z">
            Undo
          </button>
          <button type="button" className="button button-secondary button-small" onClick={editor.redo} disabled={!editor.canRedo} aria-keyshortcuts="Control+Shift+Z">
            Redo
          </button>
          <button type="button" className="button button-secondary button-small" onClick={() => { editor.tidy(); window.requestAnimationFrame(() => void flow.fitView({ padding: 0.2, duration: 150 })); }} disabled={graph.nodes.length === 0}>
            Tidy up
          </button>
          <button type="button" className="button button-secondary button-small" onClick={editor.duplicate} disabled={editor.selection.nodes.size === 0} aria-keyshortcuts="Control+D">
            Duplicate selected
          </button>
          <button type="button" className="button button-secondary button-small" onClick={editor.deleteSelected} disabled={editor.selection.nodes.size + editor.selection.edges.size === 0} aria-keyshortcuts="Delete">
            Delete selected
          </button>
          <span className="visually-hidden" role="status">{status}</span>
        </div>
      ) : null}
      <div className={`designer-body${editable ? "" : " is-read-only"}`}>
        {editable ? <Palette afterLabel={selectedNode ? nodeLabel(selectedNode) : null} onAdd={(kind) => editor.add(kind)} /> : null}
        <div className="designer-canvas-wrap" onCopy={onCopy} onPaste={onPaste}>
          <DesignerCanvas
            graph={graph}
            selection={editor.selection}
            decorations={shown}
            edgeMarks={edgeMarks}
            editable={editable}
            onPreview={editor.preview}
            onCommit={editor.commit}
            onSelectionChange={editor.setSelection}
            onDropKind={(kind, position) => editor.add(kind, position)}
          />
        </div>
        <div className="designer-side">
          {sidePanel ?? (selectedNode ? (
            <DesignerInspector node={selectedNode} graph={graph} editor={editor} editable={editable} problems={selectedProblems} onClose={() => editor.selectOnly([])} />
          ) : (
            <p className="muted small designer-side-hint">
              {editable ? "Select a node (Tab to it, then Enter) to edit its fields and connections." : "Select a node to see its fields."}
            </p>
          ))}
          {editable ? <ProblemsList problems={problems} graph={graph} checking={checking} onShow={showProblem} /> : null}
        </div>
      </div>
    </div>
  );
}
