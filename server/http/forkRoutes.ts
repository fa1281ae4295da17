/**
 * Forks of runs over REST: parse, authenticate (the guard, by access.ts) and delegate to the flows' fork commands
 * and queries, where the rules are (server/flows/forkCommands.ts; the rule is server/forks/rule.ts).
 */
import { Hono } from "hono";
import type { Flows } from "../flows/flows";
import { CompareQuery, ForkBody, ForkFailedBody } from "../forks/schemas";
import { callerOf } from "./actor";
import { readBody, readQuery } from "./errors";
import { forkPaths as paths } from "./paths";

export function forkRoutes(forks: Flows["forks"]): Hono {
  const app = new Hono();
  app.get(paths.compare.pattern, async (c) => {
    const { a, b } = readQuery(c, CompareQuery);
    return c.json(await forks.queries.compare(a, b));
  });
  app.post(paths.forkFailed.pattern, async (c) => c.json(await forks.commands.forkFailed(await readBody(c, ForkFailedBody), callerOf(c))));
  app.post(paths.fork.pattern, async (c) => c.json(await forks.commands.fork(c.req.param("run_id"), await readBody(c, ForkBody), callerOf(c)), 201));
  app.get(paths.lineage.pattern, async (c) => c.json(await forks.queries.lineage(c.req.param("run_id"))));
  return app;
}
