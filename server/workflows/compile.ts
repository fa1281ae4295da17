/**
 * The workflow compiler every workflow front door lowers its definitions through: a list of tasks with their
 * dependencies becomes an immutable engine flow. Work this server performs is a Worker with `data.executor`;
 * a person's decision is an approval gate. Each node fires by its trigger rule once its dependencies have settled,
 * so independent branches never wait for each other, and every node's work and outcome is an engine event.
 */
import type { DecisionRules, NodeLoop, NodeSpecInput, StitchGraph, StitchNode, TriggerRule, WorkerRetry } from "../engine/schemas";

/** The executor name under which the workflow front doors run their nodes' work. */
export const WORKFLOW_EXECUTOR = "workflow";

export interface WorkflowTask {
  id: string;
  /** An approval's or an interactive loop's decision rules (who decides, by when), carried in its node's data. */
  decisionRules?: DecisionRules;
  dependsOn: readonly string[];
  triggerRule: TriggerRule;
  /** `task`: work this server performs; `approval`: a person approves or rejects. */
  kind: "task" | "approval";
  /** A label for the graph view. */
  label: string;
  /** Automatic attempts in all (the first included) and the wait before the second, doubled for each further one. */
  retry?: WorkerRetry;
  /** Re-run on resume even when completed. */
  alwaysRun?: boolean;
  /** A loop: each iteration is an event; an interactive one waits for the user between iterations. */
  loop?: NodeLoop;
  /** Approval gates: a rejection runs follow-up work (and the gate then waits again). */
  rejectionWork?: boolean;
  /** Approval gates: the front door's executor first decides whether the gate waits at all (a condition), or skips it. */
  precheck?: boolean;
  /** Approval gates: the approver's comment becomes the output. */
  captureResponse?: boolean;
  /** How long one attempt's work may hold its dispatch before another process may take it over. */
  leaseMs?: number;
  /** The executor the dispatcher hands the task's work to (the front door's); WORKFLOW_EXECUTOR when absent. */
  executor?: string;
  /** What the front door's executor needs to perform the task (its definition). */
  config: Record<string, unknown>;
}

/** Lays the tasks out by depth for the graph view: each dependency level a column. */
function positions(tasks: readonly WorkflowTask[]): Map<string, { x: number; y: number }> {
  const depth = new Map<string, number>();
  const depthOf = (id: string, seen: Set<string> = new Set()): number => {
    const known = depth.get(id);
    if (known !== undefined) return known;
    if (seen.has(id)) return 0;
    seen.add(id);
    const task = tasks.find((t) => t.id === id);
    const d = task && task.dependsOn.length > 0 ? Math.max(...task.dependsOn.map((dep) => depthOf(dep, seen))) + 1 : 0;
    depth.set(id, d);
    return d;
  };
  const rows = new Map<number, number>();
  const placed = new Map<string, { x: number; y: number }>();
  for (const task of tasks) {
    const d = depthOf(task.id);
    const row = rows.get(d) ?? 0;
    rows.set(d, row + 1);
    placed.set(task.id, { x: d * 260, y: row * 140 });
  }
  return placed;
}

export function compileWorkflow(tasks: readonly WorkflowTask[]): StitchGraph {
  const at = positions(tasks);
  const nodes: StitchNode[] = tasks.map((task) => {
    // The engine's keys are typed by its node spec (compileGraph checks them again); the rest is the task's config.
    const data: NodeSpecInput & Record<string, unknown> = { label: task.label, triggerRule: task.triggerRule, ...task.config };
    if (task.alwaysRun) data.alwaysRun = true;
    if (task.decisionRules) Object.assign(data, task.decisionRules);
    if (task.leaseMs) data.leaseMs = task.leaseMs;
    if (task.kind === "approval") {
      data.gate = "approval";
      if (task.captureResponse) data.captureResponse = true;
      if (task.rejectionWork || task.precheck) data.executor = task.executor ?? WORKFLOW_EXECUTOR;
      if (task.precheck) data.precheck = true;
      return { id: task.id, type: "UX", position: at.get(task.id)!, data };
    }
    data.executor = task.executor ?? WORKFLOW_EXECUTOR;
    if (task.retry) data.retry = task.retry;
    if (task.loop) data.loop = task.loop;
    return { id: task.id, type: "Worker", position: at.get(task.id)!, data };
  });
  const edges = tasks.flatMap((task) => task.dependsOn.map((dep) => ({ id: `${dep}->${task.id}`, source: dep, target: task.id })));
  return { nodes, edges };
}
