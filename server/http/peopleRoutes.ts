/**
 * Signing in and out over REST (for scripts that prefer a session to a token), who is signed in, and the audit trail
 * for operators. The app does the same through tRPC (server/trpc/routers/auth.ts).
 */
import { Hono } from "hono";
import { AuditFilter } from "../audit/schemas";
import type { AuditTrail } from "../audit/trail";
import type { People } from "../people/people";
import { SignInBody } from "../people/schemas";
import { HttpError, readBody } from "./errors";
import { type GuardEnv, requestOrigin } from "./guard";
import { peoplePaths as paths } from "./paths";
import { clearedSessionCookie, isHttps, sessionCookie } from "./sessionCookie";
import { describeZodError } from "../lib/zodIssues";

export function peopleRoutes(people: People, trail: AuditTrail): Hono<GuardEnv> {
  const app = new Hono<GuardEnv>();
  const https = (c: { req: { url: string; header(name: string): string | undefined } }) => isHttps(c.req.url, c.req.header("x-forwarded-proto"));

  app.post(paths.signIn.pattern, async (c) => {
    const session = await people.commands.signIn(await readBody(c, SignInBody), requestOrigin(c));
    c.header("set-cookie", sessionCookie(session.token, session.expiresAt, https(c)));
    return c.json({ account: session.account, csrf_token: session.csrfToken, expires_at: session.expiresAt.toISOString() });
  });
  app.post(paths.signOut.pattern, async (c) => {
    await people.commands.signOut(c.get("identity"));
    c.header("set-cookie", clearedSessionCookie(https(c)));
    return c.json({ signed_out: true });
  });
  app.get(paths.session.pattern, async (c) => c.json(await people.queries.status(c.get("identity"))));
  app.get(paths.audit.pattern, async (c) => {
    const filter = AuditFilter.safeParse({ ...c.req.query(), accountId: c.req.query("account_id") });
    if (!filter.success) throw new HttpError(400, "invalid_query", describeZodError(filter.error));
    return c.json(await trail.list(filter.data));
  });
  return app;
}
