/**
 * Callback tokens: with STITCH_CALLBACK_SECRET set, each Worker's callback URL carries `?token=`, an HMAC of the run
 * and the node it answers for, and a callback without the right token is refused. Whoever holds the URL the engine
 * sent may answer for that node and no other; nobody can forge a callback for a run by guessing ids.
 * The token is the same for every attempt of a node, so a late or repeated callback still reaches the engine and is
 * answered as the duplicate it is.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export function callbackToken(secret: string, runId: string, nodeKey: string): string {
  return createHmac("sha256", secret).update(`stitch-callback\n${runId}\n${nodeKey}`).digest("base64url");
}

/** Compares in constant time; a missing or malformed token is simply not valid. */
export function isValidCallbackToken(secret: string, runId: string, nodeKey: string, token: string | undefined): boolean {
  if (!token) return false;
  const expected = Buffer.from(callbackToken(secret, runId, nodeKey));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
