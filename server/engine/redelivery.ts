/**
 * Why an outbox row is delivered again. A row's first delivery has no cause; every later one MUST have one, so a
 * repeat that a fault explains (a process that stopped renewing its claim, a worker that answered 503) can be told
 * from one that nothing explains. The claim that takes the row again computes it from what the row kept of its last
 * claim (outboxStore.ts `claimDispatches`), stores it on the row, logs it in the run's event log (`REDELIVERY_EVENT`) and
 * the dispatcher says it in its log and to the worker (`stitch-delivery-attempt`, `stitch-redelivery-cause` headers).
 */
import { z } from "zod";

/**
 * - `lease_lapsed`: the process holding the row stopped renewing its claim (it died, stopped or stalled past the lease)
 *   before the row was deleted or handed back.
 * - `worker_answered`: the worker answered 5xx, 408 or 429.
 * - `network_error`: no answer could be had (refused, reset, a name that did not resolve).
 * - `timeout`: no answer within DISPATCH_TIMEOUT_MS.
 * - `work_failed`: work this server performs itself (an executor, a built-in agent) threw.
 * - `no_handler`: no process had the timer's handler (a rolling deploy).
 */
export const RedeliveryCause = z.enum(["lease_lapsed", "worker_answered", "network_error", "timeout", "work_failed", "no_handler"]);
export type RedeliveryCause = z.infer<typeof RedeliveryCause>;

/** The causes a failed attempt records (`last_failure`): every cause but a lapsed lease, which no attempt records. */
export type AttemptFailure = Exclude<RedeliveryCause, "lease_lapsed">;

/** As a claim stores it on the row (`redelivery`, JSONB): the cause and what the row kept of the claim before. */
export const Redelivery = z.object({
  cause: RedeliveryCause,
  /** The process that held the claim before (`Dispatcher` `holder`), when one did. */
  holder: z.string().nullable(),
  /** When the lapsed lease ended (`lease_lapsed`). */
  leaseEndedAt: z.string().nullable().optional(),
  /** What the failed attempt met (every other cause). */
  error: z.string().nullable().optional(),
});
export type Redelivery = z.infer<typeof Redelivery>;

/** The type of the run's event-log entries that record a repeated delivery: not an event applied to the run. */
export const REDELIVERY_EVENT = "redelivery";

/** The cause as a person reads it, in the log and in the run's event log. */
export function describeRedelivery(r: Redelivery): string {
  const holder = r.holder ?? "an unknown process";
  if (r.cause === "lease_lapsed") return `lease lapsed after process ${holder} stopped renewing${r.leaseEndedAt ? ` (it ended at ${r.leaseEndedAt})` : ""}`;
  const met = r.error ? `: ${r.error}` : "";
  if (r.cause === "worker_answered") return `the worker answered the delivery by ${holder}${met}`;
  if (r.cause === "network_error") return `network error on the delivery by ${holder}${met}`;
  if (r.cause === "timeout") return `timeout on the delivery by ${holder}${met}`;
  if (r.cause === "work_failed") return `the work performed by ${holder} failed${met}`;
  return `process ${holder} had no handler for it${met}`;
}
