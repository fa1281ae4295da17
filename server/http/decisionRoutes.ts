/** The reviewer's inbox over REST: the decisions waiting (or taken), read with the caller's roles. */
import { Hono } from "hono";
import type { DecisionCommands } from "../decisions/commands";
import type { DecisionQueries } from "../decisions/queries";
import { AssignBody, DecideBody, DecisionActivityQuery, DecisionListQuery } from "../decisions/schemas";
import { describeZodError } from "../lib/zodIssues";
import { HttpError, readBody } from "./errors";
import type { GuardEnv } from "./guard";
import { decisionPaths as paths } from "./paths";

export function decisionRoutes(decisions: DecisionQueries, commands: DecisionCommands): Hono<GuardEnv> {
  const app = new Hono<GuardEnv>();
  app.get(paths.decisions.pattern, async (c) => {
    const query = DecisionListQuery.safeParse(c.req.query());
    if (!query.success) throw new HttpError(400, "invalid_query", describeZodError(query.error));
    return c.json(await decisions.list(c.get("identity"), query.data));
  });
  app.get(paths.activity.pattern, async (c) => {
    const query = DecisionActivityQuery.safeParse(c.req.query());
    if (!query.success) throw new HttpError(400, "invalid_query", describeZodError(query.error));
    return c.json(await decisions.activity(query.data.run_id));
  });
  app.get(paths.decision.pattern, async (c) => c.json(await decisions.get(c.req.param("id"))));
  app.post(paths.claim.pattern, async (c) => c.json(await commands.claim(c.req.param("id"), c.get("identity"))));
  app.post(paths.release.pattern, async (c) => c.json(await commands.release(c.req.param("id"), c.get("identity"))));
  app.post(paths.assign.pattern, async (c) => c.json(await commands.assign(c.req.param("id"), await readBody(c, AssignBody), c.get("identity"))));
  app.post(paths.decide.pattern, async (c) => c.json(await commands.decide(c.req.param("id"), await readBody(c, DecideBody), c.get("identity"))));
  return app;
}
