/**
 * Text completions for AI nodes (prompt, command, loop): one chat completion through the OpenAI-compatible endpoint
 * the built-in agents use (LLM_BASE_URL, LLM_API_KEY, LLM_MODEL, LLM_TIMEOUT_MS: `llmConfigFromEnv` in server/llm/chat),
 * or, with no endpoint configured, the offline responder.
 *
 * The offline responder answers deterministically: the same request always gets the same text. The text starts by
 * saying it is offline, then echoes the prompt's shape (its line and character counts, a fingerprint of the whole
 * request, the conversation turn) and its first lines. When the request asks for a completion signal, the answer
 * ends with it on its own last line, on every call, so an offline loop completes after its first iteration. The
 * signal is `completionSignal` when given, else the first of, in the system text and the prompt:
 *   - `<promise>X</promise>`: answered as `<promise>X</promise>`;
 *   - "say/output/print/write/reply with/respond with/answer with/end with X when|once|if|after ..." or
 *     "when/once you are done|finished|complete, say/output/... X", where X is an upper-case word (DONE, COMPLETE):
 *     answered as `X` on its own line.
 */
import { createHash } from "node:crypto";
import { type ChatMessage, type LlmConfig, chatCompletion } from "../../llm/chat";

export type { ChatMessage };

export interface CompletionRequest {
  prompt: string;
  system?: string;
  /** Overrides the configured LLM_MODEL. */
  model?: string;
  /** Earlier turns, oldest first; the prompt follows them as the user's turn. */
  history?: ChatMessage[];
  /** The loop's `until`: the offline responder ends its answer with it (the LLM only sees the prompt). */
  completionSignal?: string;
}

export interface Completion {
  text: string;
  responder: "llm" | "offline";
  /** The model that answered (as the endpoint reports it); absent offline. */
  model?: string;
}

export interface CompletionOptions {
  /** Cancels the call to the endpoint. */
  signal?: AbortSignal;
  /** Starts the message of a failure (the node that asked, say); "workflow" when absent. */
  label?: string;
}

/**
 * The endpoint's answer to the request, or the offline responder's without an endpoint. A failed call throws the
 * `LlmError` of server/llm/chat: `transient` says whether retrying may help, `status` and `retryAfterMs` what the
 * endpoint answered.
 */
export async function complete(request: CompletionRequest, config: LlmConfig | undefined, options: CompletionOptions = {}): Promise<Completion> {
  if (!config) return { text: offlineAnswer(request), responder: "offline" };
  const messages: ChatMessage[] = [
    ...(request.system ? [{ role: "system" as const, content: request.system }] : []),
    ...(request.history ?? []),
    { role: "user", content: request.prompt },
  ];
  const answer = await chatCompletion(config, { messages, model: request.model }, { label: options.label ?? "workflow", signal: options.signal });
  return { text: answer.content, responder: "llm", model: answer.model };
}

// ---- offline ---------------------------------------------------------------------------------------------

const OFFLINE_NOTICE = "[offline responder: no LLM is configured (LLM_BASE_URL is not set), so this is a deterministic echo of the prompt, not a model's answer]";
const ECHOED_LINES = 3;
const ECHOED_LINE_CHARS = 200;

const SIGNAL_VERB = String.raw`(?:say|output|print|write|reply with|respond with|answer with|end with)`;
const SIGNAL_WORD = String.raw`["'\x60*]*([A-Za-z][A-Za-z0-9_-]*)["'\x60*]*`;
const SIGNAL_PHRASES = [
  new RegExp(String.raw`\b${SIGNAL_VERB}\s+(?:the word\s+)?${SIGNAL_WORD}\s+(?:when|once|if|after)\b`, "gi"),
  new RegExp(String.raw`\b(?:when|once)\s+(?:you are|you're|you have|everything is|it is|all is)?\s*(?:done|finished|complete|completed)\s*[,:]?\s*${SIGNAL_VERB}\s+(?:the word\s+)?${SIGNAL_WORD}`, "gi"),
];

/** The completion signal the request asks for, and whether to answer it in `<promise>` tags. */
export function requestedSignal(request: CompletionRequest): { signal: string; promise: boolean } | undefined {
  const text = [request.system ?? "", request.prompt].join("\n");
  const promised = /<promise>\s*([^<\s][^<]*?)\s*<\/promise>/.exec(text)?.[1];
  if (request.completionSignal?.trim()) return { signal: request.completionSignal.trim(), promise: promised !== undefined };
  if (promised) return { signal: promised, promise: true };
  for (const phrase of SIGNAL_PHRASES) {
    for (const match of text.matchAll(phrase)) {
      const word = match[1];
      if (word && word === word.toUpperCase() && /[A-Z]/.test(word)) return { signal: word, promise: false };
    }
  }
  return undefined;
}

/** The offline responder's answer (see the top of this file). */
export function offlineAnswer(request: CompletionRequest): string {
  const fingerprint = createHash("sha256")
    .update(JSON.stringify([request.system ?? "", request.history ?? [], request.prompt]))
    .digest("hex")
    .slice(0, 12);
  const lines = request.prompt.split(/\r?\n/);
  const firstLines = lines
    .map((line) => line.trim())
    .filter(Boolean)
    .slice(0, ECHOED_LINES)
    .map((line) => `> ${line.length > ECHOED_LINE_CHARS ? `${line.slice(0, ECHOED_LINE_CHARS)}...` : line}`);
  const turn = 1 + (request.history ?? []).filter((message) => message.role === "assistant").length;
  const answer = [
    OFFLINE_NOTICE,
    `Prompt: ${lines.length} line${lines.length === 1 ? "" : "s"}, ${request.prompt.length} characters, turn ${turn}, fingerprint ${fingerprint}.`,
    ...(firstLines.length ? ["It begins:", ...firstLines] : ["The prompt is empty."]),
  ];
  const wanted = requestedSignal(request);
  if (wanted) answer.push(wanted.promise ? `<promise>${wanted.signal}</promise>` : wanted.signal);
  return answer.join("\n");
}
