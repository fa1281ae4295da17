/**
 * What a YAML run's stored turns (`workflow_turns` rows, written by its commands, its projection and its executor)
 * hold in their `payload`, by kind: the conversation parses each with its schema before it reads it. A stored payload
 * that does not fit is a bug of whoever wrote it, and fails loudly here rather than as a wrong turn.
 */
import { z } from "zod";
import { CopiedDecision } from "../../engine/schemas";

/** Who answered an AI node (`llm`, with the model, or `offline`): merged into the node's next output or iteration. */
const Responder = { responder: z.string().optional(), model: z.string().optional() };

export const StoredPayload = {
  /** The run's message and inputs (a start's, or a fork's). */
  message: z.object({ text: z.string(), inputs: z.record(z.string(), z.unknown()).nullish() }),
  responder: z.object(Responder),
  started: z.object({ attempt: z.number().int(), rejection_work: z.boolean().optional() }),
  output: z.object({ output: z.unknown() }),
  /** A loop's iteration: its number, the node's attempt it was, the prompt it was given and its answer. */
  iteration: z.object({ iteration: z.number().int(), attempt: z.number().int().optional(), prompt: z.string(), output: z.unknown(), ...Responder }),
  /** An approval's revision by its on_reject prompt after the reviewer's reason. */
  followup: z.object({ output: z.unknown(), reason: z.string(), ...Responder }),
  waiting: z.object({ iteration_output: z.unknown().optional() }).nullish(),
  skipped: z.object({ reason: z.string().nullish() }),
  failed: z.object({ error: z.string().nullish(), retrying: z.boolean().optional() }),
  approved: z.object({ comment: z.string().nullish(), edited: z.boolean().optional() }),
  /** A request for changes; `limit` only on one that cancelled the run (on_reject's max_attempts, null without on_reject). */
  rejected: z.object({ reason: z.string().nullish(), limit: z.number().int().nullish() }),
  /** A person's reply to an interactive loop. */
  input: z.object({ text: z.string() }),
  cancelled: z.object({ reason: z.string().nullish() }),
  outcome: z.object({ status: z.enum(["completed", "failed", "cancelled"]) }),
  forked: z.object({ from_run_id: z.string(), copied: z.array(z.string()), decided: z.record(z.string(), CopiedDecision).optional() }),
} as const;
