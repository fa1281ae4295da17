/** People's data, defined once: roles, accounts as clients see them, and the bodies of sign-in and account management. */
import { z } from "zod";

export const Role = z.enum(["analyst", "reviewer", "operator"]);
export type Role = z.infer<typeof Role>;

const Email = z
  .string()
  .trim()
  .min(3)
  .max(254)
  .regex(/^[^\s@]+@[^\s@]+$/, "must be an email address such as ada@example.com")
  .transform((email) => email.toLowerCase());
const Name = z.string().trim().min(1, "must not be empty").max(120);
/** Long enough to resist guessing once hashed; no composition rules (they make passwords worse, not stronger). */
export const Password = z.string().min(10, "must be at least 10 characters").max(256);

export const SetupBody = z.object({ name: Name, email: Email, password: Password });
export const SignInBody = z.object({ email: Email, password: z.string().min(1).max(256) });
export const InviteBody = z.object({ name: Name, email: Email, role: Role });
export const AcceptInviteBody = z.object({ token: z.string().min(20).max(200), password: Password });
export const ChangeRoleBody = z.object({ accountId: z.string().uuid(), role: Role });
export const AccountRef = z.object({ accountId: z.string().uuid() });
export const CreateTokenBody = z.object({ name: z.string().trim().min(1, "must not be empty").max(80) });
export const TokenRef = z.object({ tokenId: z.string().uuid() });

export const Account = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: Role,
  created_at: z.string(),
  disabled_at: z.string().nullable(),
  /** False while an invited person has not chosen a password. */
  active: z.boolean(),
  /** While invited: when the newest invitation link expires (null once active, or in answers that do not list accounts). */
  invitation_expires_at: z.string().nullable(),
});
export type Account = z.infer<typeof Account>;

/** What the invitation page shows before asking for a password: whom it invites, by whom, and whether it still works. */
export const InvitationInfo = z.object({
  state: z.enum(["open", "used", "expired", "disabled"]),
  name: z.string(),
  email: z.string(),
  role: Role,
  invited_by: z.string().nullable(),
  expires_at: z.string(),
});
export type InvitationInfo = z.infer<typeof InvitationInfo>;

export const InvitationToken = z.object({ token: z.string().min(20).max(200) });

export const ApiToken = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  account_id: z.string(),
  account_name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type ApiToken = z.infer<typeof ApiToken>;

/**
 * Who is calling: a signed-in account (by session cookie or personal token), the operator token of
 * STITCH_BOOTSTRAP_TOKEN, or no one. `name` is what decisions are recorded under.
 */
export type Identity =
  | { kind: "session"; accountId: string; name: string; role: Role; sessionId: string; csrfToken: string }
  | { kind: "token"; accountId: string; name: string; role: Role; tokenId: string }
  | { kind: "bootstrap"; accountId: null; name: string; role: "operator" }
  | { kind: "anonymous"; accountId: null; name: null; role: null; /** Why a bearer token sent was not taken. */ problem?: string };

export const anonymous: Extract<Identity, { kind: "anonymous" }> = { kind: "anonymous", accountId: null, name: null, role: null };

/** What the app learns on load: whether the first account must be created, and who is signed in. */
export interface AuthStatus {
  needsSetup: boolean;
  me: { id: string | null; name: string; email: string | null; role: Role; via: Identity["kind"] } | null;
  /** The token the app sends as `x-csrf-token` with every state change made with its session cookie. */
  csrfToken: string | null;
}
