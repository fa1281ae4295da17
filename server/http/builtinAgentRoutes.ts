/**
 * The built-in agents, served by this product over the same webhook-and-callback protocol as n8n agents:
 * the call is answered 202 at once, the artifact is produced in the background, and the result is POSTed to
 * the callback URL the call carried (with a few retries), so the pipeline cannot tell them from external agents.
 */
import { Hono } from "hono";
import { AgentCall } from "../pipeline/schemas";
import { produceArtifact } from "../pipeline/agents/builtin";
import type { LlmConfig } from "../pipeline/agents/llm";
import { readBody } from "./errors";

async function postWithRetries(url: string, body: unknown, attempts = 4): Promise<void> {
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

export function builtinAgentRoutes(slugs: readonly string[], llm: LlmConfig | undefined): Hono {
  const app = new Hono();
  app.post("/:slug", async (c) => {
    const slug = c.req.param("slug");
    if (!slugs.includes(slug)) return c.json({ error: "not_found", message: `no built-in agent "${slug}"`, detail: `no built-in agent "${slug}"` }, 404);
    const call = await readBody(c, AgentCall, { invalidStatus: 422 });
    void (async () => {
      try {
        const { content, metadata } = await produceArtifact(slug as never, { run_id: call.run_id, context: call.context, is_feedback: call.is_feedback, feedback: call.feedback }, { llm });
        await postWithRetries(call.callback_url, { run_id: call.run_id, content, metadata });
      } catch (error) {
        await postWithRetries(call.callback_url, { run_id: call.run_id, status: "failed", error: `built-in ${slug} agent: ${error instanceof Error ? error.message : String(error)}` });
      }
    })();
    return c.json({ accepted: true, run_id: call.run_id, agent: slug }, 202);
  });
  return app;
}
