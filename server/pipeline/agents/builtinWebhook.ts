/**
 * The built-in agents. The pipeline's own calls to them are durable jobs: the dispatcher performs the call in the
 * process that claimed its dispatch (`draft`, through the pipeline's dispatch adapter, protocol.ts), renewing the
 * dispatch's lease while the agent drafts, so a process killed mid-draft leaves the dispatch to another process (or to
 * itself after a restart) once the lease lapses, and the draft is made again there.
 *
 * Behind their webhook (`accept`) they also speak the same webhook-and-callback protocol as n8n agents, for a caller
 * that posts a call to them: the call is accepted at once, the artifact is produced in the background, and the result
 * (or the failure) is POSTed to the call's callback_url with a few retries.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { LlmConfig } from "../../llm/chat";
import { PipelineError } from "../errors";
import type { AgentCall } from "../schemas";
import { produceArtifact } from "./builtin";
import { AgentRequest } from "./request";

export interface BuiltinAgentsOptions {
  slugs: readonly string[];
  /**
   * This server's callback URL for an agent (`/callbacks/agent/{slug}` under NEXT_PUBLIC_BASE_URL): the only
   * callback_url a built-in agent posts to, so that it never sends a draft elsewhere on a caller's say-so.
   */
  callbackUrl: (slug: string) => string;
  llm: LlmConfig | undefined;
  /** Attempts to deliver a result before giving up (the pipeline's timeout then fails the run visibly). */
  deliveryAttempts?: number;
  /** BUILTIN_AGENT_DELAY_MS: the least time each draft takes. */
  delayMs?: number;
}

/** What a built-in agent answers a call with: its output, or why it could not draft (an agent's callback body). */
export type BuiltinAnswer = { run_id: string; content: Record<string, unknown>; metadata: Record<string, unknown> } | { run_id: string; status: "failed"; error: string };

export class BuiltinAgents {
  constructor(private readonly options: BuiltinAgentsOptions) {}

  /** Accepts a call and answers it in the background; a callback_url other than this server's for the agent is refused first. */
  accept(slug: string, call: AgentCall): { accepted: true; run_id: string; agent: string } {
    if (!this.options.slugs.includes(slug)) throw new PipelineError("not_found", `no built-in agent "${slug}"`);
    const expected = this.options.callbackUrl(slug);
    if (!isCallbackUrl(call.callback_url, expected)) {
      throw new PipelineError("bad_request", `callback_url: the built-in agents call back only to this server, and agent "${slug}" only to ${expected} (with its ?call= and ?token=)`);
    }
    void this.answer(slug, call);
    return { accepted: true, run_id: call.run_id, agent: slug };
  }

  /**
   * Drafts the agent's answer to a call. `signal` aborts it (this process is stopping): it then throws, and the
   * answer is left to whoever performs the call again.
   */
  async draft(slug: string, call: AgentCall, signal?: AbortSignal): Promise<BuiltinAnswer> {
    if (this.options.delayMs) await sleep(this.options.delayMs, undefined, signal ? { signal } : {});
    signal?.throwIfAborted();
    try {
      // Read as an agent's request, so the reviewer's comments (when the call carries them) reach the agent.
      const { content, metadata } = await produceArtifact(slug as never, AgentRequest.parse(call), { llm: this.options.llm });
      return { run_id: call.run_id, content, metadata };
    } catch (error) {
      signal?.throwIfAborted();
      return { run_id: call.run_id, status: "failed", error: `built-in ${slug} agent: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  private async answer(slug: string, call: AgentCall): Promise<void> {
    await postWithRetries(call.callback_url, await this.draft(slug, call), this.options.deliveryAttempts ?? 4);
  }

  /** Whether `slug` is one of the built-in agents. */
  has(slug: string): boolean {
    return this.options.slugs.includes(slug);
  }
}

/** `url` is `expected` with, at most, a `call` and a `token` query parameter (the call's number and the pipeline's callback token). */
function isCallbackUrl(url: string, expected: string): boolean {
  let given: URL;
  try {
    given = new URL(url);
  } catch {
    return false;
  }
  const wanted = new URL(expected);
  const onlyToken = [...given.searchParams.keys()].every((key) => key === "token" || key === "call") && given.searchParams.getAll("token").length <= 1 && given.searchParams.getAll("call").length <= 1;
  return given.origin === wanted.origin && given.pathname === wanted.pathname && given.hash === "" && given.username === "" && given.password === "" && onlyToken;
}

async function postWithRetries(url: string, body: unknown, attempts: number): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body), signal: AbortSignal.timeout(30_000) });
      // 4xx means the pipeline refused the result (the run moved on); repeating it would change nothing.
      if (response.ok || (response.status >= 400 && response.status < 500)) return;
    } catch {
      // network trouble: retried below
    }
    if (attempt >= attempts) return;
    await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt));
  }
}
