/**
 * The one vocabulary every run told as a conversation speaks, whichever front door owns it (an agent pipeline's, a
 * plain flow's, a YAML workflow's, a step workflow's): nine kinds of turn, each with the same envelope (what it is,
 * when, who did it, which node it is about, which attempt) and a body whose common fields mean the same in every door.
 *
 * - `input`: what the run was started with (a brief, a message, the inputs, the input), or an edit of it;
 * - `started`: a node (an agent, a step, a flow's node) began its work, or a revision after a request for changes;
 * - `output`: a node's result;
 * - `failed`: a node's failure (`retrying` when it is tried again by itself);
 * - `skipped`: a node that never ran, with the reason;
 * - `waiting`: a node waits for a person (a review, an approval, an input, a reply);
 * - `decided`: a person's decision at such a node (approve, request changes, complete, answer), with their words;
 * - `system`: what happened to the run rather than in it (a retry, a resumption, a fork, a fan-out), by `event`;
 * - `outcome`: how the run ended (completed, failed, cancelled, with the reason).
 *
 * A front door builds its turns with `turnOf(kind, body)`, where the body is one of the common bodies below, extended
 * with what only that door tells (an agent's artifact version, a YAML node's model); the web app draws every door's
 * turns with one conversation and an adapter per door for what differs.
 */
import { z } from "zod";
import { CopiedDecision } from "../engine/schemas";

export const TURN_KINDS = ["input", "started", "output", "failed", "skipped", "waiting", "decided", "system", "outcome"] as const;
export const TurnKind = z.enum(TURN_KINDS);
export type TurnKind = z.infer<typeof TurnKind>;

/** The node a turn is about: its id in the run (an agent's node, a step's id, a splitter path's instance), its name, its type. */
export const TurnNode = z.object({
  id: z.string().describe("The node's id in the run."),
  label: z.string().describe("How people name it: an agent's name, a flow node's label, a step's or YAML node's id."),
  type: z.string().describe("What kind of node it is: a flow's Worker/UX/Splitter/Collector, a YAML node's kind, a step's tool, `agent`."),
});
export type TurnNode = z.infer<typeof TurnNode>;

const envelope = {
  id: z.string().describe("Stable across reads: names the turn among the run's turns."),
  at: z.string().describe("When it happened."),
  who: z.string().nullable().describe("The person who did it (started the run, decided, forked, retried); null for what a node or the engine did."),
  node: TurnNode.nullable().describe("The node it is about; null for a turn about the whole run."),
  attempt: z.number().int().positive().nullable().describe("Which attempt of the node it is about, where the door counts them."),
};

/** One kind of turn: the common envelope, and the body that kind carries. */
export function turnOf<K extends TurnKind, B extends z.ZodTypeAny>(kind: K, body: B) {
  return z.object({ kind: z.literal(kind), ...envelope, body });
}

/** `input`: the run's input (a brief's text, a message, the inputs by name, a flow's input JSON); null when started without one. */
export const InputBody = z.object({ value: z.unknown() });

/** `started`: whether it is a revision after a request for changes, and the feedback it revises with (when the door keeps it). */
export const StartedBody = z.object({ revising: z.boolean(), feedback: z.string().nullable() });

/** `output`: what the node answered. */
export const OutputBody = z.object({ value: z.unknown() });

/** `failed`: the error as people read it; `retrying` when the node is tried again by itself. */
export const FailedBody = z.object({ error: z.string(), retrying: z.boolean() });

/** `skipped`: why it never ran. */
export const SkippedBody = z.object({ reason: z.string() });

/** What a node waiting for a person asks for. */
export const TurnGate = z.enum(["review", "approval", "completion", "reply"]);
export type TurnGate = z.infer<typeof TurnGate>;

/** `waiting`: what it asks for, its prompt when it has one, and what it shows the person (what reached it, or what is reviewed). */
export const WaitingBody = z.object({ gate: TurnGate, prompt: z.string().nullable(), value: z.unknown() });

export const TurnDecision = z.enum(["approve", "request_changes", "complete", "answer"]);
export type TurnDecision = z.infer<typeof TurnDecision>;

/** `decided`: how the person decided, their words (a comment, the feedback, a reply), and what a completion gave the node. */
export const DecidedBody = z.object({ decision: TurnDecision, text: z.string().nullable(), value: z.unknown() });

/** `outcome`: how the run ended, and why when someone cancelled it. */
export const OutcomeBody = z.object({ status: z.enum(["completed", "failed", "cancelled"]), reason: z.string().nullable() });

/** `system` events every door tells alike: a person's retry of a node, a resumption of the run, and forks. */
export const RetriedEvent = z.object({ event: z.literal("retried") });
export const ResumedEvent = z.object({ event: z.literal("resumed") });
/** This run was forked from another at `node`: where it came from, the first feedback, the edited input (null: as it was). */
export const ForkedEvent = z.object({
  event: z.literal("forked"),
  from_run_id: z.string().describe("The run this one was forked from."),
  feedback: z.string().nullable().describe("A first feedback to the node it restarted at."),
  value: z.unknown().describe("The edited input the fork started from; null when it took its input as it was."),
  decided: z.record(z.string(), CopiedDecision).describe("Decisions in the copied part, by node: they stay decided in the fork."),
});
/** Someone forked this run at `node` into `fork_run_id`. */
export const ForkedIntoEvent = z.object({ event: z.literal("forked_into"), fork_run_id: z.string() });

/** The system events every door shares; a door adds its own (a fan-out, a copied node, a step's resolved params). */
export const commonEvents = [RetriedEvent, ResumedEvent, ForkedEvent, ForkedIntoEvent] as const;
