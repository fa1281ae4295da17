/**
 * A plain flow run told as a conversation, like the other front doors' runs: defined once here as zod schemas, the
 * types inferred; the queries build it, REST (`GET /api/stitch/runs/{id}/conversation`) and tRPC
 * (`engine.runs.conversation`) answer it, and the OpenAPI document is converted from it.
 */
import { z } from "zod";
import {
  DecidedBody, FailedBody, InputBody, OutcomeBody, OutputBody, SkippedBody, StartedBody, TurnGate, WaitingBody, commonEvents, turnOf,
} from "../conversation/turn";
import { CopiedDecision, ForkOf, ForkedFrom, NodeStatus, NodeType, RunStatus, StartedBy } from "../engine/schemas";

/**
 * What a UX node waiting for a person asks for: `review` (a review gate: approve the output before it, or request
 * changes with feedback), `approval` (approve it), `completion` (any other UX node: a person's input becomes its output).
 */
export const FlowGate = TurnGate.exclude(["reply"]);
export type FlowGate = z.infer<typeof FlowGate>;

/** A Splitter's array fanned out into its paths. */
export const SplitEvent = z.object({ event: z.literal("split"), paths: z.number().int().describe("How many paths the Splitter's array fanned out into.") });

/** A node the fork copied from its parent, as the parent had it. */
export const CopiedEvent = z
  .object({
    event: z.literal("copied"), status: NodeStatus, output: z.unknown(), from_run_id: z.string().uuid(),
    decided: CopiedDecision.nullable().describe("Who decided it, how, when and in which run: it stays decided in the fork; null when no person decided it."),
  })
  .describe("A node the fork copied from its parent, as the parent had it.");

/**
 * One turn of a flow run's conversation, in the one turn vocabulary (`server/conversation/turn.ts`): the node is the
 * flow's node (or one splitter path's instance of it, `translate_0`), labelled by its `data.label` (a path's instance
 * says which path), typed Worker/UX/Splitter/Collector; who is the signed-in account (or `bootstrap token`) that did it.
 */
export const FlowTurn = z
  .discriminatedUnion("kind", [
    turnOf("input", InputBody.extend({ value: z.unknown().describe("The run's input.") })),
    turnOf("started", StartedBody.extend({ feedback: z.string().nullable().describe("A revision after a review gate's request for changes: the feedback the worker was sent.") })),
    turnOf("output", OutputBody),
    turnOf("failed", FailedBody.extend({ retrying: z.boolean().describe("True when the node's `data.retry` fires another attempt by itself.") })),
    turnOf("skipped", SkippedBody),
    turnOf(
      "waiting",
      WaitingBody.extend({
        gate: FlowGate,
        prompt: z.string().nullable().describe("The UX node's `data.prompt`, when it has one: what it asks."),
        value: z.unknown().describe("What reached the node (a review gate: the output under review)."),
        reviewed: z
          .object({ node_id: z.string(), label: z.string(), output: z.unknown() })
          .nullable()
          .describe("A review gate: the node whose output waits for the review, and that output."),
      }),
    ),
    turnOf(
      "decided",
      DecidedBody.extend({
        gate: FlowGate,
        decision: z.enum(["approve", "request_changes", "complete"]),
        text: z.string().nullable().describe("A request for changes: what should change."),
        value: z.unknown().describe("A completion: the person's input, now the node's output."),
      }),
    ),
    turnOf(
      "system",
      z.discriminatedUnion("event", [...commonEvents, SplitEvent, CopiedEvent]),
    ),
    turnOf("outcome", OutcomeBody),
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
