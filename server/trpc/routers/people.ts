/**
 * People for the app: signing in and out, the first account, accepting an invitation (open: nobody is signed in yet),
 * personal API tokens (anyone signed in, for themselves), and managing accounts (operators).
 */
import { AcceptInviteBody, AccountRef, ChangeRoleBody, CreateTokenBody, InvitationToken, InviteBody, SetupBody, SignInBody, TokenRef } from "../../people/schemas";
import type { NewSession } from "../../people/commands";
import { clearedSessionCookie, sessionCookie } from "../../http/sessionCookie";
import type { AppContext } from "../context";
import { analystProcedure, openProcedure, operatorProcedure, router } from "../trpc";

/** Sets the session cookie and answers what the app needs to go on: the account and the CSRF token for its changes. */
function signedIn(ctx: AppContext, session: NewSession) {
  ctx.resHeaders.append("set-cookie", sessionCookie(session.token, session.expiresAt, ctx.https));
  return { account: session.account, csrfToken: session.csrfToken };
}

export const authRouter = router({
  /** Who is signed in, whether the first account is still to be created, and the CSRF token of this session. */
  status: openProcedure.query(({ ctx }) => ctx.people.queries.status(ctx.identity)),
  setup: openProcedure.input(SetupBody).mutation(async ({ ctx, input }) => signedIn(ctx, await ctx.people.commands.setup(input, ctx.origin))),
  signIn: openProcedure.input(SignInBody).mutation(async ({ ctx, input }) => signedIn(ctx, await ctx.people.commands.signIn(input, ctx.origin))),
  /** Whom an invitation link invites, by whom, and whether it still works: the page says so before asking for a password. */
  invitation: openProcedure.input(InvitationToken).query(({ ctx, input }) => ctx.people.queries.invitation(input.token)),
  acceptInvitation: openProcedure.input(AcceptInviteBody).mutation(async ({ ctx, input }) => signedIn(ctx, await ctx.people.commands.acceptInvitation(input, ctx.origin))),
  signOut: openProcedure.mutation(async ({ ctx }) => {
    await ctx.people.commands.signOut(ctx.identity);
    ctx.resHeaders.append("set-cookie", clearedSessionCookie(ctx.https));
    return { signedOut: true };
  }),
});

export const tokensRouter = router({
  list: analystProcedure.query(({ ctx }) => ctx.people.queries.listTokens(ctx.identity)),
  /** The token is in this answer only; the server keeps its hash. */
  create: analystProcedure.input(CreateTokenBody).mutation(({ ctx, input }) => ctx.people.commands.createToken(ctx.identity, input.name)),
  revoke: analystProcedure.input(TokenRef).mutation(({ ctx, input }) => ctx.people.commands.revokeToken(ctx.identity, input.tokenId)),
});

export const accountsRouter = router({
  list: operatorProcedure.query(({ ctx }) => ctx.people.queries.listAccounts()),
  invite: operatorProcedure.input(InviteBody).mutation(({ ctx, input }) => ctx.people.commands.invite(ctx.identity, input)),
  /** A new link for an invited account (a lost or expired one); the links sent before stop working. */
  reissueInvitation: operatorProcedure.input(AccountRef).mutation(({ ctx, input }) => ctx.people.commands.reissueInvitation(ctx.identity, input.accountId)),
  changeRole: operatorProcedure.input(ChangeRoleBody).mutation(({ ctx, input }) => ctx.people.commands.changeRole(input.accountId, input.role)),
  disable: operatorProcedure.input(AccountRef).mutation(({ ctx, input }) => ctx.people.commands.setDisabled(ctx.identity, input.accountId, true)),
  enable: operatorProcedure.input(AccountRef).mutation(({ ctx, input }) => ctx.people.commands.setDisabled(ctx.identity, input.accountId, false)),
});
