/** Every statement on accounts, sessions, API tokens, invitations and failed sign-ins. */
import { and, asc, count, desc, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import { type Executor, rows } from "../../db/client";
import { accounts, apiTokens, invitations, sessions, signInFailures } from "../../db/schema";
import type { Role } from "./schemas";

export const accountColumns = {
  id: accounts.id,
  name: accounts.name,
  email: accounts.email,
  role: accounts.role,
  createdAt: accounts.createdAt,
  disabledAt: accounts.disabledAt,
  active: sql<boolean>`${accounts.passwordHash} IS NOT NULL`,
};

export type AccountFields = NonNullable<Awaited<ReturnType<typeof accountById>>>;

export async function anyAccount(db: Executor): Promise<boolean> {
  const [row] = await rows<{ exists: boolean }>(db, sql`SELECT EXISTS (SELECT 1 FROM ${accounts}) AS "exists"`);
  return row!.exists;
}

/** Serialises the creation of the first account across processes, for the rest of the transaction. */
export async function lockSetup(tx: Executor): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(7355609)`);
}

export async function insertAccount(db: Executor, values: { name: string; email: string; role: Role; passwordHash: string | null }) {
  const [row] = await db.insert(accounts).values(values).returning(accountColumns);
  return row!;
}

export async function accountByEmail(db: Executor, email: string) {
  const [row] = await db
    .select({ ...accountColumns, passwordHash: accounts.passwordHash })
    .from(accounts)
    .where(sql`lower(${accounts.email}) = ${email.toLowerCase()}`);
  return row;
}

export async function accountById(db: Executor, id: string) {
  const [row] = await db.select(accountColumns).from(accounts).where(eq(accounts.id, id));
  return row;
}

/** Every account, oldest first, with when its newest unused invitation expires (null once it has a password). */
export async function listAccounts(db: Executor) {
  const invitationExpiresAt = sql<string | null>`(
    SELECT max(${invitations.expiresAt}) FROM ${invitations}
    WHERE ${invitations.accountId} = ${accounts.id} AND ${invitations.acceptedAt} IS NULL AND ${accounts.passwordHash} IS NULL
  )`;
  return db.select({ ...accountColumns, invitationExpiresAt }).from(accounts).orderBy(asc(accounts.createdAt));
}

export async function setRole(db: Executor, id: string, role: Role) {
  const [row] = await db.update(accounts).set({ role }).where(eq(accounts.id, id)).returning(accountColumns);
  return row;
}

export async function setDisabled(db: Executor, id: string, disabled: boolean) {
  const [row] = await db
    .update(accounts)
    .set({ disabledAt: disabled ? sql`now()` : null })
    .where(eq(accounts.id, id))
    .returning(accountColumns);
  return row;
}

export async function setPassword(db: Executor, id: string, passwordHash: string) {
  await db.update(accounts).set({ passwordHash }).where(eq(accounts.id, id));
}

/** Active operators other than `exceptId`: an account change may not leave the product without one. */
export async function otherOperators(db: Executor, exceptId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(accounts)
    .where(and(eq(accounts.role, "operator"), isNull(accounts.disabledAt), sql`${accounts.passwordHash} IS NOT NULL`, sql`${accounts.id} <> ${exceptId}`));
  return row!.n;
}

export async function insertSession(db: Executor, values: { id: string; accountId: string; csrfToken: string; address: string | null; userAgent: string | null; expiresAt: string }) {
  await db.insert(sessions).values(values);
}

/** The live session with this id and its account, unless it was revoked, has expired or its account is disabled. */
export async function liveSession(db: Executor, id: string) {
  const [row] = await db
    .select({ sessionId: sessions.id, csrfToken: sessions.csrfToken, accountId: accounts.id, name: accounts.name, role: accounts.role })
    .from(sessions)
    .innerJoin(accounts, eq(accounts.id, sessions.accountId))
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`), isNull(accounts.disabledAt)));
  return row;
}

export async function revokeSession(db: Executor, id: string) {
  await db.update(sessions).set({ revokedAt: sql`now()` }).where(and(eq(sessions.id, id), isNull(sessions.revokedAt)));
}

export async function revokeSessionsOf(db: Executor, accountId: string) {
  await db.update(sessions).set({ revokedAt: sql`now()` }).where(and(eq(sessions.accountId, accountId), isNull(sessions.revokedAt)));
}

export async function insertToken(db: Executor, values: { accountId: string; name: string; tokenHash: string; prefix: string }) {
  const [row] = await db.insert(apiTokens).values(values).returning();
  return row!;
}

/** The live token with this hash and its account, unless it was revoked or its account is disabled. */
export async function liveToken(db: Executor, tokenHash: string) {
  const [row] = await db
    .select({ tokenId: apiTokens.id, lastUsedAt: apiTokens.lastUsedAt, accountId: accounts.id, name: accounts.name, role: accounts.role })
    .from(apiTokens)
    .innerJoin(accounts, eq(accounts.id, apiTokens.accountId))
    .where(and(eq(apiTokens.tokenHash, tokenHash), isNull(apiTokens.revokedAt), isNull(accounts.disabledAt)));
  return row;
}

