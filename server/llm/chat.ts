/**
 * One chat completion through any OpenAI-compatible endpoint (OpenAI, Azure OpenAI, Ollama, vLLM, LM Studio, ...),
 * configured by LLM_BASE_URL, LLM_MODEL, LLM_API_KEY, LLM_TIMEOUT_MS. Shared by the pipeline's built-in agents and
 * the workflows' AI nodes; neither owns it. Every failure is an `LlmError` that says what went wrong and where, and
 * whether retrying the same request may help.
 */
import { z } from "zod";
import { ConfigError } from "../lib/configError";
import { describeZodError } from "../lib/zodIssues";

export const LlmConfig = z.object({
  /** Up to and including the API version, e.g. https://api.openai.com/v1; `/chat/completions` is appended. */
  baseUrl: z.string().url().regex(/^https?:\/\//i, "must start with http:// or https://"),
  apiKey: z.string().optional(),
  model: z.string().min(1),
  timeoutMs: z.number().int().positive(),
});
export type LlmConfig = z.infer<typeof LlmConfig>;

/** Undefined when LLM_BASE_URL is not set (callers then answer without a model); throws ConfigError on a bad value. */
export function llmConfigFromEnv(env: Record<string, string | undefined> = process.env): LlmConfig | undefined {
  const baseUrl = env.LLM_BASE_URL?.trim();
  if (!baseUrl) return undefined;
  const model = env.LLM_MODEL?.trim();
  if (!model) throw new ConfigError("LLM_MODEL is not set: LLM_BASE_URL is set, so name the model to use (for example gpt-4o-mini or llama3.1)");
  const timeout = env.LLM_TIMEOUT_MS?.trim() ? Number(env.LLM_TIMEOUT_MS) : 120_000;
  const parsed = LlmConfig.safeParse({ baseUrl: baseUrl.replace(/\/+$/, ""), apiKey: env.LLM_API_KEY?.trim() || undefined, model, timeoutMs: timeout });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) =>
      issue.path[0] === "baseUrl"
        ? "LLM_BASE_URL must be an absolute URL such as https://api.openai.com/v1"
        : issue.path[0] === "timeoutMs"
          ? "LLM_TIMEOUT_MS must be a positive whole number of milliseconds"
          : `${issue.path.join(".")}: ${issue.message}`,
    );
    throw new ConfigError(`LLM configuration error: ${problems.join("; ")}`);
  }
  return parsed.data;
}

/**
 * The model could not be reached, refused, or answered something unusable. `transient`: worth retrying (a timeout,
 * a network error, HTTP 408, 429 or 5xx); otherwise the same request will fail the same way (other HTTP statuses,
 * an answer that is not a chat completion, a refusal, an answer cut off or empty, a cancelled call, an answer the
 * caller cannot use). `status` is the HTTP status when the endpoint answered one; `retryAfterMs` its Retry-After.
 */
export class LlmError extends Error {
  override name = "LlmError";
  readonly transient: boolean;
  readonly status?: number;
  readonly retryAfterMs?: number;
  constructor(message: string, details: { transient?: boolean; status?: number; retryAfterMs?: number } = {}) {
    super(message);
    this.transient = details.transient ?? false;
    if (details.status !== undefined) this.status = details.status;
    if (details.retryAfterMs !== undefined) this.retryAfterMs = details.retryAfterMs;
  }
}

