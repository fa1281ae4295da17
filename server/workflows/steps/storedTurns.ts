/**
 * A step run's turns as `workflow_turns` stores them: each kind's payload (what the projection, the executor, the
 * start and the fork write), parsed with its schema where the conversation reads it. `attempt` is the engine's count.
 */
import { z } from "zod";
import { ForkVersion } from "../../engine/schemas";
import { TURN } from "./projection";
import { RenderedOutputs } from "./templates";

const Attempt = z.object({ attempt: z.number().int() });
const Reason = z.object({ reason: z.string().nullable().default(null) });

export const StoredStepTurn = {
  [TURN.inputs]: z.object({ inputs: z.record(z.string(), z.unknown()) }),
  [TURN.started]: Attempt,
  /** The params as resolved for the attempt, written by the executor just before the tool runs. */
  [TURN.input]: Attempt.extend({ input: z.unknown() }),
  [TURN.retrying]: Attempt.extend({ error: z.string() }),
  [TURN.completed]: Attempt,
  [TURN.failed]: Attempt.extend({ error: z.string().nullable().default(null) }),
  [TURN.skipped]: Reason,
  [TURN.cancelled]: Reason,
  [TURN.retried]: z.object({}),
  [TURN.runCancelled]: Reason,
  [TURN.resumed]: z.object({}),
  [TURN.outcome]: z.object({ status: z.enum(["completed", "failed", "cancelled"]), outputs: RenderedOutputs.nullable().default(null) }),
  /** A fork's first turn (forkCommands.ts): the run it came from, the version it runs, its inputs, whether they were changed. */
  [TURN.forked]: z.object({ from_run_id: z.string(), version: ForkVersion, inputs: z.record(z.string(), z.unknown()), edited: z.boolean() }),
} as const;
