/**
 * The HTTP door's checks before any route runs: who is calling (session cookie, personal token, bootstrap token),
 * whether a cookie-authenticated change carries its CSRF token and comes from this site, whether the caller's role
 * may do what the route does (server/http/access.ts), and the audit entry of every state change, accepted or refused.
 */
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context, Hono, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import type { AuditTrail } from "../audit/trail";
import { type AuditScope, inAuditScope, newAuditScope } from "../audit/scope";
import type { AuditOutcome } from "../audit/schemas";
import { subjectOf } from "../audit/subject";
import { Refusal } from "../lib/refusal";
import type { People } from "../people/people";
import type { RequestOrigin } from "../people/commands";
import { requireRole } from "../people/roles";
import type { Identity } from "../people/schemas";
import { type AccessRule, type Admits, accessRules } from "./access";
import { HttpError } from "./errors";

export const SESSION_COOKIE = "stitch_session";
export const CSRF_HEADER = "x-csrf-token";

export type GuardEnv = { Variables: { identity: Identity; crossSite: CrossSiteError | null } };

/** Where the guard leaves a request's audit scope for a route whose rule hands it to its command (`auditScopeOf`). */
const AUDIT_SCOPE = "auditScope";

declare module "hono" {
  interface ContextVariableMap {
    [AUDIT_SCOPE]: AuditScope;
  }
}

/** A change that may not be made from where it came: another site, a form, a cookie without its CSRF token. */
export class CrossSiteError extends Refusal<"forbidden" | "unsupported_media_type"> {
  override name = "CrossSiteError";
}

const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);

export function requestOrigin(c: Context): RequestOrigin {
  let address: string | null = null;
  try {
    address = getConnInfo(c).remote.address ?? null;
  } catch {
    address = null; // not served by node (app.request in a test)
  }
  return { address, userAgent: c.req.header("user-agent") ?? null };
}

/** The credentials a request carries: a bearer token wins over a cookie, so a script's token is never mistaken for a browser. */
export function credentialsOf(c: Context) {
  const authorization = c.req.header("authorization");
  const bearer = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] : undefined;
  return { bearer, session: getCookie(c, SESSION_COOKIE) };
}

/**
 * Cross-site requests may not change anything with a visitor's cookie: a state change authenticated by a session
 * must carry the session's CSRF token, any state change naming an Origin must name this one, and a change not sent
 * with a bearer token must be JSON (which a cross-site page cannot send without the server's consent).
 */
export function checkCrossSite(c: Context, identity: Identity, bearer: string | undefined): void {
  if (safeMethods.has(c.req.method)) return;
  const origin = c.req.header("origin");
  if (origin && origin !== "null") {
    let host: string | undefined;
    try {
      host = new URL(origin).host;
    } catch {
      host = undefined;
    }
    if (host !== c.req.header("host")) throw new CrossSiteError("forbidden", "cross-site request refused: this change must come from the app itself");
  }
  // A cross-site form or a `no-cors` fetch can only send form and text bodies: changes take JSON, unless sent with a token.
  if (!bearer) {
    const type = c.req.header("content-type");
    const length = Number(c.req.header("content-length") ?? 0);
    if (type ? !/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type) : length > 0) {
      throw new CrossSiteError("unsupported_media_type", "send the request body as application/json");
    }
  }
  if (identity.kind === "session" && c.req.header(CSRF_HEADER) !== identity.csrfToken) {
    throw new CrossSiteError("forbidden", `missing or wrong ${CSRF_HEADER} header: a change made with a session cookie must carry the session's CSRF token`);
  }
}

/**
 * Identifies the caller of every request, and notes whether it is a cross-site change, which the door of the route or
 * procedure refuses inside its audit scope (so the refusal is recorded).
 */
export function identify(people: People): MiddlewareHandler<GuardEnv> {
  return async (c, next) => {
    const credentials = credentialsOf(c);
    const identity = await people.queries.identify(credentials);
    c.set("identity", identity);
    try {
      checkCrossSite(c, identity, credentials.bearer);
      c.set("crossSite", null);
    } catch (error) {
      if (!(error instanceof CrossSiteError)) throw error;
      c.set("crossSite", error);
    }
    await next();
  };
}

