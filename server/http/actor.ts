/**
 * Who is acting, as decisions are recorded: the signed-in account's name (or the bootstrap token's), identified by
 * the guard (server/http/guard.ts). No header or body field names the actor: `x-actor` and a review's `actor` are ignored.
 */
import type { Context } from "hono";
import { type Identity, anonymous } from "../people/schemas";

export function actorOf(c: Context): string | null {
  return (c.get("identity") as Identity | undefined)?.name ?? null;
}

/** Who starts a run, as the decisions it waits for name them: the signed-in account's id and name. */
export function starterOf(c: Context): { id: string | null; name: string | null } | null {
  const identity = c.get("identity") as Identity | undefined;
  return identity && identity.name !== null ? { id: identity.accountId, name: identity.name } : null;
}

/** Who takes a decision: the caller as the guard identified them (anonymous when no guard ran, which the doors refuse first). */
export function deciderOf(c: Context): Identity {
  return (c.get("identity") as Identity | undefined) ?? anonymous;
}
