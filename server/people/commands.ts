/**
 * What people do about people: create the first account, sign in and out, invite, accept an invitation, change a role,
 * disable or enable an account, create and revoke API tokens. Each change is one transaction.
 */
import type { Database, Executor } from "../../db/client";
import { nameAuditTarget } from "../audit/scope";
import { PeopleError, badCredentials } from "./errors";
import { hashPassword, verifyPassword } from "./passwords";
import { roleAllows } from "./roles";
import type { Account, Identity, Role } from "./schemas";
import { PERSONAL_TOKEN_PREFIX, digest, newSecret } from "./secrets";
import * as store from "./store";
import { accountOf } from "./queries";

export interface RequestOrigin {
  address: string | null;
  userAgent: string | null;
}

/** A session to set as a cookie: `token` is the cookie's value, shown to no one else. */
export interface NewSession {
  token: string;
  csrfToken: string;
  expiresAt: Date;
  account: Account;
}

export interface PeopleOptions {
  sessionTtlMs: number;
  invitationTtlMs: number;
  /** Failed sign-ins allowed per email, and per address, within `signInWindowMinutes`, before 429. */
  signInLimitPerAccount: number;
  signInLimitPerAddress: number;
  signInWindowMinutes: number;
}

export const defaultPeopleOptions: PeopleOptions = {
  sessionTtlMs: 14 * 24 * 3600_000,
  invitationTtlMs: 7 * 24 * 3600_000,
  signInLimitPerAccount: 10,
  signInLimitPerAddress: 50,
  signInWindowMinutes: 15,
};

/** The path of the app's page where an invited person chooses a password (the token is the last segment). */
export const invitationPath = (token: string) => `/app/invite/${token}`;

export class PeopleCommands {
  private readonly followers: (() => Promise<void>)[] = [];

  constructor(
    private readonly database: Database,
    private readonly options: PeopleOptions = defaultPeopleOptions,
  ) {}

  /**
   * Called after a change of who can decide has committed: a role changed, an account was disabled or enabled, an
   * invitation accepted (server/app.ts: whether anyone can take each open decision is computed again).
   */
  onPeopleChanged(follower: () => Promise<void>): void {
    this.followers.push(follower);
  }

  private async peopleChanged<T>(result: T): Promise<T> {
    for (const follower of this.followers) await follower();
    return result;
  }

  /** The first account, an operator; refused once any account exists. */
  async setup(input: { name: string; email: string; password: string }, origin: RequestOrigin): Promise<NewSession> {
    const passwordHash = await hashPassword(input.password);
    return this.database.transaction(async (tx) => {
      await store.lockSetup(tx);
      if (await store.anyAccount(tx)) throw new PeopleError("conflict", "the first account exists already: sign in, or ask an operator for an invitation");
      const account = await store.insertAccount(tx, { name: input.name, email: input.email, role: "operator", passwordHash });
      nameAuditTarget("account", account.id);
      return this.openSession(tx, account, origin);
    });
  }

  async signIn(input: { email: string; password: string }, origin: RequestOrigin): Promise<NewSession> {
    const address = origin.address ?? "unknown";
    const o = this.options;
    const recent = await this.database.run((db) => store.recentSignInFailures(db, input.email, address, o.signInWindowMinutes));
    if (recent.by_email >= o.signInLimitPerAccount || recent.by_address >= o.signInLimitPerAddress) {
      throw new PeopleError("rate_limited", `too many failed sign-ins: try again in ${o.signInWindowMinutes} minutes`, { retry_after_seconds: o.signInWindowMinutes * 60 });
    }
    const account = await this.database.run((db) => store.accountByEmail(db, input.email));
    const ok = await verifyPassword(account?.passwordHash ?? null, input.password);
    if (!account || !ok || account.disabledAt) {
      await this.database.run((db) => store.recordSignInFailure(db, input.email, address));
      throw badCredentials();
    }
    return this.database.transaction(async (tx) => {
      await store.clearSignInFailures(tx, input.email);
      return this.openSession(tx, account, origin);
    });
  }

  /** Ends the session server-side: its cookie signs no one in again, wherever it was copied. */
  async signOut(identity: Identity): Promise<void> {
    if (identity.kind !== "session") return;
    await this.database.transaction((tx) => store.revokeSession(tx, identity.sessionId));
  }

  /** An account without a password, and the one-time link with which its owner chooses one. */
  async invite(by: Identity, input: { name: string; email: string; role: Role }): Promise<{ account: Account; invitationPath: string; expiresAt: string }> {
    const token = newSecret("inv_");
    const expiresAt = new Date(Date.now() + this.options.invitationTtlMs).toISOString();
    return this.database.transaction(async (tx) => {
      if (await store.accountByEmail(tx, input.email)) throw new PeopleError("conflict", `an account with the email ${input.email} exists already`);
      const account = await store.insertAccount(tx, { ...input, passwordHash: null });
      nameAuditTarget("account", account.id);
      await store.insertInvitation(tx, { tokenHash: digest(token), accountId: account.id, createdBy: by.accountId, expiresAt });
      return { account: accountOf(account), invitationPath: invitationPath(token), expiresAt };
    });
  }

