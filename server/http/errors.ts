/**
 * How refusals become HTTP answers: one JSON shape, `{ error, message, detail }` (`detail` repeats the message for
 * clients of the seed's FastAPI backend, which read it), with the status the seeds ask for.
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { z } from "zod";
import { EngineError, type EngineErrorCode } from "../engine/engine";

export class HttpError extends Error {
  constructor(readonly status: ContentfulStatusCode, readonly code: string, message: string) {
    super(message);
  }
}

const statusOf: Record<EngineErrorCode, ContentfulStatusCode> = { not_found: 404, conflict: 409, bad_request: 400, invalid_graph: 400, unauthorized: 401 };

export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const field = issue.path.length > 0 ? issue.path.join(".") : "body";
      return `${field}: ${issue.message}`;
    })
    .join("; ");
}

/** Reads the JSON body and validates it; anything else is a 400 that names the field. */
export async function readBody<S extends z.ZodType>(
  c: Context,
  schema: S,
  options: { emptyAs?: unknown; invalidStatus?: ContentfulStatusCode } = {},
): Promise<z.infer<S>> {
  const text = await c.req.text();
  let value: unknown;
  if (text.trim() === "") value = "emptyAs" in options ? options.emptyAs : {};
  else {
    try {
      value = JSON.parse(text);
    } catch {
      throw new HttpError(options.invalidStatus ?? 400, "invalid_json", "request body is not valid JSON");
    }
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new HttpError(options.invalidStatus ?? 400, "invalid_body", describeZodError(parsed.error));
  return parsed.data;
}

export function errorResponse(c: Context, error: unknown): Response {
  if (error instanceof HttpError) return c.json({ error: error.code, message: error.message, detail: error.message }, error.status);
  if (error instanceof EngineError) return c.json({ error: error.code, message: error.message, detail: error.message }, statusOf[error.code]);
  console.error(error);
  return c.json({ error: "internal", message: "internal server error" }, 500);
}