/** How an ended request is recorded: refused with its status and message, or accepted. */
export function outcomeOf(status: number, error: unknown): AuditOutcome {
  if (status < 400 && !error) return { outcome: "accepted", status, message: null };
  const message = error instanceof Refusal || error instanceof HttpError ? error.message : status >= 500 ? "internal error" : null;
  return { outcome: "refused", status, message };
}

/** The status a refusal thrown before the route is answered with. */
const statusOf = (error: unknown) => (error instanceof Refusal ? error.httpStatus : error instanceof HttpError ? error.status : 400);

/** Refuses a caller whose role may not pass this door (doors for machines and open doors let anyone through). */
export function authorize(identity: Identity, admits: Admits): void {
  if (typeof admits === "object" && "role" in admits) requireRole(identity, admits.role);
}

function ruleMiddleware(rule: AccessRule, trail: AuditTrail): MiddlewareHandler<GuardEnv> {
  return async (c, next) => {
    const identity = c.get("identity");
    const check = () => {
      const crossSite = c.get("crossSite");
      if (crossSite) throw crossSite;
      authorize(identity, rule.admits);
    };
    const action = rule.action;
    if (!action) {
      check();
      return next();
    }
    const caller = typeof rule.admits === "object" && "caller" in rule.admits ? rule.admits.caller : undefined;
    const target = rule.target ? { kind: rule.target.kind, id: c.req.param(rule.target.param) ?? "" } : null;
    const subject = () => subjectOf(identity, requestOrigin(c), action, target, caller);
    // A worker's accepted callback is recorded once, where it counts: the run's event log (the engine applies callbacks
    // in batches, in no request's scope). Its door has no audit scope and names its subject only to record a refusal.
    const scope = caller === "worker" ? undefined : newAuditScope(subject());
    const finish = async (outcome: AuditOutcome) => {
      if (scope) await trail.finish(scope, outcome);
      else if (outcome.outcome === "refused") await trail.record(subject(), outcome);
    };
    const act = async () => {
      try {
        check();
      } catch (error) {
        await finish(outcomeOf(statusOf(error), error));
        throw error;
      }
      await next();
      await finish(outcomeOf(c.res.status, c.error));
    };
    if (!scope) return act();
    // A door whose command is handed the scope runs outside its async context (see AccessRule's `scope`).
    if (rule.scope === "handed") {
      c.set(AUDIT_SCOPE, scope);
      return act();
    }
    return inAuditScope(scope, act);
  };
}

/** The request's audit scope, for a route whose rule hands it to its command (AccessRule's `scope: "handed"`). */
export function auditScopeOf(c: Context): AuditScope {
  const scope = c.get(AUDIT_SCOPE) as AuditScope | undefined;
  if (!scope) throw new Error(`${c.req.method} ${c.req.routePath} has no handed audit scope: its access rule must say scope: "handed"`);
  return scope;
}

/** Puts each rule's check in front of its route; call before the routes are mounted. */
export function guardRoutes(app: Hono<GuardEnv>, trail: AuditTrail, rules: AccessRule[] = accessRules): void {
  for (const rule of rules) app.on(rule.method, rule.path.pattern, ruleMiddleware(rule, trail));
}

/** Every route must have a rule: a route added without one stops start-up rather than being open to anyone. */
export function assertEveryRouteGuarded(app: Hono<GuardEnv>, exempt: (path: string) => boolean, rules: AccessRule[] = accessRules): void {
  const known = new Set(rules.map((rule) => `${rule.method} ${rule.path.pattern}`));
  const missing = app.routes
    .filter((route) => route.method !== "ALL" && !exempt(route.path))
    .map((route) => `${route.method} ${route.path}`)
    .filter((key) => !known.has(key));
  if (missing.length) throw new Error(`routes without an access rule in server/http/access.ts: ${[...new Set(missing)].join(", ")}`);
}
