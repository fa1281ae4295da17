/**
 * `search.google`: a Google search through SerpApi's Google engine:
 *   GET <SERPAPI_BASE_URL, default https://serpapi.com>/search.json?engine=google&q=<query>&api_key=<SERPAPI_API_KEY>
 * reading its `organic_results`. Answers the results and `text`, the same as numbered lines for an LLM step. With no
 * SERPAPI_API_KEY the step fails, naming it. The request goes through the outbound policy, except that the host of a
 * SERPAPI_BASE_URL the operator set is allowed even on loopback or a private network (a self-hosted proxy, a test's
 * stand-in): it is configuration, not a user's URL. Link-local and metadata addresses stay refused, and so does a
 * redirect elsewhere that the policy refuses.
 */
import { z } from "zod";
import { type OutboundPolicy, parseOutboundAllow } from "../../../lib/outboundPolicy";
import { policedFetch, readBodyLimited, redactUrl } from "../../../lib/policedFetch";
import { ToolError, defineTool } from "./tool";
import { MAX_RESPONSE_BYTES, networkFailure } from "./utils.http";

export const SERPAPI_DEFAULT_BASE_URL = "https://serpapi.com";

const SearchResult = z.object({ title: z.string(), link: z.string(), snippet: z.string() });
type SearchResult = z.infer<typeof SearchResult>;

/** The part of SerpApi's answer read here; anything else in it is ignored. */
const SerpApiAnswer = z.object({
  organic_results: z.array(z.object({ title: z.string().nullish(), link: z.string().nullish(), snippet: z.string().nullish() }).loose()).optional(),
  error: z.string().optional(),
});

/** `1. Title\n   https://link\n   snippet`, a blank line between results. */
export function resultsAsText(query: string, results: readonly SearchResult[]): string {
  if (results.length === 0) return `No Google results for "${query}".`;
  const lines = results.map((result, index) => [`${index + 1}. ${result.title}`, `   ${result.link}`, ...(result.snippet ? [`   ${result.snippet}`] : [])].join("\n"));
  return [`Google results for "${query}":`, ...lines].join("\n\n");
}

/** `policy`, plus the host of the configured SerpApi address. */
function withConfiguredHost(policy: OutboundPolicy, base: URL): OutboundPolicy {
  const configured = parseOutboundAllow(base.hostname);
  return { allowedRanges: [...policy.allowedRanges, ...configured.allowedRanges], allowedHosts: [...policy.allowedHosts, ...configured.allowedHosts] };
}

export default defineTool({
  name: "search.google",
  description: "Searches Google through SerpApi (SERPAPI_API_KEY) and answers { results: [{ title, link, snippet }], text }, `text` being the results as readable lines for an LLM step.",
  params: z.object({
    query: z.string().trim().min(1, "query must not be empty"),
    /** How many results to ask for (SerpApi's `num`). */
    num: z.number().int().min(1).max(100).optional(),
  }),
  result: z.object({ results: z.array(SearchResult), text: z.string() }),
  defaultTimeoutMs: 30_000,
  async run({ query, num }, context) {
    const label = `${context.label} (search.google)`;
    const key = context.env.SERPAPI_API_KEY?.trim();
    if (!key) throw new ToolError(`${label}: SERPAPI_API_KEY is not set: set it to a SerpApi key (https://serpapi.com/manage-api-key) to search Google`);
    const configured = context.env.SERPAPI_BASE_URL?.trim();
    const base = (configured || SERPAPI_DEFAULT_BASE_URL).replace(/\/+$/, "");
    const url = new URL(`${base}/search.json`);
    const policy = configured ? withConfiguredHost(context.outbound, url) : context.outbound;
    url.search = new URLSearchParams({ engine: "google", q: query, api_key: key, ...(num ? { num: String(num) } : {}) }).toString();
    const shown = redactUrl(url.href);
    let status: number;
    let body: string;
    try {
      const response = await policedFetch(url, { headers: { accept: "application/json" }, signal: context.signal }, { policy, lookup: context.lookup });
      status = response.status;
      body = new TextDecoder().decode(await readBodyLimited(response, MAX_RESPONSE_BYTES, (limit) => new ToolError(`${label}: SerpApi's answer is larger than ${limit} bytes`)));
    } catch (error) {
      if (error instanceof ToolError || context.signal.aborted) throw error;
      throw networkFailure(label, shown, error);
    }
    let answer: z.infer<typeof SerpApiAnswer> | undefined;
    try {
      answer = SerpApiAnswer.parse(JSON.parse(body));
    } catch {
      answer = undefined;
    }
    if (status < 200 || status >= 300) {
      const hint = status === 401 ? " (check SERPAPI_API_KEY)" : "";
      throw new ToolError(`${label}: SerpApi at ${shown} answered HTTP ${status}${hint}: ${answer?.error ?? body.slice(0, 300)}`, { transient: status === 429 || status >= 500 });
    }
    if (!answer) throw new ToolError(`${label}: SerpApi at ${shown} did not answer with its JSON: ${body.slice(0, 300)}`);
    // An answer with no organic results and an `error` is SerpApi's "no results" (or a real error, without them).
    if (!answer.organic_results && answer.error && !/hasn't returned any results/i.test(answer.error)) throw new ToolError(`${label}: SerpApi: ${answer.error}`);
    const results = (answer.organic_results ?? [])
      .filter((result) => result.link)
      .map((result) => ({ title: result.title ?? "", link: result.link ?? "", snippet: result.snippet ?? "" }));
    return { results, text: resultsAsText(query, results) };
  },
});
