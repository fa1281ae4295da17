/**
 * The pages shown before anyone is signed in: "Create the first account" on a server with no account yet (that
 * account is an operator), "Accept your invitation" at an invitation's link, and "Sign in". Each shows the server's
 * refusal (a field it refused beside the field, anything else above the button: invalid credentials, too many
 * attempts, an invitation used already).
 */
import { type FormEvent, type ReactNode, useEffect, useState } from "react";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Field } from "../../../components/Field";
import { SubmitButton } from "../../../components/SubmitButton";
import { Spinner } from "../../../components/Spinner";
import { errorMessage, fieldErrorsOf } from "../../../lib/errors";
import { withArticle } from "../../../lib/session";
import { formatDateTime } from "../../../lib/time";
import { Link, navigate, paths } from "../../../lib/router";
import type { Me } from "../../../lib/trpc";
import { useAcceptInvitation, useInvitation, useSetup, useSignIn, useSignOut } from "../api/auth";
import "../people.css";

/** The server's rule for a password: long enough to resist guessing once hashed, and no composition rules. */
export const minPasswordLength = 10;

type Problems = Record<string, string>;

/** What is wrong with a chosen password and its repetition, keyed by field. */
export function newPasswordProblems(password: string, again: string): Problems {
  if (password.length < minPasswordLength) return { password: `Use at least ${minPasswordLength} characters.` };
  if (password !== again) return { again: "The two passwords differ: type the same one twice." };
  return {};
}