  /**
   * A new link for an invited account that has not chosen a password: the links sent before stop working. Refused for
   * an active account (it signs in; a forgotten password is not this) and a disabled one.
   */
  async reissueInvitation(by: Identity, accountId: string): Promise<{ account: Account; invitationPath: string; expiresAt: string }> {
    const token = newSecret("inv_");
    const expiresAt = new Date(Date.now() + this.options.invitationTtlMs).toISOString();
    return this.database.transaction(async (tx) => {
      const account = await this.mustFind(tx, accountId);
      if (account.active) throw new PeopleError("conflict", `${account.name} has chosen a password already: they sign in`);
      if (account.disabledAt) throw new PeopleError("conflict", `${account.name}'s account is disabled: enable it before sending a new link`);
      await store.replaceInvitation(tx, { tokenHash: digest(token), accountId, createdBy: by.accountId, expiresAt });
      return { account: { ...accountOf(account), invitation_expires_at: expiresAt }, invitationPath: invitationPath(token), expiresAt };
    });
  }

  async acceptInvitation(input: { token: string; password: string }, origin: RequestOrigin): Promise<NewSession> {
    const passwordHash = await hashPassword(input.password);
    const session = await this.database.transaction(async (tx) => {
      const invitation = await store.openInvitation(tx, digest(input.token));
      if (!invitation) throw new PeopleError("not_found", "this invitation does not work: it was used already, has expired or was replaced by a newer link. Ask an operator for a new one");
      const account = await store.accountById(tx, invitation.accountId);
      if (!account || account.disabledAt) throw new PeopleError("conflict", "this account is disabled");
      await store.setPassword(tx, account.id, passwordHash);
      await store.acceptInvitation(tx, invitation.tokenHash);
      return this.openSession(tx, { ...account, active: true }, origin);
    });
    return this.peopleChanged(session);
  }

  async changeRole(accountId: string, role: Role): Promise<Account> {
    const changed = await this.database.transaction(async (tx) => {
      const account = await this.mustFind(tx, accountId);
      if (account.role === "operator" && role !== "operator") await this.keepAnOperator(tx, accountId);
      return accountOf((await store.setRole(tx, accountId, role))!);
    });
    return this.peopleChanged(changed);
  }

  /** A disabled account's sessions end at once; its tokens stop working while it stays disabled. */
  async setDisabled(by: Identity, accountId: string, disabled: boolean): Promise<Account> {
    if (disabled && by.accountId === accountId) throw new PeopleError("conflict", "you cannot disable your own account");
    const changed = await this.database.transaction(async (tx) => {
      const account = await this.mustFind(tx, accountId);
      if (disabled && account.role === "operator") await this.keepAnOperator(tx, accountId);
      if (disabled) await store.revokeSessionsOf(tx, accountId);
      return accountOf((await store.setDisabled(tx, accountId, disabled))!);
    });
    return this.peopleChanged(changed);
  }

  /** A personal token, returned once in clear; it acts as its owner, with the owner's role. */
  async createToken(by: Identity, name: string) {
    if (by.accountId === null) throw new PeopleError("bad_request", "tokens belong to accounts: sign in as an account to create one");
    const token = newSecret(PERSONAL_TOKEN_PREFIX);
    const row = await this.database.transaction(async (tx) => {
      const inserted = await store.insertToken(tx, { accountId: by.accountId!, name, tokenHash: digest(token), prefix: token.slice(0, 10) });
      nameAuditTarget("token", inserted.id);
      return inserted;
    });
    return { id: row.id, name: row.name, prefix: row.prefix, token };
  }

  /** Owners revoke their own tokens; operators revoke anyone's. */
  async revokeToken(by: Identity, tokenId: string): Promise<void> {
    await this.database.transaction(async (tx) => {
      const token = await store.tokenById(tx, tokenId);
      if (!token || (token.accountId !== by.accountId && !roleAllows(by.role, "operator"))) throw new PeopleError("not_found", `no token with id "${tokenId}"`);
      await store.revokeToken(tx, tokenId);
    });
  }

  private async openSession(tx: Executor, account: store.AccountFields, origin: RequestOrigin): Promise<NewSession> {
    const token = newSecret();
    const csrfToken = newSecret();
    const expiresAt = new Date(Date.now() + this.options.sessionTtlMs);
    await store.insertSession(tx, { id: digest(token), accountId: account.id, csrfToken, address: origin.address, userAgent: origin.userAgent, expiresAt: expiresAt.toISOString() });
    return { token, csrfToken, expiresAt, account: accountOf(account) };
  }

  private async mustFind(tx: Executor, accountId: string) {
    const account = await store.accountById(tx, accountId);
    if (!account) throw new PeopleError("not_found", `no account with id "${accountId}"`);
    return account;
  }

  private async keepAnOperator(tx: Executor, accountId: string) {
    if ((await store.otherOperators(tx, accountId)) === 0) throw new PeopleError("conflict", "this is the last active operator: make someone else an operator first");
  }
}
