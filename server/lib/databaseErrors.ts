/**
 * Whether an error says the database cannot be reached: PostgreSQL restarting or failing over, a connection refused,
 * reset or closed, an embedded PGlite already closed. It is the one decision every adapter and loop makes:
 * - REST and tRPC answer such a request 503 `database_unavailable` with `Retry-After` (a `DatabaseUnavailable`
 *   refusal): its transaction did not commit, so it changed nothing and the caller may send it again;
 * - the outbox loops back off (100 ms doubling to 5 s) and say so once per outage, not at every tick (OutageLog).
 * Any other error (a constraint, a bug) stays what it was: a 500 for a request, a line in the log for a loop.
 */
import { DrizzleQueryError } from "drizzle-orm/errors";
import { Refusal } from "./refusal";

/** postgres.js's own codes for a connection that went away, and the socket errors of one that could not be made. */
const connectionCodes = new Set([
  "CONNECTION_CLOSED", "CONNECTION_DESTROYED", "CONNECTION_ENDED", "CONNECT_TIMEOUT",
  "ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN",
]);

/** SQLSTATEs of a server that is going away or not yet back: admin_shutdown, crash_shutdown, cannot_connect_now, class 08. */
const unavailableStates = /^(57P0[123]|08[0-9A-Z]{3})$/;

/** How long a client should wait before sending a refused request again (seconds, the Retry-After header). */
const RETRY_AFTER_SECONDS = 2;

/** True when `error` (or the driver error a query error wraps) says the database cannot be reached. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && (connectionCodes.has(code) || unavailableStates.test(code))) return true;
    if (current.message === "PGlite is closed") return true;
    // Only a query error's cause is the database's own: a fetch's cause (a worker's ECONNREFUSED) is not.
    if (!(current instanceof DrizzleQueryError)) return false;
    current = current.cause;
  }
  return false;
}

/** The refusal a request gets when the database cannot be reached: 503, and nothing changed. */
export class DatabaseUnavailable extends Refusal<"unavailable"> {
  override readonly answerCode = "database_unavailable";
  override readonly retryAfterSeconds = RETRY_AFTER_SECONDS;

  constructor(readonly reason: string) {
    super("unavailable", `the database cannot be reached (${reason}); nothing was changed: send the request again in a few seconds`);
  }
}

/** What a driver error says went wrong, in a few words: its code, or its message. */
export function describeDatabaseError(error: unknown): string {
  for (let current = error, depth = 0; current instanceof Error && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
    if (!(current instanceof DrizzleQueryError)) return current.message;
    current = current.cause;
  }
  return String(error);
}

/** `error` as a DatabaseUnavailable refusal when it says the database cannot be reached; otherwise undefined. */
export function unavailableRefusal(error: unknown): DatabaseUnavailable | undefined {
  if (error instanceof DatabaseUnavailable) return error;
  if (!isDatabaseUnavailable(error)) return undefined;
  // A request's outage is said once (see OutageLog), not for every request refused while it lasts.
  requestOutage.failed(error);
  return new DatabaseUnavailable(describeDatabaseError(error));
}

/** An outage is over for a log that hears of no failure for this long (requests do not say when one succeeds). */
const QUIET_MS = 10_000;

/**
 * Says once that the database cannot be reached and, when told, that it answers again and after how long: one line
 * per outage, whatever the number of ticks or requests that fail while it lasts. `backoffMs()` is how long a loop
 * waits before it tries again: 100 ms, doubled after each failure, at most 5 s.
 */
export class OutageLog {
  private since: number | undefined;
  private lastFailure = 0;
  private failures = 0;

  constructor(
    private readonly who: string,
    /** What goes on meanwhile, said with the outage: "retrying until it answers". */
    private readonly meanwhile = "retrying until it answers",
    private readonly log: (line: string) => void = (line) => console.error(line),
  ) {}

  get down(): boolean {
    return this.since !== undefined;
  }

  failed(error: unknown): void {
    const now = Date.now();
    if (this.since !== undefined && now - this.lastFailure > QUIET_MS) this.since = undefined;
    this.lastFailure = now;
    this.failures++;
    if (this.since !== undefined) return;
    this.since = now;
    this.log(`${this.who}: the database cannot be reached (${describeDatabaseError(error)}); ${this.meanwhile}`);
  }

  succeeded(): void {
    this.failures = 0;
    if (this.since === undefined) return;
    this.log(`${this.who}: the database answers again (after ${Date.now() - this.since} ms)`);
    this.since = undefined;
  }

  backoffMs(): number {
    return Math.min(100 * 2 ** Math.max(0, this.failures - 1), 5000);
  }
}

const requestOutage = new OutageLog("requests", "answering 503 (Retry-After) until it answers");
