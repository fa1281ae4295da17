/**
 * Random secrets (session cookies, API tokens, invitation links) and how they are kept: only their SHA-256 is stored.
 * They carry 256 random bits, so a fast digest is enough (a slow password hash is for what people choose, see passwords.ts).
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** How every personal token begins (issued so since tokens exist): a bearer that does not is no account's token. */
export const PERSONAL_TOKEN_PREFIX = "stk_";

export function newSecret(prefix = ""): string {
  return prefix + randomBytes(32).toString("base64url");
}

export function digest(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/** Compares two secrets in time that does not depend on where they differ. */
export function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(createHash("sha256").update(a).digest(), createHash("sha256").update(b).digest());
}
