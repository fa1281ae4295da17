/**
 * `utils.http`: one HTTP request to a URL the outbound policy allows (server/lib/outbound: checked after DNS and on
 * every redirect, at most 5, and pinned to the checked address). Answers `{ status, headers, body }` whatever the
 * status: a 404 is an answer for the workflow to read, not a failure. `body` is parsed JSON when the response says it
 * is JSON (and parses), else text, null when empty. A body over MAX_RESPONSE_BYTES fails the step.
 */
import { z } from "zod";
import { OutboundRefusal, policedFetch, readBodyLimited } from "../../../lib/policedFetch";
import { ToolError, defineTool } from "./tool";

export const MAX_RESPONSE_BYTES = 1024 * 1024;

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

const isJsonType = (contentType: string | null) => contentType !== null && /^application\/([\w.+-]+\+)?json\b|^text\/json\b/i.test(contentType.trim());

/** A fetch failure that is not the step's own cancellation or timeout: the network's, worth a retry. */
export function networkFailure(label: string, url: string, error: unknown): ToolError {
  if (error instanceof OutboundRefusal) return new ToolError(`${label}: ${error.message}`, { cause: error });
  const cause = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
  return new ToolError(`${label}: could not reach ${url}: ${cause}`, { transient: true, cause: error });
}

export default defineTool({
  name: "utils.http",
  description:
    "Makes one HTTP request (method, url, headers, body: text, or JSON for an object) and answers { status, headers, body }, the body parsed when it is JSON. " +
    "Loopback and private addresses need OUTBOUND_ALLOW; link-local and cloud-metadata addresses are always refused. Redirects are followed (at most 5); a response over 1 MiB fails.",
  params: z.object({
    method: z.enum(METHODS, `method must be one of ${METHODS.join(", ")}`).default("GET"),
    url: z.url({ protocol: /^https?$/, error: "url must be an absolute http:// or https:// URL" }),
    headers: z.record(z.string(), z.string()).optional(),
    /** Text as is; anything else as JSON (with content-type application/json unless headers set one). */
    body: z.json().optional(),
  }),
  result: z.object({
    status: z.number().int(),
    headers: z.record(z.string(), z.string()),
    body: z.json(),
  }),
  defaultTimeoutMs: 30_000,
  async run({ method, url, headers = {}, body }, context) {
    const label = `${context.label} (utils.http ${method} ${url})`;
    const sentHeaders = { ...headers };
    let payload: string | undefined;
    if (body !== undefined && body !== null) {
      payload = typeof body === "string" ? body : JSON.stringify(body);
      if (typeof body !== "string" && !Object.keys(sentHeaders).some((name) => name.toLowerCase() === "content-type")) sentHeaders["content-type"] = "application/json";
    }
    try {
      const response = await policedFetch(url, { method, headers: sentHeaders, body: payload, signal: context.signal }, { policy: context.outbound, lookup: context.lookup });
      const bytes = await readBodyLimited(response, MAX_RESPONSE_BYTES, (limit) => new ToolError(`${label}: the response is larger than ${limit} bytes`));
      const text = new TextDecoder().decode(bytes);
      let parsed: z.infer<ReturnType<typeof z.json>> = text === "" ? null : text;
      if (text !== "" && isJsonType(response.headers.get("content-type"))) {
        try {
          parsed = JSON.parse(text) as typeof parsed;
        } catch {
          // declared JSON but is not: the text is the body
        }
      }
      return { status: response.status, headers: Object.fromEntries(response.headers), body: parsed };
    } catch (error) {
      if (error instanceof ToolError || context.signal.aborted) throw error;
      throw networkFailure(label, url, error);
    }
  },
});
