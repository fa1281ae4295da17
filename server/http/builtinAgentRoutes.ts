/** The built-in agents' webhook: the call is validated and accepted (202); the answer comes later by callback. */
import { Hono } from "hono";
import type { BuiltinAgents } from "../pipeline/agents/builtinWebhook";
import { AgentCall } from "../pipeline/schemas";
import { readBody } from "./errors";
import { builtinAgentPaths } from "./paths";

export function builtinAgentRoutes(agents: BuiltinAgents): Hono {
  const app = new Hono();
  app.post(builtinAgentPaths.agent.pattern, async (c) => {
    const call = await readBody(c, AgentCall, { invalidStatus: 422 });
    return c.json(agents.accept(c.req.param("slug"), call), 202);
  });
  return app;
}
