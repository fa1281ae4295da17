/**
 * How refusals become HTTP answers: one JSON shape, `{ error, message, detail }` (`detail` repeats the message for
 * clients of the pipeline's original FastAPI backend, which read it). Every front door's refusal carries its code,
 * and the status comes from the one table in server/lib/refusal.ts.
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { z } from "zod";
import { unavailableRefusal } from "../lib/databaseErrors";
import { Refusal } from "../lib/refusal";
import { describeZodError } from "../lib/zodIssues";

/** A request the HTTP layer itself refuses: a body that is not JSON or does not fit its schema, a missing query parameter. */
export class HttpError extends Error {
  constructor(readonly status: ContentfulStatusCode, readonly code: string, message: string) {
    super(message);
  }
}

/** The context variable where the request guard (requestGuard.ts) leaves a JSON body it has parsed, for `readBody`. */
export const PARSED_BODY = "parsedBody";

declare module "hono" {
  interface ContextVariableMap {
    [PARSED_BODY]: { value: unknown };
  }
}

/**
 * Reads the JSON body and validates it; anything else is a 400 (or `invalidStatus`) that names the field. A body the
 * request guard has already parsed is not parsed again.
 */
export async function readBody<S extends z.ZodType>(
  c: Context,
  schema: S,
  options: { emptyAs?: unknown; invalidStatus?: ContentfulStatusCode } = {},
): Promise<z.infer<S>> {
  const parsedByGuard = c.get(PARSED_BODY);
  const value = parsedByGuard ? parsedByGuard.value : jsonOf(await c.req.text(), options);
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new HttpError(options.invalidStatus ?? 400, "invalid_body", describeZodError(parsed.error));
  return parsed.data;
}

/** Reads the query parameters and validates them; anything else is a 400 `invalid_query` that names the parameter. */
export function readQuery<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  const parsed = schema.safeParse(c.req.query());
  if (!parsed.success) throw new HttpError(400, "invalid_query", describeZodError(parsed.error));
  return parsed.data;
}

/** The value of a body's JSON text: an empty body is `emptyAs` (by default `{}`); text that is not JSON is a 400. */
function jsonOf(text: string, options: { emptyAs?: unknown; invalidStatus?: ContentfulStatusCode }): unknown {
  if (text.trim() === "") return "emptyAs" in options ? options.emptyAs : {};
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(options.invalidStatus ?? 400, "invalid_json", "request body is not valid JSON");
  }
}

export function errorResponse(c: Context, thrown: unknown): Response {
  if (thrown instanceof HttpError) return c.json({ error: thrown.code, message: thrown.message, detail: thrown.message }, thrown.status);
  // The database cannot be reached: a 503 the caller may send again, not an internal error.
  const error = unavailableRefusal(thrown) ?? thrown;
  if (error instanceof Refusal) {
    if (error.retryAfterSeconds !== undefined) c.header("Retry-After", String(error.retryAfterSeconds));
    return c.json({ error: error.answerCode ?? error.code, message: error.message, detail: error.message, ...error.details }, error.httpStatus);
  }
  // The cause is for the server's log; the caller learns only that it failed, never the stack, SQL or parameters.
  console.error(error);
  return c.json({ error: "internal", message: "internal error", detail: "internal error" }, 500);
}