export function isTransientStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** At most `max` characters of `text`, whitespace collapsed: enough of an answer to say what it was. */
export function excerpt(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}...` : flat;
}

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export type ResponseFormat = { type: "text" } | { type: "json_object" } | { type: "json_schema"; json_schema: Record<string, unknown> };

export interface ChatRequest {
  messages: ChatMessage[];
  /** Overrides the configured LLM_MODEL. */
  model?: string;
  responseFormat?: ResponseFormat;
  temperature?: number;
}

export interface ChatOptions {
  /** Starts every error message, naming who asked (an agent's slug, a workflow node). */
  label: string;
  /** The caller's cancellation; a cancelled call fails with a permanent LlmError. */
  signal?: AbortSignal;
}

export interface ChatAnswer {
  /** The first choice's message, never blank. */
  content: string;
  /** The model that answered, as the endpoint reports it (else the one asked for). */
  model: string;
}

const ChatCompletion = z.object({
  model: z.string().optional(),
  choices: z
    .array(
      z.object({
        finish_reason: z.string().nullish(),
        message: z.object({ content: z.string().nullish(), refusal: z.string().nullish() }),
      }),
    )
    .min(1, "the answer has no choices"),
});

/** Where a provider's error body may say what went wrong: `{ error: { message } }` (the OpenAI format), `{ error }` or `{ message }`; anything else in it is ignored. */
const ProviderError = z.object({
  error: z.union([z.string(), z.object({ message: z.string() })]).optional().catch(undefined),
  message: z.string().optional().catch(undefined),
});

/** The provider's own error message when it sent one. */
function providerMessage(body: string): string {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    // not JSON: the raw text is the message
    return excerpt(body);
  }
  const parsed = ProviderError.safeParse(json);
  if (parsed.success) {
    const { error, message } = parsed.data;
    if (typeof error === "string") return error;
    if (error) return error.message;
    if (message !== undefined) return message;
  }
  return excerpt(body);
}

/** A Retry-After header (seconds or an HTTP date) in milliseconds. */
function retryAfter(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function causeOf(error: unknown): string {
  return error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
}

/** POSTs `<baseUrl>/chat/completions` and returns the first choice's message; throws LlmError on every failure. */
export async function chatCompletion(config: LlmConfig, request: ChatRequest, options: ChatOptions): Promise<ChatAnswer> {
  const { label, signal: cancel } = options;
  const url = `${config.baseUrl}/chat/completions`;
  const model = request.model ?? config.model;
  const body = {
    model,
    messages: request.messages,
    ...(request.responseFormat ? { response_format: request.responseFormat } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
  };
  const timeout = AbortSignal.timeout(config.timeoutMs);
  /** Why the call stopped when it was aborted (cancelled or timed out), else undefined. */
  const aborted = (): LlmError | undefined => {
    if (cancel?.aborted) return new LlmError(`${label}: the call to the LLM at ${url} was cancelled`);
    if (timeout.aborted) return new LlmError(`${label}: the LLM at ${url} did not answer within ${config.timeoutMs} ms (LLM_TIMEOUT_MS)`, { transient: true });
    return undefined;
  };
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}) },
      body: JSON.stringify(body),
      signal: cancel ? AbortSignal.any([timeout, cancel]) : timeout,
    });
  } catch (error) {
    throw aborted() ?? new LlmError(`${label}: could not reach the LLM at ${url}: ${causeOf(error)}`, { transient: true });
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw aborted() ?? new LlmError(`${label}: the LLM at ${url} broke off its answer: ${causeOf(error)}`, { transient: true });
  }
  if (!response.ok) {
    const { status } = response;
    const hint = status === 401 || status === 403 ? " (check LLM_API_KEY)" : status === 404 ? " (check LLM_BASE_URL and LLM_MODEL)" : "";
    const wait = retryAfter(response.headers.get("retry-after"));
    throw new LlmError(`${label}: the LLM at ${url} answered HTTP ${status}${hint}: ${providerMessage(text)}`, {
      transient: isTransientStatus(status),
      status,
      ...(wait !== undefined ? { retryAfterMs: wait } : {}),
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new LlmError(`${label}: the LLM at ${url} answered with something that is not JSON: ${excerpt(text)}`);
  }
  const parsed = ChatCompletion.safeParse(json);
  if (!parsed.success) {
    throw new LlmError(`${label}: the LLM at ${url} did not answer in the chat-completions format (${describeZodError(parsed.error, { root: "answer" })}): ${excerpt(text)}`);
  }
  const choice = parsed.data.choices[0];
  if (!choice) throw new LlmError(`${label}: the LLM's answer has no choices`);
  if (choice.message.refusal) throw new LlmError(`${label}: the model refused: ${choice.message.refusal}`);
  if (choice.finish_reason === "length") {
    throw new LlmError(`${label}: the model's answer was cut off at its output limit (finish_reason "length"); use a model with a larger output limit`);
  }
  const content = choice.message.content ?? "";
  if (content.trim() === "") throw new LlmError(`${label}: the model's answer is empty`);
  return { content, model: parsed.data.model ?? model };
}
