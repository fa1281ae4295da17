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

type Envelope = "id" | "at" | "who" | "node" | "attempt";
/** A turn as a test gives it: its kind and body, and what of its envelope it names (the rest: a fresh id, nobody, no node). */
type GivenTurn = WorkflowTurn extends infer T ? (T extends WorkflowTurn ? Omit<T, Envelope> & Partial<Pick<T, Envelope>> : never) : never;

/** A turn of a workflow run's conversation. */
export function turn(given: GivenTurn): WorkflowTurn {
  next += 1;
  return { id: `t${next}`, at: "2026-05-04T10:00:01.000Z", who: null, node: null, attempt: null, ...given };
}

/** A node a turn is about: its id (how it is named) and its YAML kind. */
export const node = (id: string, type: string) => ({ id, label: id, type });

type OutputBody = Extract<WorkflowTurn, { kind: "output" }>["body"];
type DecidedBody = Extract<WorkflowTurn, { kind: "decided" }>["body"];

/** An output's body: its text, and what else it names (no iteration, label, responder or feedback unless given). */
export const outputBody = (value: string, fields: Partial<OutputBody> = {}): OutputBody => ({
  value, iteration: null, prompt: null, output_type: null, responder: null, model: null, feedback: null, ...fields,
});

/** A decision's body: the decision, the person's words, and what else it names. */
export const decidedBody = (decision: DecidedBody["decision"], text: string | null, fields: Partial<DecidedBody> = {}): DecidedBody => ({
  decision, text, value: null, edited: false, cancelled_run: false, limit: null, ...fields,
});

export const conversationOf = (run: WorkflowRun, turns: WorkflowTurn[]): WorkflowConversation => ({ run, turns });
