/**
 * Who is calling (from a session cookie, a personal token or STITCH_BOOTSTRAP_TOKEN), what the app learns on load,
 * and the lists operators manage: accounts and tokens.
 */
import type { Database } from "../../db/client";
import { roleAllows } from "./roles";
import { PeopleError } from "./errors";
import { type Account, type ApiToken, type AuthStatus, type Identity, type InvitationInfo, Role, anonymous } from "./schemas";
import { PERSONAL_TOKEN_PREFIX, digest, sameSecret } from "./secrets";
import * as store from "./store";

export function accountOf(row: store.AccountFields & { invitationExpiresAt?: string | null }): Account {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: Role.parse(row.role),
    created_at: new Date(row.createdAt).toISOString(),
    disabled_at: row.disabledAt ? new Date(row.disabledAt).toISOString() : null,
    active: row.active,
    invitation_expires_at: row.invitationExpiresAt ? new Date(row.invitationExpiresAt).toISOString() : null,
  };
}

export interface Credentials {
  /** `Authorization: Bearer <token>`: a personal token, or the bootstrap token. */
  bearer?: string;
  /** The session cookie's value. */
  session?: string;
}

export class PeopleQueries {
  /** Accounts are never deleted, so once one exists the answer stays true without asking again. */
  private setUp = false;

  constructor(
    private readonly database: Database,
    private readonly bootstrapToken: string | undefined,
  ) {}

  /**
   * A bearer token that is neither live nor the bootstrap token is no one, with the reason kept for the 401 of a door
   * that needs someone (a worker may send its callback token as a bearer token: its door does not ask for a person);
   * a stale session cookie is no one too, so the app shows the sign-in.
   */
  async identify(credentials: Credentials): Promise<Identity> {
    if (credentials.bearer !== undefined) {
      if (this.bootstrapToken && sameSecret(credentials.bearer, this.bootstrapToken)) return { kind: "bootstrap", accountId: null, name: "bootstrap token", role: "operator" };
      // Only a personal token is looked up: another bearer (a worker's callback token, say) costs no round trip.
      const token = credentials.bearer.startsWith(PERSONAL_TOKEN_PREFIX) ? await this.database.run((db) => store.liveToken(db, digest(credentials.bearer!))) : undefined;
      if (!token) return { ...anonymous, problem: "the bearer token is not valid: it is unknown, revoked, or its account is disabled" };
      if (!token.lastUsedAt || Date.now() - Date.parse(token.lastUsedAt) > 60_000) await this.database.run((db) => store.touchToken(db, token.tokenId));
      return { kind: "token", accountId: token.accountId, name: token.name, role: Role.parse(token.role), tokenId: token.tokenId };
    }
    if (credentials.session) {
      const session = await this.database.run((db) => store.liveSession(db, digest(credentials.session!)));
      if (session) return { kind: "session", accountId: session.accountId, name: session.name, role: Role.parse(session.role), sessionId: session.sessionId, csrfToken: session.csrfToken };
    }
    return anonymous;
  }

  async needsSetup(): Promise<boolean> {
    if (this.setUp) return false;
    this.setUp = await this.database.run((db) => store.anyAccount(db));
    return !this.setUp;
  }

  async status(identity: Identity): Promise<AuthStatus> {
    if (identity.kind === "anonymous") return { needsSetup: await this.needsSetup(), me: null, csrfToken: null };
    const account = identity.accountId ? await this.database.run((db) => store.accountById(db, identity.accountId!)) : undefined;
    return {
      needsSetup: false,
      me: { id: identity.accountId, name: identity.name, email: account?.email ?? null, role: identity.role, via: identity.kind },
      csrfToken: identity.kind === "session" ? identity.csrfToken : null,
    };
  }

  /** Whom an invitation link invites and whether it still works; a link that was never made, or was replaced, is 404. */
  async invitation(token: string): Promise<InvitationInfo> {
    const found = await this.database.run((db) => store.invitationByHash(db, digest(token)));
    if (!found) throw new PeopleError("not_found", "this invitation link does not work: it was never made, or an operator sent a newer one. Ask an operator for a new link");
    const state = found.disabledAt ? "disabled" : found.acceptedAt ? "used" : found.expired ? "expired" : "open";
    return { state, name: found.name, email: found.email, role: Role.parse(found.role), invited_by: found.invitedBy, expires_at: new Date(found.expiresAt).toISOString() };
  }

  async listAccounts(): Promise<Account[]> {
    return (await this.database.run((db) => store.listAccounts(db))).map(accountOf);
  }

  /** An account's own tokens; an operator sees everyone's. */
  async listTokens(identity: Identity): Promise<ApiToken[]> {
    const everyone = roleAllows(identity.role, "operator");
    if (!everyone && identity.accountId === null) return [];
    const rows = await this.database.run((db) => store.listTokens(db, everyone ? null : identity.accountId));
    const iso = (value: string | null) => (value ? new Date(value).toISOString() : null);
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      prefix: row.prefix,
      account_id: row.accountId,
      account_name: row.accountName,
      created_at: iso(row.createdAt)!,
      last_used_at: iso(row.lastUsedAt),
      revoked_at: iso(row.revokedAt),
    }));
  }
}
