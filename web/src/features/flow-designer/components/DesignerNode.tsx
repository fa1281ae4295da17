/**
 * One node card on the designer's canvas: its kind and name, and what is drawn over it: its problems while drawing,
 * its mark in a diff, or its state in a run ("3 of 4 completed", failed paths). Memoized: dragging one node of a
 * large flow redraws that card only (React Flow's performance advice).
 */
import { Handle, type Node, type NodeProps, Position } from "@xyflow/react";
import { memo } from "react";
import type { FlowNode } from "../../../lib/trpc";
import { kindInfo, kindOfNode, nodeLabel } from "../model/nodeKinds";
import type { NodeDecoration } from "../model/decorations";

export type DesignerNodeData = { node: FlowNode; decoration: NodeDecoration | undefined; editable: boolean };
export type DesignerRfNode = Node<DesignerNodeData, "designer">;

export const DesignerNode = memo(function DesignerNode({ data, selected }: NodeProps<DesignerRfNode>) {
  const { node, decoration, editable } = data;
  const kind = kindOfNode(node);
  const problems = decoration?.problems ?? [];
  const run = decoration?.run;
  const classes = ["designer-node", `kind-${kind}`];
  if (selected) classes.push("is-selected");
  if (problems.length) classes.push("has-problems");
  if (decoration?.mark) classes.push(`mark-${decoration.mark}`);
  if (run) classes.push(`status-${run.status}`);
  return (
    <div className={classes.join(" ")}>
      <Handle type="target" position={Position.Left} isConnectable={editable} />
      <div className="designer-node-top">
        <span className={`node-kind node-kind-${kind}`}>{kindInfo(kind).label}</span>
        {decoration?.mark ? <span className={`diff-mark diff-mark-${decoration.mark}`}>{decoration.mark}</span> : null}
        {run ? <span className={`designer-run-status status-${run.status}`}>{run.statusLabel}</span> : null}
      </div>
      <div className="designer-node-label">{nodeLabel(node)}</div>
      {run?.paths ? (
        <div className={`designer-node-paths${run.paths.failed ? " has-failed" : ""}`}>
          {run.paths.completed} of {run.paths.total} completed{run.paths.failed ? `, ${run.paths.failed} failed` : ""}
        </div>
      ) : null}
      {problems.length ? (
        <div className="designer-node-problems" role="note">
          {problems.length === 1 ? problems[0] : `${problems.length} problems: ${problems[0]}`}
        </div>
      ) : null}
      <Handle type="source" position={Position.Right} isConnectable={editable} />
    </div>
  );
});
