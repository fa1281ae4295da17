/**
 * The only tRPC building blocks the routers may use: a procedure per role (analyst < reviewer < operator) and the
 * open one for signing in. Every front door's refusals become typed tRPC errors here, and every mutation is recorded
 * in the audit trail, accepted (in the transaction that makes the change) or refused.
 */
import { TRPCError, initTRPC } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { ZodError } from "zod";
import { withAuditScope } from "../audit/scope";
import type { TargetKind } from "../audit/schemas";
import { subjectOf } from "../audit/subject";
import { unavailableRefusal } from "../lib/databaseErrors";
import { isPlainObject } from "../lib/json";
import { Refusal } from "../lib/refusal";
import { requireRole } from "../people/roles";
import type { Role } from "../people/schemas";
import type { AppContext } from "./context";

/** `changes: false` marks a mutation that changes nothing (a definition's validation), which the audit trail skips. */
export interface ProcedureMeta {
  changes?: boolean;
}

const t = initTRPC.context<AppContext>().meta<ProcedureMeta>().create({
  // Errors tell clients what went wrong, never how the server is built: no stack traces, whatever NODE_ENV says.
  isDev: false,
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    // An internal error's message may hold SQL and its parameters: the server's log gets it, the caller "internal error".
    const internal = error.code === "INTERNAL_SERVER_ERROR";
    if (internal) console.error(cause ?? error);
    return {
      ...shape,
      message: internal ? "internal error" : shape.message,
      data: {
        ...shape.data,
        zodError: cause instanceof ZodError ? cause.flatten() : null,
        refusalCode: cause instanceof Refusal ? (cause.answerCode ?? cause.code) : null,
        refusalDetails: cause instanceof Refusal ? (cause.details ?? null) : null,
      },
    };
  },
});

/**
 * Refusals keep their message and take the tRPC code of their refusal code (NOT_FOUND, CONFLICT, BAD_REQUEST, ...); a
 * database that cannot be reached is SERVICE_UNAVAILABLE (503, with Retry-After: see retryAfter).
 */
const refusals = t.middleware(async ({ next }) => {
  const result = await next();
  if (result.ok) return result;
  const cause = unavailableRefusal(result.error.cause) ?? result.error.cause;
  if (cause instanceof Refusal) throw new TRPCError({ code: cause.trpcCode, message: cause.message, cause });
  return result;
});

/** The Retry-After of a tRPC answer whose errors include a refusal that sets one (the database is away). */
export function retryAfter(errors: readonly TRPCError[]): Record<string, string> {
  const seconds = errors.map((e) => (e.cause instanceof Refusal ? e.cause.retryAfterSeconds : undefined)).find((s) => s !== undefined);
  return seconds === undefined ? {} : { "retry-after": String(seconds) };
}

/** The input fields that name what a mutation acts on, in the order they are looked for. */
const targetFields: [string, TargetKind][] = [
  ["decisionId", "decision"],
  ["commentId", "comment"],
  ["subscriptionId", "subscription"],
  ["runId", "run"],
  ["stitchRunId", "run"],
  ["flowId", "flow"],
  ["accountId", "account"],
  ["tokenId", "token"],
  ["email", "account"],
  ["name", "workflow"],
];

function targetOf(input: unknown): { kind: TargetKind; id: string } | null {
  if (!isPlainObject(input)) return null;
  for (const [field, kind] of targetFields) {
    const value = input[field];
    if (typeof value === "string") return { kind, id: value };
  }
  return null;
}

/** Every mutation runs in an audit scope; its outcome is recorded once it ends (see server/audit/auditedDatabase). */
const audited = t.middleware(async ({ ctx, type, path, meta, getRawInput, next }) => {
  if (type !== "mutation" || meta?.changes === false) return next();
  const { identity, origin } = ctx;
  const target = targetOf(await getRawInput().catch(() => undefined));
  const subject = subjectOf(identity, origin, path, target);
  return withAuditScope(subject, async (scope) => {
    if (ctx.crossSite) {
      const refusal = ctx.crossSite;
      await ctx.audit.finish(scope, { outcome: "refused", status: refusal.httpStatus, message: refusal.message });
      throw new TRPCError({ code: refusal.trpcCode, message: refusal.message, cause: refusal });
    }
    const result: Awaited<ReturnType<typeof next>> = await next();
    if (result.ok) await ctx.audit.finish(scope, { outcome: "accepted", status: 200, message: null });
    else {
      const cause = result.error.cause;
      const status = cause instanceof Refusal ? cause.httpStatus : getHTTPStatusCodeFromError(result.error);
      await ctx.audit.finish(scope, { outcome: "refused", status, message: status >= 500 ? "internal error" : result.error.message });
    }
    return result;
  });
});

function roleDoor(role: Role) {
  return t.middleware(({ ctx, next }) => {
    requireRole(ctx.identity, role);
    return next();
  });
}

export const router = t.router;
/** Anyone: what the app needs before someone has signed in (the sign-in itself, the first account, an invitation). */
export const openProcedure = t.procedure.use(refusals).use(audited);
export const analystProcedure = openProcedure.use(roleDoor("analyst"));
export const reviewerProcedure = openProcedure.use(roleDoor("reviewer"));
export const operatorProcedure = openProcedure.use(roleDoor("operator"));
export const createCallerFactory = t.createCallerFactory;
