/**
 * Who is acting, as decisions are recorded: the signed-in account's name (or the bootstrap token's), identified by
 * the guard (server/http/guard.ts). No header or body field names the actor: `x-actor` and a review's `actor` are ignored.
 */
import type { Context } from "hono";
import { type Identity, anonymous } from "../people/schemas";

/** The caller as the guard identified it, for a command that decides by the caller's role itself. */
export function callerOf(c: Context): Identity {
  return (c.get("identity") as Identity | undefined) ?? anonymous;
}

export function actorOf(c: Context): string | null {
  return callerOf(c).name;
}

/** Who starts a run, as the decisions it waits for name them: the signed-in account's id and name. */
export function starterOf(c: Context): { id: string | null; name: string | null } | null {
  const { accountId, name } = callerOf(c);
  return name === null ? null : { id: accountId, name };
}

