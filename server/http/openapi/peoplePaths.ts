/**
 * People's surface (server/http/peopleRoutes.ts): signing in and out for scripts that prefer a session to a token, who
 * is calling, and the audit trail. The app does the same through tRPC, and manages accounts and tokens there.
 */
import { AuditFilter } from "../../audit/schemas";
import { SESSION_COOKIE } from "../guard";
import { peoplePaths as paths } from "../paths";
import { requestJsonSchema } from "./components";
import { type Tag, answer, body, invalidJson400, queryParam, ref, refusals, tagged } from "./operations";

export const peopleTag: Tag = {
  name: "people",
  description: "Signing in and out, who is calling, and the audit trail: who did what to which run, node, flow or workflow, accepted or refused.",
};

/** A filter of the audit trail, as a query parameter converted from the field of AuditFilter that parses it. */
const filterParam = (name: string, field: keyof typeof AuditFilter.shape, description: string) => queryParam(name, description, requestJsonSchema(AuditFilter.shape[field]));

export function peoplePathItems() {
  return tagged(peopleTag, {
    [paths.signIn.openapi]: {
      post: {
        operationId: "signIn", summary: "Sign in with email and password",
        description:
          `Opens a session: answers the account and the session's CSRF token, and sets the \`${SESSION_COOKIE}\` cookie. A change made with that cookie ` +
          "must carry the CSRF token as `x-csrf-token`. Scripts may rather send a personal API token as `Authorization: Bearer <token>`.",
        requestBody: body("SignInBody", { email: "ada@example.com", password: "correct horse battery staple" }),
        responses: {
          200: answer("Signed in; the session cookie is set.", ref("SignedIn")),
          ...refusals({
            400: `${invalidJson400} Or a body that does not validate.`,
            401: "`unauthorized`: invalid credentials (an unknown email, a wrong password, or a disabled account; the answer does not say which).",
            429: "`rate_limited`: too many failed sign-ins for this email or from this address; `retry_after_seconds` says when to try again.",
          }),
        },
      },
    },
    [paths.signOut.openapi]: {
      post: {
        operationId: "signOut", summary: "Sign out",
        description: "Ends the session of the cookie sent, for good (a copy of the cookie signs no one in again), and clears the cookie. Without a session cookie nothing changes.",
        responses: { 200: answer("Signed out; the session cookie is cleared.", ref("SignedOut")) },
      },
    },
    [paths.session.openapi]: {
      get: {
        operationId: "getSession", summary: "Who is calling",
        description: "The account behind the credentials sent (none: `me` is null), with its role, and whether the first account must still be created.",
        responses: { 200: answer("Who is calling.", ref("AuthStatus")) },
      },
    },
    [paths.audit.openapi]: {
      get: {
        operationId: "listAuditEntries", summary: "Read the audit trail",
        description:
          "Every change requested over REST or through the app (tRPC), accepted or refused, sign-ins and account changes included: who (account, token, bootstrap token, " +
          "worker or agent), what (`action`), to which target, from which address, with the outcome. Newest first; page with `before`.",
        parameters: [
          filterParam("target", "target", "Only entries about this target: a run, node, flow, workflow or account id."),
          filterParam("account_id", "accountId", "Only entries of this account (its id)."),
          filterParam("action", "action", "Only this action (`engine.runs.cancel`), or every action under a prefix ending in \".\" (`pipeline.`)."),
          filterParam("outcome", "outcome", "Only accepted, or only refused, entries."),
          filterParam("limit", "limit", "How many entries, at most."),
          filterParam("before", "before", "Only entries older than this entry id: the `next_before` of the previous page."),
        ],
        responses: {
          200: answer("A page of entries, newest first.", ref("AuditPage")),
          ...refusals({ 400: "`invalid_query`: a parameter that does not validate (the message names it)." }),
        },
      },
    },
  });
}
