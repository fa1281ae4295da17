/**
 * People, for operators: "Invite someone" with a name, an email and a role, which answers the invitation's link once
 * (the invited person opens it and chooses a password), and every account with its role (changed in place), whether
 * it is active, invited (until when its link works, and "New link" for a lost or expired one) or disabled, and
 * "Disable" / "Enable".
 */
import { type FormEvent, useRef, useState } from "react";
import { EmptyState } from "../../../components/EmptyState";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Field } from "../../../components/Field";
import { ManagedListPage } from "../../../components/ManagedListPage";
import { SelectField } from "../../../components/SelectField";
import { ShownOnce } from "../../../components/ShownOnce";
import { Spinner } from "../../../components/Spinner";
import { Pill } from "../../../components/StatusPill";
import { SubmitButton } from "../../../components/SubmitButton";
import { Table } from "../../../components/Table";
import { errorMessage, fieldErrorsOf } from "../../../lib/errors";
import { roleDescriptions, roles, useMe, withArticle } from "../../../lib/session";
import { formatDateTime } from "../../../lib/time";
import { BreakableText } from "../../../components/BreakableText";
import type { Account, Invitation, Role } from "../../../lib/trpc";
import { useAccounts, useChangeRole, useDisableAccount, useEnableAccount, useInvite, useReissueInvitation } from "../api/accounts";
import "../people.css";

const roleOptions = roles.map((role) => ({ value: role, label: role }));

export function PeoplePage() {
  return (
    <ManagedListPage
      className="people-page"
      title="People"
      intro={
        <>
          Who may use this server, and with which role. An <strong>analyst</strong> {roleDescriptions.analyst}; a <strong>reviewer</strong>{" "}
          {roleDescriptions.reviewer}; an <strong>operator</strong> {roleDescriptions.operator}.
        </>
      }
      form={<InviteForm />}
      listTitle="Accounts"
      listId="accounts-title"
      sectionClassName="people-section"
    >
      <AccountList />
    </ManagedListPage>
  );
}

function InviteForm() {
  const invite = useInvite();
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("analyst");
  const [sent, setSent] = useState<Invitation | null>(null);
  const errors = fieldErrorsOf(invite.error);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (invite.isPending) return;
    invite.mutate(
      { name: name.trim(), email: email.trim(), role },
      {
        onSuccess: (answer) => {
          setSent(answer);
          setName("");
          setEmail("");
        },
      },
    );
  };

  return (
    <section className="composer invite-form" aria-labelledby="invite-title">
      <h2 id="invite-title" className="section-title">
        Invite someone
      </h2>
      {sent ? <InvitationLink invitation={sent} lead="Invitation" onDone={() => setSent(null)} /> : null}
      <form className="invite-fields" onSubmit={submit} aria-busy={invite.isPending} noValidate>
        <Field className="invite-field" label="Name" value={name} autoComplete="off" error={errors.name} announce="alert" onChange={(event) => setName(event.target.value)} />
        <Field className="invite-field" label="Email" type="email" value={email} autoComplete="off" error={errors.email} announce="alert" onChange={(event) => setEmail(event.target.value)} />
        <SelectField className="invite-field" label="Role" value={role} options={roleOptions} onChange={(event) => setRole(event.target.value as Role)} />
        <div className="invite-submit">
          <SubmitButton pending={invite.isPending}>Invite</SubmitButton>
        </div>
      </form>
      {invite.error && !invite.isPending && Object.keys(errors).length === 0 ? <ErrorNotice title="No invitation was made" error={invite.error} /> : null}
    </section>
  );
}

/** The link an invitation's email is sent, for the person it invites: shown once, with until when it works. */
function InvitationLink({ invitation, lead, onDone }: { invitation: Invitation; lead: string; onDone(): void }) {
  const { account, invitationPath, expiresAt } = invitation;
  return (
    <ShownOnce title={`${lead} for ${account.name}`} label={`Invitation link for ${account.name}`} value={new URL(invitationPath, window.location.origin).href} onDone={onDone}>
      <p>
        Send this link to {account.name} ({account.email}): they open it and choose a password, and are then signed in as {withArticle(account.role)}. It works once, until {formatDateTime(expiresAt)}.
      </p>
    </ShownOnce>
  );
}

function AccountList() {
  const accounts = useAccounts();
  const [reissued, setReissued] = useState<Invitation | null>(null);
  if (accounts.isPending) {
    return (
      <p className="muted">
        <Spinner label="Loading accounts" /> Loading accounts…
      </p>
    );
  }
  if (accounts.isError && !accounts.data) return <ErrorNotice title="Accounts could not be loaded" error={accounts.error} />;
  if (accounts.data.length === 0) return <EmptyState title="No accounts yet">Invite someone above.</EmptyState>;
  return (
    <>
      {reissued ? <InvitationLink invitation={reissued} lead="A new invitation link" onDone={() => setReissued(null)} /> : null}
      <Table label="Account list" className="accounts-table table-cards" columns={["Name", "Email", "Role", "Status", "Created", ""]}>
        {accounts.data.map((account) => (
          <AccountRow key={account.id} account={account} onReissued={setReissued} />
        ))}
      </Table>
    </>
  );
}

