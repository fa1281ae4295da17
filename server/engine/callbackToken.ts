/**
 * Callback tokens: with STITCH_CALLBACK_SECRET set, each Worker's callback URL carries `?token=`, an HMAC of the run
 * and the node it answers for, and a callback without the right token is refused. Whoever holds the URL the engine
 * sent may answer for that node and no other; nobody can forge a callback for a run by guessing ids.
 * The token is the same for every attempt of a node, so a late or repeated callback still reaches the engine and is
 * answered as the duplicate it is.
 *
 * `scopedToken` is the construction itself, for any callback a secret authenticates: an HMAC-SHA256 of a purpose and
 * the ids the callback is bound to, one per line. The agent pipeline binds its agents' callbacks the same way
 * (PIPELINE_CALLBACK_SECRET, pipeline/protocol.ts).
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** The token of `scope` (a purpose, then the ids it binds) under `secret`, base64url. */
export function scopedToken(secret: string, scope: readonly string[]): string {
  return createHmac("sha256", secret).update(scope.join("\n")).digest("base64url");
}

/** Compares in constant time; a missing or malformed token is simply not valid. */
export function isValidScopedToken(secret: string, scope: readonly string[], token: string | undefined): boolean {
  if (!token) return false;
  const expected = Buffer.from(scopedToken(secret, scope));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The token (`token=` query parameter or `Authorization: Bearer`) a callback request presents, if any. */
export function presentedToken(query: string | undefined, authorization: string | undefined): string | undefined {
  return query ?? /^Bearer\s+(\S+)$/i.exec(authorization ?? "")?.[1];
}

const workerScope = (runId: string, nodeKey: string) => ["stitch-callback", runId, nodeKey];

export function callbackToken(secret: string, runId: string, nodeKey: string): string {
  return scopedToken(secret, workerScope(runId, nodeKey));
}

export function isValidCallbackToken(secret: string, runId: string, nodeKey: string, token: string | undefined): boolean {
  return isValidScopedToken(secret, workerScope(runId, nodeKey), token);
}
