/**
 * The app behind a sign-in: on load it asks who is signed in (`auth.status`). Until someone is, it shows "Create the
 * first account" on a server without accounts, "Accept your invitation" at an invitation's link, and "Sign in"
 * otherwise; once someone is, the app, with the signed-in person (and so their role) as context. When a later call
 * is refused to its caller (401, or 403 after a change of role), `auth.status` is asked again
 * (web/src/app/provider.tsx) and this gate, and every role check under it, follows the answer.
 */
import type { ReactNode } from "react";
import { PageLoadError } from "../../../components/ErrorNotice";
import { Spinner } from "../../../components/Spinner";
import { matchPath, usePathname } from "../../../lib/router";
import { SessionProvider } from "../../../lib/session";
import { useAuthStatus } from "../api/auth";
import { AcceptInvitationPage, InvitationWhileSignedIn, SetupPage, SignInPage } from "./AuthPages";
import "../people.css";

/** Where an invitation's link leads: the server answers it as `invitationPath` when an operator invites someone. */
const invitationPattern = "/app/invite/:token";

export function AuthGate({ children }: { children: ReactNode }) {
  const status = useAuthStatus();
  const invitation = matchPath(invitationPattern, usePathname());
  if (status.data) {
    const { me, needsSetup } = status.data;
    if (me) return <SessionProvider value={me}>{invitation ? <InvitationWhileSignedIn me={me} /> : children}</SessionProvider>;
    if (needsSetup) return <SetupPage />;
    if (invitation) return <AcceptInvitationPage token={invitation.token!} />;
    return <SignInPage />;
  }
  if (status.isError) {
    return <PageLoadError permanent="The app could not start" transient="The server could not be reached" error={status.error} onRetry={() => void status.refetch()} />;
  }
  return (
    <div className="auth-page">
      <Spinner label="Loading" size="md" />
    </div>
  );
}
