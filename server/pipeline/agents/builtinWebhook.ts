/**
 * The built-in agents behind their webhook, speaking the same webhook-and-callback protocol as n8n agents: a call
 * is accepted at once, the artifact is produced in the background, and the result (or the failure) is POSTed to the
 * call's callback_url with a few retries, so the pipeline cannot tell them from external agents.
 */
import type { LlmConfig } from "../../llm/chat";
import { PipelineError } from "../errors";
import type { AgentCall } from "../schemas";
import { produceArtifact } from "./builtin";

export interface BuiltinAgentsOptions {
  slugs: readonly string[];
  llm: LlmConfig | undefined;
  /** Attempts to deliver a result before giving up (the pipeline's timeout then fails the run visibly). */
  deliveryAttempts?: number;
}

export class BuiltinAgents {
  constructor(private readonly options: BuiltinAgentsOptions) {}

  /** Accepts a call and answers it in the background. */
  accept(slug: string, call: AgentCall): { accepted: true; run_id: string; agent: string } {
    if (!this.options.slugs.includes(slug)) throw new PipelineError("not_found", `no built-in agent "${slug}"`);
    void this.answer(slug, call);
    return { accepted: true, run_id: call.run_id, agent: slug };
  }

  private async answer(slug: string, call: AgentCall): Promise<void> {
    let result: unknown;
    try {
      const { content, metadata } = await produceArtifact(slug as never, { run_id: call.run_id, context: call.context, is_feedback: call.is_feedback, feedback: call.feedback }, { llm: this.options.llm });
      result = { run_id: call.run_id, content, metadata };
    } catch (error) {
      result = { run_id: call.run_id, status: "failed", error: `built-in ${slug} agent: ${error instanceof Error ? error.message : String(error)}` };
    }
    await postWithRetries(call.callback_url, result, this.options.deliveryAttempts ?? 4);
  }
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
