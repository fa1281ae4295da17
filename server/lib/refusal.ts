/**
 * A refusal: a request that was understood and turned down, having changed nothing. Each front door throws its own
 * subclass (EngineError, PipelineError, ...) with one of these codes, and each adapter reads the status it answers
 * with from this one table: REST the HTTP status, tRPC its error code.
 */
export const refusalCodes = {
  bad_request: { http: 400, trpc: "BAD_REQUEST" },
  invalid_graph: { http: 400, trpc: "BAD_REQUEST" },
  unauthorized: { http: 401, trpc: "UNAUTHORIZED" },
  forbidden: { http: 403, trpc: "FORBIDDEN" },
  not_found: { http: 404, trpc: "NOT_FOUND" },
  conflict: { http: 409, trpc: "CONFLICT" },
  /** Understood and well-formed, but missing what the command needs (the pipeline's seed answers its validation with 422). */
  unprocessable: { http: 422, trpc: "UNPROCESSABLE_CONTENT" },
  unsupported_media_type: { http: 415, trpc: "UNSUPPORTED_MEDIA_TYPE" },
  rate_limited: { http: 429, trpc: "TOO_MANY_REQUESTS" },
  /** The database cannot be reached (server/lib/databaseErrors.ts): nothing changed, and the request may be sent again. */
  unavailable: { http: 503, trpc: "SERVICE_UNAVAILABLE" },
} as const;

export type RefusalCode = keyof typeof refusalCodes;

export abstract class Refusal<Code extends RefusalCode = RefusalCode> extends Error {
  constructor(
    readonly code: Code,
    message: string,
    /** Fields the answer carries besides the message (a stale save's latest version and diff), unless `details` says otherwise. */
    private readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }

  /** The `error` code clients see; the refusal code unless a refusal names itself more precisely (`invalid_workflow`). */
  readonly answerCode: string | undefined = undefined;

  /** Fields a refusal adds to its answer besides `error`, `message` and `detail` (a definition's located `issues`). */
  get details(): Record<string, unknown> | undefined {
    return this.extra;
  }

  /** Seconds a client should wait before sending the request again (the `Retry-After` header); most refusals set none. */
  readonly retryAfterSeconds: number | undefined = undefined;

  get httpStatus() {
    return refusalCodes[this.code].http;
  }

  get trpcCode() {
    return refusalCodes[this.code].trpc;
  }
}
