/**
 * Signing in and out: who is signed in (`auth.status`, read once on load and again when a call is answered "sign in
 * required"), the first account, a sign-in, an accepted invitation, and signing out. A session begun or ended drops
 * everything read before it, so no one sees what the previous person's role let them read.
 */
import { useQueryClient } from "@tanstack/react-query";
import { navigate, paths } from "../../../lib/router";
import { isAuthStatusQuery, rememberCsrfToken } from "../../../lib/session";
import { trpc } from "../../../lib/trpc";

export function useAuthStatus() {
  return trpc.auth.status.useQuery(undefined, { staleTime: 30_000 });
}

/** Forgets every query but `auth.status`, which the sign-in gate is reading. */
function useForgetOtherQueries() {
  const queryClient = useQueryClient();
  return () => queryClient.removeQueries({ predicate: (query) => !isAuthStatusQuery(query) });
}

/**
 * After the first account, a sign-in or an accepted invitation: the new session's token, then who is signed in. Signed
 * in at the app's home, the person lands where their work is (the root address's landing, web/src/lib/landing.ts); an
 * address that names a page (a link someone followed) is kept.
 */
function useSessionBegun() {
  const utils = trpc.useUtils();
  const forget = useForgetOtherQueries();
  return async ({ csrfToken }: { csrfToken: string }) => {
    rememberCsrfToken(csrfToken);
    forget();
    if (window.location.pathname === paths.home()) navigate("/", { replace: true });
    await utils.auth.status.invalidate();
  };
}

export function useSetup() {
  return trpc.auth.setup.useMutation({ onSuccess: useSessionBegun() });
}

export function useSignIn() {
  return trpc.auth.signIn.useMutation({ onSuccess: useSessionBegun() });
}

/** Whom an invitation link invites, by whom, and whether it still works (read before asking for a password). */
export function useInvitation(token: string) {
  return trpc.auth.invitation.useQuery({ token }, { retry: false, staleTime: 60_000 });
}

export function useAcceptInvitation() {
  return trpc.auth.acceptInvitation.useMutation({ onSuccess: useSessionBegun() });
}

/** Ends the session on the server; the app shows the sign-in at once, holding nothing of what was read. */
export function useSignOut() {
  const utils = trpc.useUtils();
  const forget = useForgetOtherQueries();
  return trpc.auth.signOut.useMutation({
    onSuccess: async () => {
      rememberCsrfToken(null);
      utils.auth.status.setData(undefined, { needsSetup: false, me: null, csrfToken: null });
      forget();
      await utils.auth.status.invalidate();
    },
  });
}