function AuthCard({ title, lead, children }: { title: string; lead: ReactNode; children: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Stitch`;
  }, [title]);
  return (
    <main id="main" className="auth-page">
      <section className="auth-card" aria-labelledby="auth-title">
        <p className="auth-brand" aria-hidden="true">
          <span className="auth-brand-mark" />
          Stitch
        </p>
        <h1 id="auth-title" className="auth-title">
          {title}
        </h1>
        <div className="auth-lead muted">{lead}</div>
        {children}
      </section>
    </main>
  );
}

/** A form's state: the fields typed, the problems found before sending, and those the server named. */
function useAuthForm<Fields extends Record<string, string>>(initial: Fields) {
  const [fields, setFields] = useState(initial);
  const [problems, setProblems] = useState<Problems>({});
  const field = (name: keyof Fields & string, serverError: unknown) => ({
    value: fields[name],
    error: problems[name] ?? fieldErrorsOf(serverError)[name] ?? null,
    announce: "alert" as const,
    onChange: (event: { target: { value: string } }) => {
      setFields((previous) => ({ ...previous, [name]: event.target.value }));
      if (problems[name]) setProblems(({ [name]: _, ...rest }) => rest);
    },
  });
  /** True when nothing is wrong, so the form may be sent. */
  const check = (found: Problems) => {
    setProblems(found);
    return Object.keys(found).length === 0;
  };
  return { fields, field, check };
}

/** The server's refusal, unless it named a field (shown beside that field). */
function Refusal({ title, error }: { title: string; error: unknown }) {
  if (!error || Object.keys(fieldErrorsOf(error)).length > 0) return null;
  return <ErrorNotice title={title} error={error} />;
}

function NewPasswordFields({ field, error }: { field: ReturnType<typeof useAuthForm<{ password: string; again: string }>>["field"]; error: unknown }) {
  return (
    <>
      <Field label="Password" type="password" autoComplete="new-password" hint={`At least ${minPasswordLength} characters.`} {...field("password", error)} />
      <Field label="Password again" type="password" autoComplete="new-password" {...field("again", error)} />
    </>
  );
}

export function SetupPage() {
  const setup = useSetup();
  const { fields, field, check } = useAuthForm({ name: "", email: "", password: "", again: "" });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Problems = { ...newPasswordProblems(fields.password, fields.again) };
    if (!fields.name.trim()) found.name = "Write your name.";
    if (!fields.email.includes("@")) found.email = "Write an email address such as ada@example.com.";
    if (check(found)) setup.mutate({ name: fields.name.trim(), email: fields.email.trim(), password: fields.password });
  };
  return (
    <AuthCard
      title="Create the first account"
      lead={
        <p>
          No one has an account on this server yet. This first account is an <strong>operator</strong>: it may do everything, and it invites the
          others (analysts, reviewers and more operators).
        </p>
      }
    >
      <form className="auth-form" onSubmit={submit} aria-busy={setup.isPending} noValidate>
        <Field label="Name" autoComplete="name" {...field("name", setup.error)} />
        <Field label="Email" type="email" autoComplete="email" {...field("email", setup.error)} />
        <NewPasswordFields field={field} error={setup.error} />
        <Refusal title="The account was not created" error={setup.error} />
        <SubmitButton pending={setup.isPending}>Create the account</SubmitButton>
      </form>
    </AuthCard>
  );
}

export function AcceptInvitationPage({ token }: { token: string }) {
  const invitation = useInvitation(token);
  if (invitation.isPending) {
    return (
      <AuthCard title="Accept your invitation" lead={<p><Spinner label="Reading the invitation" /> Reading the invitation…</p>}>
        {null}
      </AuthCard>
    );
  }
  if (invitation.isError) return <InvitationDeadEnd title="This invitation link does not work" message={errorMessage(invitation.error)} />;
  const { state, name, email, role, invited_by: invitedBy, expires_at: expiresAt } = invitation.data;
  if (state === "used") return <InvitationDeadEnd title="This invitation was used already" message={`${name} (${email}) chose a password with it: sign in with that email and password.`} />;
  if (state === "expired") return <InvitationDeadEnd title="This invitation has expired" message={`It expired ${formatDateTime(expiresAt)}. Ask ${invitedBy ?? "an operator"} to send you a new link.`} />;
  if (state === "disabled") return <InvitationDeadEnd title="This account is disabled" message="Ask an operator to enable it, then to send you a new link." />;
  return <AcceptInvitationForm token={token} lead={`${invitedBy ?? "An operator"} invited ${name} (${email}) as ${withArticle(role)}. Choose the password you will sign in with; the link works until ${formatDateTime(expiresAt)}.`} />;
}

/** An invitation that cannot be accepted: what happened, and the way on (sign in, or ask for a new link). */
function InvitationDeadEnd({ title, message }: { title: string; message: string }) {
  return (
    <AuthCard title={title} lead={<p>{message}</p>}>
      <p>
        <Link className="button button-secondary" to={paths.home()}>
          Go to sign in
        </Link>
      </p>
    </AuthCard>
  );
}

function AcceptInvitationForm({ token, lead }: { token: string; lead: string }) {
  const accept = useAcceptInvitation();
  const { fields, field, check } = useAuthForm({ password: "", again: "" });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!check(newPasswordProblems(fields.password, fields.again))) return;
    // The invitation's link is spent: the token leaves the address bar, and the person lands where their work is.
    accept.mutate({ token, password: fields.password }, { onSuccess: () => navigate("/", { replace: true }) });
  };
  return (
    <AuthCard title="Accept your invitation" lead={<p>{lead}</p>}>
      <form className="auth-form" onSubmit={submit} aria-busy={accept.isPending} noValidate>
        <NewPasswordFields field={field} error={accept.error} />
        <Refusal title="The invitation was not accepted" error={accept.error} />
        <SubmitButton pending={accept.isPending}>Accept and sign in</SubmitButton>
      </form>
    </AuthCard>
  );
}

export function SignInPage() {
  const signIn = useSignIn();
  const { fields, field, check } = useAuthForm({ email: "", password: "" });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Problems = {};
    if (!fields.email.trim()) found.email = "Write your email address.";
    if (!fields.password) found.password = "Write your password.";
    if (check(found)) signIn.mutate({ email: fields.email.trim(), password: fields.password });
  };
  return (
    <AuthCard title="Sign in" lead={<p>Sign in with the email and password of your account. No account yet? Ask an operator for an invitation.</p>}>
      <form className="auth-form" onSubmit={submit} aria-busy={signIn.isPending} noValidate>
        <Field label="Email" type="email" autoComplete="username" {...field("email", signIn.error)} />
        <Field label="Password" type="password" autoComplete="current-password" {...field("password", signIn.error)} />
        {signIn.isPending ? null : <Refusal title="You were not signed in" error={signIn.error} />}
        <SubmitButton pending={signIn.isPending}>Sign in</SubmitButton>
      </form>
    </AuthCard>
  );
}

/** An invitation's link opened by someone signed in already: it is for a new account, so they sign out first. */
export function InvitationWhileSignedIn({ me }: { me: Me }) {
  const signOut = useSignOut();
  return (
    <AuthCard
      title="You are signed in already"
      lead={
        <p>
          You are signed in as <strong>{me.name}</strong>. This invitation's link is for a new account:{" "}
          {me.via === "session" ? "sign out to accept it here, or open it in a private window." : "open it in a private window to accept it."}
        </p>
      }
    >
      {signOut.error ? <ErrorNotice title="You were not signed out" error={signOut.error} /> : null}
      <div className="auth-actions">
        <Link to={paths.home()} className="button button-secondary">
          Go to the app
        </Link>
        {me.via === "session" ? (
          <button type="button" className="button button-primary" disabled={signOut.isPending} aria-busy={signOut.isPending} onClick={() => signOut.mutate()}>
            Sign out
          </button>
        ) : null}
      </div>
    </AuthCard>
  );
}
