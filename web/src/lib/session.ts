/**
 * Who is signed in, for the whole app. The session's CSRF token, which the tRPC client sends as `x-csrf-token` with
 * every call (the server refuses a change made with the session cookie without it), is remembered here whenever the
 * server answers with it: `auth.status`, and the first account, a sign-in or an accepted invitation. The signed-in
 * person and their role are React context, so any view can ask `useCan("reviewer")` before offering what a role may
 * not do. Hiding is for the person in front of the screen, not a defence: the server refuses it either way.
 */
import { type QueryKey, partialMatchKey } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import { getQueryKey } from "@trpc/react-query";
import { createContext, useContext } from "react";
import { type Me, type Role, trpc } from "./trpc";

export const csrfHeader = "x-csrf-token";

let csrfToken: string | null = null;

/** Remembers the CSRF token of the session the server answered with (null once no one is signed in by a session). */
export function rememberCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** Headers for every tRPC request: the session's CSRF token, once there is one. */
export function sessionHeaders(): Record<string, string> {
  return csrfToken ? { [csrfHeader]: csrfToken } : {};
}

/** The filter of the `auth.status` query, which says who is signed in. */
export const authStatusQuery = { queryKey: getQueryKey(trpc.auth.status) };

export const isAuthStatusQuery = (query: { queryKey: QueryKey }) => partialMatchKey(query.queryKey, authStatusQuery.queryKey);

/**
 * True when the server refused the caller rather than the request: no one is signed in (the session ended), or the
 * role may not (it was changed since the app last asked), or the session's CSRF token is not the one sent.
 */
export function isAccessRefused(error: unknown): boolean {
  const code = error instanceof TRPCClientError ? (error.data as { code?: string } | undefined)?.code : undefined;
  return code === "UNAUTHORIZED" || code === "FORBIDDEN";
}

/** Each role may do everything the one before it may: analyst < reviewer < operator, as on the server. */
const rank: Record<Role, number> = { analyst: 1, reviewer: 2, operator: 3 };

export function roleAllows(role: Role | null | undefined, needed: Role): boolean {
  return !!role && rank[role] >= rank[needed];
}

export const roles: Role[] = ["analyst", "reviewer", "operator"];

/** What each role is for, in a phrase after its name. */
export const roleDescriptions: Record<Role, string> = {
  analyst: "submits briefs, starts workflows, reads runs and downloads exports",
  reviewer: "does what an analyst does, and approves, requests changes and answers the nodes waiting for a person",
  operator: "does everything: retries, cancels, resumes, registers workflows, manages people and tokens, reads the audit trail",
};

/** "an analyst", "a reviewer", "an operator". */
export const withArticle = (role: Role) => `${/^[aeiou]/.test(role) ? "an" : "a"} ${role}`;

/**
 * The signed-in person, provided by the app's sign-in gate. Outside it (a component rendered on its own, as in a
 * component test) there is no gate, and nothing is hidden.
 */
const SessionContext = createContext<Me | null | undefined>(undefined);
export const SessionProvider = SessionContext.Provider;

export function useMe(): Me | null {
  return useContext(SessionContext) ?? null;
}

/** The signed-in person, null for no one, and undefined outside the sign-in gate (where nothing is hidden). */
export function useSession(): Me | null | undefined {
  return useContext(SessionContext);
}

export function useRole(): Role | null {
  return useMe()?.role ?? null;
}

/** Whether the signed-in person's role may do what `needed` may. */
export function useCan(needed: Role): boolean {
  const me = useContext(SessionContext);
  return me === undefined || roleAllows(me?.role, needed);
}

/**
 * Whether the signed-in person may withdraw or restart a run: an operator any run, whoever started it her own (the
 * server's rule; outside the sign-in gate nothing is hidden).
 */
export function useOwnsRun(startedById: string | null | undefined): boolean {
  const me = useContext(SessionContext);
  return me === undefined || roleAllows(me?.role, "operator") || (!!me?.id && me.id === startedById);
}
