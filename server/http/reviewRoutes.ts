/** Inline review over REST: the output a decision reviews, comments on its parts, the caller's draft, edits and diffs. */
import { Hono } from "hono";
import { describeZodError } from "../lib/zodIssues";
import type { Review } from "../review/review";
import { CommentBody, DiffQuery, DraftBody, EditBody } from "../review/schemas";
import { HttpError, readBody } from "./errors";
import type { GuardEnv } from "./guard";
import { reviewPaths as paths } from "./paths";

export function reviewRoutes(review: Review): Hono<GuardEnv> {
  const app = new Hono<GuardEnv>();
  const { queries, commands } = review;
  app.get(paths.output.pattern, async (c) => c.json(await queries.output(c.req.param("id"), c.get("identity"))));
  app.get(paths.comments.pattern, async (c) => c.json(await queries.comments(c.req.param("id"))));
  app.post(paths.comments.pattern, async (c) => c.json(await commands.comment(c.req.param("id"), await readBody(c, CommentBody), c.get("identity")), 201));
  app.get(paths.draft.pattern, async (c) => c.json(await queries.draft(c.req.param("id"), c.get("identity"))));
  app.put(paths.draft.pattern, async (c) => c.json(await commands.saveDraft(c.req.param("id"), (await readBody(c, DraftBody)).text, c.get("identity"))));
  app.post(paths.edit.pattern, async (c) => c.json(await commands.edit(c.req.param("id"), await readBody(c, EditBody), c.get("identity"))));
  app.post(paths.editCheck.pattern, async (c) => c.json(await queries.checkEdit(c.req.param("id"), (await readBody(c, EditBody)).output)));
  app.get(paths.diff.pattern, async (c) => {
    const query = DiffQuery.safeParse(c.req.query());
    if (!query.success) throw new HttpError(400, "invalid_query", describeZodError(query.error));
    return c.json(await queries.diff(c.req.param("id"), query.data));
  });
  app.post(paths.resolve.pattern, async (c) => c.json(await commands.resolve(c.req.param("id"), c.get("identity"))));
  app.post(paths.reopen.pattern, async (c) => c.json(await commands.reopen(c.req.param("id"), c.get("identity"))));
  return app;
}