/** Notes a token's use, at most once a minute, so scripts polling with it do not write on every request. */
export async function touchToken(db: Executor, id: string) {
  await db
    .update(apiTokens)
    .set({ lastUsedAt: sql`now()` })
    .where(and(eq(apiTokens.id, id), or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, sql`now() - interval '1 minute'`))));
}

export async function listTokens(db: Executor, accountId: string | null) {
  return db
    .select({
      id: apiTokens.id,
      name: apiTokens.name,
      prefix: apiTokens.prefix,
      accountId: apiTokens.accountId,
      accountName: accounts.name,
      createdAt: apiTokens.createdAt,
      lastUsedAt: apiTokens.lastUsedAt,
      revokedAt: apiTokens.revokedAt,
    })
    .from(apiTokens)
    .innerJoin(accounts, eq(accounts.id, apiTokens.accountId))
    .where(accountId ? eq(apiTokens.accountId, accountId) : undefined)
    .orderBy(desc(apiTokens.createdAt));
}

export async function tokenById(db: Executor, id: string) {
  const [row] = await db.select().from(apiTokens).where(eq(apiTokens.id, id));
  return row;
}

export async function revokeToken(db: Executor, id: string) {
  await db.update(apiTokens).set({ revokedAt: sql`now()` }).where(and(eq(apiTokens.id, id), isNull(apiTokens.revokedAt)));
}

export async function insertInvitation(db: Executor, values: { tokenHash: string; accountId: string; createdBy: string | null; expiresAt: string }) {
  await db.insert(invitations).values(values);
}

/** A new link for an invited account: the links made before stop working (they are deleted), the new one is inserted. */
export async function replaceInvitation(tx: Executor, values: { tokenHash: string; accountId: string; createdBy: string | null; expiresAt: string }) {
  await tx.delete(invitations).where(and(eq(invitations.accountId, values.accountId), isNull(invitations.acceptedAt)));
  await tx.insert(invitations).values(values);
}

/** The invitation with this hash whatever its state, with whom it invites and who made it, for its page. */
export async function invitationByHash(db: Executor, tokenHash: string) {
  const [row] = await db
    .select({
      expiresAt: invitations.expiresAt, acceptedAt: invitations.acceptedAt, expired: sql<boolean>`${invitations.expiresAt} <= now()`,
      name: accounts.name, email: accounts.email, role: accounts.role, disabledAt: accounts.disabledAt,
      invitedBy: sql<string | null>`(SELECT i.name FROM ${accounts} i WHERE i.id = ${invitations.createdBy})`,
    })
    .from(invitations)
    .innerJoin(accounts, eq(accounts.id, invitations.accountId))
    .where(eq(invitations.tokenHash, tokenHash));
  return row;
}

/** The open invitation with this hash, locked, unless it was accepted or has expired. */
export async function openInvitation(tx: Executor, tokenHash: string) {
  const [row] = await tx
    .select()
    .from(invitations)
    .where(and(eq(invitations.tokenHash, tokenHash), isNull(invitations.acceptedAt), gt(invitations.expiresAt, sql`now()`)))
    .for("update");
  return row;
}

export async function acceptInvitation(tx: Executor, tokenHash: string) {
  await tx.update(invitations).set({ acceptedAt: sql`now()` }).where(eq(invitations.tokenHash, tokenHash));
}

export async function recordSignInFailure(db: Executor, email: string, address: string) {
  await db.insert(signInFailures).values({ email, address });
}

export async function clearSignInFailures(db: Executor, email: string) {
  await db.delete(signInFailures).where(eq(signInFailures.email, email));
}

/** Failed sign-ins in the last `windowMinutes`, for this email and from this address. */
export async function recentSignInFailures(db: Executor, email: string, address: string, windowMinutes: number) {
  const since = sql`now() - make_interval(mins => ${windowMinutes})`;
  const [row] = await rows<{ by_email: number; by_address: number }>(
    db,
    sql`SELECT
      (SELECT count(*)::int FROM ${signInFailures} WHERE ${signInFailures.email} = ${email} AND ${signInFailures.createdAt} > ${since}) AS by_email,
      (SELECT count(*)::int FROM ${signInFailures} WHERE ${signInFailures.address} = ${address} AND ${signInFailures.createdAt} > ${since}) AS by_address`,
  );
  return row!;
}

/**
 * A person's own choice about email on their decisions and runs. This module writes the accounts table, so the
 * notifications' command that changes the choice comes here (server/notifications/commands.ts).
 */
export async function setEmailNotifications(db: Executor, id: string, enabled: boolean) {
  const [row] = await db.update(accounts).set({ emailNotifications: enabled }).where(eq(accounts.id, id)).returning({ email: accounts.email, emailNotifications: accounts.emailNotifications });
  return row;
}

export async function emailPreferenceOf(db: Executor, id: string) {
  const [row] = await db.select({ email: accounts.email, emailNotifications: accounts.emailNotifications }).from(accounts).where(eq(accounts.id, id));
  return row;
}
