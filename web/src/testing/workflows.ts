/** Workflow runs and their turns typed as the server's router answers them, for the workflows feature's component tests. */
import type { WorkflowConversation, WorkflowNodeRun, WorkflowRun, WorkflowTurn } from "../lib/trpc";

export function nodeRun(overrides: Partial<WorkflowNodeRun> = {}): WorkflowNodeRun {
  return {
    status: "completed",
    kind: "prompt",
    output: null,
    error: null,
    skip_reason: null,
    attempts: 1,
    output_type: null,
    responder: null,
    started_at: null,
    completed_at: null,
    ...overrides,
  };
}

export function workflowRun(overrides: Partial<WorkflowRun> = {}): WorkflowRun {
  return {
    id: "RUN_1",
    workflow: "release-notes",
    version: 1,
    status: "running",
    cancel_reason: null,
    message: "version 2.1",
    started_by: { id: "00000000-0000-4000-8000-00000000a11a", name: "Ann Analyst" },
    forked_from: null,
    forks: [],
    nodes: {},
    created_at: "2026-05-04T10:00:00.000Z",
    updated_at: "2026-05-04T10:00:05.000Z",
    ...overrides,
  };
}

let next = 0;

/** A turn of `kind` about `node` (a node id and its kind, or null for the run's own turns). */
export function turn(kind: WorkflowTurn["kind"], node: [id: string, kind: string] | null, fields: Partial<Pick<WorkflowTurn, "text" | "actor" | "data" | "id">> = {}): WorkflowTurn {
  next += 1;
  return {
    id: fields.id ?? `t${next}`,
    at: "2026-05-04T10:00:01.000Z",
    kind,
    node_id: node?.[0] ?? null,
    node_kind: node?.[1] ?? null,
    text: fields.text ?? null,
    actor: fields.actor ?? null,
    data: fields.data ?? null,
  };
}

export const conversationOf = (run: WorkflowRun, turns: WorkflowTurn[]): WorkflowConversation => ({ run, turns });
