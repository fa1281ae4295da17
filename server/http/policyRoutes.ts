/**
 * The instance's policy over REST: anyone signed in reads it, operators change it (`PUT`, audited as `policy.change`).
 * The app does the same through tRPC (server/trpc/routers/policy.ts); both call the policy's commands and queries.
 */
import { Hono } from "hono";
import type { Policy } from "../policy/policy";
import { PolicyChange } from "../policy/schemas";
import { readBody } from "./errors";
import type { GuardEnv } from "./guard";
import { policyPaths as paths } from "./paths";

export function policyRoutes(policy: Pick<Policy, "commands" | "queries">): Hono<GuardEnv> {
  const app = new Hono<GuardEnv>();
  app.get(paths.policy.pattern, async (c) => c.json(await policy.queries.get()));
  app.put(paths.policy.pattern, async (c) => c.json(await policy.commands.change(c.get("identity"), await readBody(c, PolicyChange))));
  return app;
}
