/** Roles rank as on the server, the CSRF token travels once a session gave one, and a refusal of the caller is recognised. */
import { TRPCClientError } from "@trpc/client";
import { afterEach, describe, expect, it } from "vitest";
import { isAccessRefused, rememberCsrfToken, roleAllows, sessionHeaders } from "./session";
import type { Role } from "./trpc";

afterEach(() => rememberCsrfToken(null));

const refusal = (code: string, httpStatus: number) => TRPCClientError.from({ error: { code: -32001, message: "refused", data: { code, httpStatus } } });

describe("session", () => {
  it.each<[Role | null, Role, boolean]>([
    ["analyst", "analyst", true],
    ["analyst", "reviewer", false],
    ["reviewer", "reviewer", true],
    ["reviewer", "operator", false],
    ["operator", "reviewer", true],
    ["operator", "operator", true],
    [null, "analyst", false],
  ])("%s may do what %s may: %s", (role, needed, allowed) => {
    expect(roleAllows(role, needed)).toBe(allowed);
  });

  it("sends the session's CSRF token once there is one, and none after signing out", () => {
    expect(sessionHeaders()).toEqual({});
    rememberCsrfToken("csrf-1");
    expect(sessionHeaders()).toEqual({ "x-csrf-token": "csrf-1" });
    rememberCsrfToken(null);
    expect(sessionHeaders()).toEqual({});
  });

  it("tells a refusal of the caller (no session, a role that may not) from a refusal of the request", () => {
    expect(isAccessRefused(refusal("UNAUTHORIZED", 401))).toBe(true);
    expect(isAccessRefused(refusal("FORBIDDEN", 403))).toBe(true);
    expect(isAccessRefused(refusal("CONFLICT", 409))).toBe(false);
    expect(isAccessRefused(new Error("offline"))).toBe(false);
  });
});
