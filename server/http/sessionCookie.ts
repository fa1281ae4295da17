/**
 * The session cookie: HTTP-only (scripts in the page cannot read it), SameSite=Lax (cross-site subrequests do not
 * carry it), Secure when the server is reached over https, scoped to the whole site, expiring with its session.
 */
import { serialize } from "hono/utils/cookie";
import { SESSION_COOKIE } from "./guard";

export function sessionCookie(token: string, expiresAt: Date, secure: boolean): string {
  return serialize(SESSION_COOKIE, token, { httpOnly: true, sameSite: "Lax", secure, path: "/", expires: expiresAt });
}

export function clearedSessionCookie(secure: boolean): string {
  return serialize(SESSION_COOKIE, "", { httpOnly: true, sameSite: "Lax", secure, path: "/", maxAge: 0 });
}

/** Whether the browser reached this server over https (directly, or through a proxy that says so). */
export function isHttps(url: string, forwardedProto: string | undefined): boolean {
  return url.startsWith("https:") || forwardedProto?.split(",")[0]?.trim() === "https";
}
