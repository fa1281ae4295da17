/**
 * A plain flow run told as a conversation, like the other front doors' runs: defined once here as zod schemas, the
 * types inferred; the queries build it, REST (`GET /api/stitch/runs/{id}/conversation`) and tRPC
 * (`engine.runs.conversation`) answer it, and the OpenAPI document is converted from it.
 */
import { z } from "zod";
import { CopiedDecision, ForkOf, ForkedFrom, NodeStatus, NodeType, RunStatus, StartedBy } from "../engine/schemas";

/**
 * What a UX node waiting for a person asks for: `review` (a review gate: approve the output before it, or request
 * changes with feedback), `approval` (approve it), `completion` (any other UX node: a person's input becomes its output).
 */
export const FlowGate = z.enum(["review", "approval", "completion"]);
export type FlowGate = z.infer<typeof FlowGate>;

const turn = { id: z.string().describe("Stable across reads: the event's id and the turn's place in it."), at: z.string().describe("When the event that caused it was applied.") };
const node = {
  node_id: z.string().describe("The node's id in the flow, or one splitter path's instance of it (`translate_0`)."),
  label: z.string().describe("The node's `data.label`, or its id; a path's instance says which path."),
  node_type: NodeType,
};
const actor = z.string().nullable().describe("The signed-in account (or `bootstrap token`) that did it.");

export const FlowTurn = z
  .discriminatedUnion("kind", [
    z.object({ kind: z.literal("input"), ...turn, input: z.unknown().describe("The run's input."), started_by: z.string().nullable() }),
    z.object({
      kind: z.literal("started"), ...turn, ...node, attempt: z.number().int(),
      feedback: z.string().nullable().describe("A revision after a review gate's request for changes: the feedback the worker was sent."),
    }),
    z.object({ kind: z.literal("output"), ...turn, ...node, attempt: z.number().int(), output: z.unknown() }),
    z.object({ kind: z.literal("split"), ...turn, ...node, paths: z.number().int().describe("How many paths the Splitter's array fanned out into.") }),
    z.object({
      kind: z.literal("failed"), ...turn, ...node, attempt: z.number().int(), error: z.string(),
      retrying: z.boolean().describe("True when the node's `data.retry` fires another attempt by itself."),
    }),
    z.object({ kind: z.literal("skipped"), ...turn, ...node, reason: z.string() }),
    z.object({
      kind: z.literal("waiting"), ...turn, ...node, gate: FlowGate,
      prompt: z.string().nullable().describe("The UX node's `data.prompt`, when it has one: what it asks."),
      reviewed: z
        .object({ node_id: z.string(), label: z.string(), output: z.unknown() })
        .nullable()
        .describe("A review gate: the node whose output waits for the review, and that output."),
      input: z.unknown().describe("What reached the node (a review gate: the output under review)."),
    }),
    z.object({
      kind: z.literal("decided"), ...turn, ...node, gate: FlowGate, decision: z.enum(["approve", "request_changes", "complete"]),
      feedback: z.string().nullable().describe("A request for changes: what should change."),
      output: z.unknown().describe("A completion: the person's input, now the node's output."),
      actor,
    }),
    z.object({ kind: z.literal("retried"), ...turn, ...node, actor }),
    z.object({ kind: z.literal("cancelled"), ...turn, reason: z.string().nullable(), actor }),
    z.object({ kind: z.literal("resumed"), ...turn, actor }),
    z.object({ kind: z.literal("outcome"), ...turn, status: z.enum(["completed", "failed"]) }),
    z.object({
      kind: z.literal("forked"), ...turn, ...node, from_run_id: z.string().uuid().describe("The run this one was forked from."),
      input: z.unknown().describe("The chosen node's edited input; null when it took its input from the nodes before it."),
      feedback: z.string().nullable().describe("A first feedback to the chosen Worker."), actor,
    }).describe("This run was forked from another at this node: it and what follows started afresh here."),
    z.object({
      kind: z.literal("copied"), ...turn, ...node, status: NodeStatus, output: z.unknown(), from_run_id: z.string().uuid(),
      decided: CopiedDecision.nullable().describe("Who decided it, how, when and in which run: it stays decided in the fork; null when no person decided it."),
    }).describe("A node the fork copied from its parent, as the parent had it."),
    z.object({
      kind: z.literal("forked_into"), ...turn, ...node, fork_run_id: z.string().uuid(), actor,
    }).describe("Someone forked this run at this node into another run."),
  ])
  .describe("One turn of a flow run's conversation.");
export type FlowTurn = z.infer<typeof FlowTurn>;

export const FlowConversation = z
  .object({
    run: z.object({
      id: z.string().uuid(), flow_id: z.string().uuid(), flow_name: z.string(), flow_version: z.number().int().positive(), status: RunStatus, started_by: StartedBy.nullable(),
      forked_from: ForkedFrom.nullable(), forks: z.array(ForkOf), created_at: z.string(), updated_at: z.string(),
    }),
    nodes: z
      .record(z.string(), z.object({
        node_type: NodeType, label: z.string(), status: NodeStatus, gate: FlowGate.nullable(),
        input: z.unknown().describe("What the node last received (null before it ran): what a fork at it starts from."),
      }))
      .describe("Every node (and splitter path) as it stands now, by id: which gate still waits, which failure can be retried."),
    turns: z.array(FlowTurn),
  })
  .describe("A plain flow run as a conversation: its input, each node starting and ending, each gate waiting and decided, and how the run ended.");
export type FlowConversation = z.infer<typeof FlowConversation>;
