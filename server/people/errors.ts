/** People's refusals: no credentials (401), a role that may not (403), too many sign-in attempts (429), and bad requests. */
import { Refusal } from "../lib/refusal";
import type { Role } from "./schemas";

export type PeopleErrorCode = "unauthorized" | "forbidden" | "rate_limited" | "bad_request" | "not_found" | "conflict";

export class PeopleError extends Refusal<PeopleErrorCode> {
  override name = "PeopleError";
}

export const signInRequired = (needed: Role, problem?: string) =>
  new PeopleError("unauthorized", `${problem ? `${problem}; ` : ""}sign in required: this needs the ${needed} role (a session cookie, or Authorization: Bearer <token>)`, { required_role: needed });

export const roleRequired = (needed: Role, have: Role) =>
  new PeopleError("forbidden", `this needs the ${needed} role; you are signed in as ${have === "analyst" ? "an" : "a"} ${have}`, { required_role: needed, role: have });

export const badCredentials = () => new PeopleError("unauthorized", "invalid credentials");
