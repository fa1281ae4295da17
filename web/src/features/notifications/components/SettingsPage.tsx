/**
 * My settings, for everyone signed in as an account: whether I get email when a decision waits for me (or is assigned
 * to me, comes due, is overdue) and when a run I started completes or fails. The choice is saved as soon as it is
 * made; the page says when this server sends no email at all (no SMTP_URL), and keeps the choice for when it does.
 * Emails link here to turn them off.
 */
import { useId } from "react";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Notice } from "../../../components/Notice";
import { Spinner } from "../../../components/Spinner";
import { useMe } from "../../../lib/session";
import { useEmailPreference, useSetEmailNotifications } from "../api/email-preference";
import "../notifications.css";

export function SettingsPage() {
  const me = useMe();
  const account = me?.id !== null && me?.id !== undefined;
  return (
    <div className="page-pad notifications-page">
      <header className="run-header">
        <h1 className="run-title">My settings</h1>
        {me ? (
          <p className="muted small">
            Signed in as {me.name}
            {me.email ? ` (${me.email})` : ""}.
          </p>
        ) : null}
      </header>
      {account ? (
        <EmailSetting />
      ) : (
        <Notice tone="neutral" title="Settings belong to accounts">
          You are signed in with the bootstrap token, which is not an account: there is no one to email. Sign in as an account to choose your settings.
        </Notice>
      )}
    </div>
  );
}

function EmailSetting() {
  const preference = useEmailPreference(true);
  const save = useSetEmailNotifications();
  const hintId = useId();
  if (preference.isPending) {
    return (
      <p className="muted">
        <Spinner label="Loading your settings" /> Loading your settings…
      </p>
    );
  }
  if (preference.isError && !preference.data) return <ErrorNotice title="Your settings could not be loaded" error={preference.error} />;
  const { email_notifications: enabled, email_configured: configured, email } = preference.data;
  return (
    <section className="composer settings-form" aria-labelledby="email-setting-title">
      <h2 id="email-setting-title" className="section-title">
        Email
      </h2>
      {configured ? null : (
        <Notice tone="neutral" title="This server sends no email">
          It has no mail server configured (SMTP_URL), so no email is sent whatever you choose; your choice is kept for when it does.
        </Notice>
      )}
      <label className="settings-toggle">
        <input
          type="checkbox"
          checked={save.isPending && save.variables ? save.variables.enabled : enabled}
          disabled={save.isPending}
          aria-describedby={hintId}
          onChange={(event) => save.mutate({ enabled: event.target.checked })}
        />
        <span>
          Email me
          <span id={hintId} className="hint">
            When a decision waits for me, is assigned to me, comes due or is overdue, and when a run I started completes or fails{email ? `, at ${email}` : ""}.
          </span>
        </span>
      </label>
      <p className="hint" role="status">
        {save.isPending ? "Saving…" : save.isSuccess ? (enabled ? "Saved: you get these emails." : "Saved: you get no email.") : ""}
      </p>
      {save.error && !save.isPending ? <ErrorNotice title="Your choice was not saved" error={save.error} /> : null}
    </section>
  );
}