function AccountStatus({ account }: { account: Account }) {
  if (account.disabled_at) return <Pill tone="neutral">Disabled</Pill>;
  if (!account.active) {
    const expires = account.invitation_expires_at;
    const expired = expires === null || Date.parse(expires) <= Date.now();
    return (
      <>
        <Pill tone="warning">Invited</Pill>{" "}
        <span className="muted small">
          {expired ? (
            "link expired"
          ) : (
            <>
              link expires <time dateTime={expires}>{formatDateTime(expires)}</time>
            </>
          )}
        </span>
      </>
    );
  }
  return <Pill tone="success">Active</Pill>;
}

function AccountRow({ account, onReissued }: { account: Account; onReissued(invitation: Invitation): void }) {
  const me = useMe();
  const changeRole = useChangeRole();
  const disable = useDisableAccount();
  const enable = useEnableAccount();
  const reissue = useReissueInvitation();
  const toggle = account.disabled_at ? enable : disable;
  const error = changeRole.error ?? toggle.error ?? reissue.error;
  const pending = changeRole.isPending || toggle.isPending || reissue.isPending;
  const invited = !account.active && !account.disabled_at;
  const you = me?.id === account.id;
  // A role chosen in the select is only proposed: it applies once confirmed, and "Keep" (or Escape) puts the select back.
  const [proposed, setProposed] = useState<Role | null>(null);
  const selectRef = useRef<HTMLSelectElement>(null);
  const keep = () => {
    setProposed(null);
    changeRole.reset();
    selectRef.current?.focus();
  };
  return (
    <tr aria-label={account.name}>
      <td data-label="Name">
        <strong>{account.name}</strong>
        {you ? <span className="muted small"> (you)</span> : null}
        {error && !pending ? (
          <p className="hint hint-error" role="alert">
            {errorMessage(error)}
          </p>
        ) : null}
      </td>
      <td data-label="Email">
        <BreakableText text={account.email} />
      </td>
      <td className="nowrap" data-label="Role">
        <select
          ref={selectRef}
          className="input role-select"
          aria-label={`Role of ${account.name}`}
          value={proposed ?? account.role}
          disabled={pending}
          onChange={(event) => {
            const role = event.target.value as Role;
            setProposed(role === account.role ? null : role);
          }}
        >
          {roleOptions.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        {proposed ? (
          <div
            role="group"
            aria-label={`Confirm the role of ${account.name}`}
            className="role-confirm"
            onKeyDown={(event) => {
              if (event.key === "Escape") {
                event.stopPropagation();
                keep();
              }
            }}
          >
            <p className="small">
              Make {you ? "yourself" : account.name} {withArticle(proposed)}? {withArticle(proposed).replace(/^./, (c) => c.toUpperCase())} {roleDescriptions[proposed]}.
            </p>
            <div className="composer-actions">
              <button type="button" className="button button-secondary button-small" onClick={keep} disabled={pending}>
                Keep {account.role}
              </button>
              <button
                type="button"
                className="button button-primary button-small"
                disabled={pending}
                aria-busy={changeRole.isPending}
                onClick={() => {
                  disable.reset();
                  enable.reset();
                  changeRole.mutate({ accountId: account.id, role: proposed }, { onSuccess: () => setProposed(null) });
                }}
              >
                {changeRole.isPending ? <Spinner /> : null}
                Change to {proposed}
              </button>
            </div>
          </div>
        ) : null}
      </td>
      <td data-label="Status">
        <AccountStatus account={account} />
      </td>
      <td className="nowrap" data-label="Created">
        <time dateTime={account.created_at}>{formatDateTime(account.created_at)}</time>
      </td>
      <td className="account-actions" data-label="Actions">
        {invited ? (
          <button
            type="button"
            className="button button-secondary button-small"
            disabled={pending}
            aria-busy={reissue.isPending}
            aria-label={`New link: send ${account.name} a new invitation link`}
            onClick={() => {
              changeRole.reset();
              toggle.reset();
              reissue.mutate({ accountId: account.id }, { onSuccess: onReissued });
            }}
          >
            {reissue.isPending ? <Spinner /> : null}
            New link
          </button>
        ) : null}
        {you ? null : (
          <button
            type="button"
            className="button button-secondary button-small"
            disabled={pending}
            aria-busy={toggle.isPending}
            aria-label={`${account.disabled_at ? "Enable" : "Disable"} ${account.name}`}
            onClick={() => {
              changeRole.reset();
              toggle.mutate({ accountId: account.id });
            }}
          >
            {toggle.isPending ? <Spinner /> : null}
            {account.disabled_at ? "Enable" : "Disable"}
          </button>
        )}
      </td>
    </tr>
  );
}
