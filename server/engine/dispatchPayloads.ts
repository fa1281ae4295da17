/**
 * An outbox row's payload as the dispatcher reads it back: parsed with its schema where it enters (the row's JSONB,
 * written by this engine), never cast. A payload that does not parse is a row this version cannot deliver: it fails
 * permanently, naming what is wrong, rather than sending something nobody checked.
 */
import { z } from "zod";
import { describeZodError } from "../lib/zodIssues";
import { WorkerPayload } from "./schemas";

/** A timeout's or an automatic retry's row: how long after its dispatch the attempt times out. */
const TimerDue = z.object({ afterMs: z.number() });

/** The part of a Worker's payload the heartbeat reads: how long the Worker may take to call back (its config's `leaseMs`). */
const CallbackLease = z.object({ config: z.object({ leaseMs: z.number().optional() }).loose() }).loose();

export class UnreadablePayload extends Error {
  override name = "UnreadablePayload";
}

export function workerPayloadOf(payload: unknown): WorkerPayload {
  const parsed = WorkerPayload.safeParse(payload);
  if (!parsed.success) throw new UnreadablePayload(`the outbox row's payload is not a Worker's payload: ${describeZodError(parsed.error)}`);
  return parsed.data;
}

export function timerAfterMs(payload: unknown): number {
  const parsed = TimerDue.safeParse(payload);
  if (!parsed.success) throw new UnreadablePayload(`the outbox row's payload is not a timer's: ${describeZodError(parsed.error)}`);
  return parsed.data.afterMs;
}

/** The Worker's own callback lease, when its node sets one; undefined otherwise (or for a row that is not a Worker's). */
export function callbackLeaseMs(payload: unknown): number | undefined {
  const parsed = CallbackLease.safeParse(payload);
  return parsed.success ? parsed.data.config.leaseMs : undefined;
}
