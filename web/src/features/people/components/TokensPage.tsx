/**
 * API tokens, for everyone: "Create a token" with a name, which answers the token once (a script sends it as
 * `Authorization: Bearer <token>` and acts as its owner, with the owner's role), and the tokens with their prefix,
 * when they were created and last used, and "Revoke". Operators see everyone's, with the owner.
 */
import { type FormEvent, useState } from "react";
import { EmptyState } from "../../../components/EmptyState";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Field } from "../../../components/Field";
import { Notice } from "../../../components/Notice";
import { ShownOnce } from "../../../components/ShownOnce";
import { Spinner } from "../../../components/Spinner";
import { Pill } from "../../../components/StatusPill";
import { SubmitButton } from "../../../components/SubmitButton";
import { Table } from "../../../components/Table";
import { fieldErrorsOf } from "../../../lib/errors";
import { useCan, useMe } from "../../../lib/session";
import { formatDateTime, formatRelative } from "../../../lib/time";
import type { ApiToken, NewApiToken } from "../../../lib/trpc";
import { useCreateToken, useRevokeToken, useTokens } from "../api/tokens";
import "../people.css";

export function TokensPage() {
  const me = useMe();
  const everyone = useCan("operator");
  return (
    <div className="page-pad people-page">
      <header className="run-header">
        <h1 className="run-title">API tokens</h1>
        <p className="muted small">
          A token lets a script or an integration call the API as you, with your role: it sends <code>Authorization: Bearer &lt;token&gt;</code>. Revoke a token
          you no longer use{everyone ? "; as an operator you see everyone's tokens, and may revoke any of them" : ""}.
        </p>
      </header>
      {me && me.id === null ? (
        <Notice tone="neutral" title="Tokens belong to accounts">
          You are signed in with the bootstrap token, which is not an account: sign in as an account to create tokens of your own.
        </Notice>
      ) : (
        <CreateTokenForm />
      )}
      <section className="people-section" aria-labelledby="tokens-title">
        <h2 id="tokens-title" className="section-title">
          {everyone ? "Everyone's tokens" : "Your tokens"}
        </h2>
        <TokenList withOwner={everyone} />
      </section>
    </div>
  );
}

function CreateTokenForm() {
  const create = useCreateToken();
  const [name, setName] = useState("");
  const [created, setCreated] = useState<NewApiToken | null>(null);
  const nameError = fieldErrorsOf(create.error).name;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending) return;
    create.mutate(
      { name: name.trim() },
      {
        onSuccess: (token) => {
          setCreated(token);
          setName("");
        },
      },
    );
  };
  return (
    <section className="composer invite-form" aria-labelledby="create-token-title">
      <h2 id="create-token-title" className="section-title">
        Create a token
      </h2>
      {created ? (
        <ShownOnce title={`Token "${created.name}"`} label={`API token ${created.name}`} value={created.token} onDone={() => setCreated(null)}>
          <p>
            Copy it now and keep it where your script reads its secrets: the server keeps only a hash of it, and this page will not show it again. It is
            listed below by its prefix, <code>{created.prefix}</code>.
          </p>
        </ShownOnce>
      ) : null}
      <form className="invite-fields" onSubmit={submit} aria-busy={create.isPending} noValidate>
        <Field
          className="invite-field token-name"
          label="Name"
          value={name}
          placeholder="What will use it, e.g. nightly export"
          autoComplete="off"
          error={nameError}
          announce="alert"
          onChange={(event) => setName(event.target.value)}
        />
        <div className="invite-submit">
          <SubmitButton pending={create.isPending} disabled={!name.trim()}>
            Create token
          </SubmitButton>
        </div>
      </form>
      {create.error && !create.isPending && !nameError ? <ErrorNotice title="No token was created" error={create.error} /> : null}
    </section>
  );
}

function When({ at, never }: { at: string | null; never: string }) {
  if (!at) return <span className="muted">{never}</span>;
  return (
    <time dateTime={at} title={formatDateTime(at)}>
      {formatRelative(at)}
    </time>
  );
}

function TokenList({ withOwner }: { withOwner: boolean }) {
  const tokens = useTokens();
  if (tokens.isPending) {
    return (
      <p className="muted">
        <Spinner label="Loading tokens" /> Loading tokens…
      </p>
    );
  }
  if (tokens.isError && !tokens.data) return <ErrorNotice title="Tokens could not be loaded" error={tokens.error} />;
  if (tokens.data.length === 0) return <EmptyState title="No tokens yet">Create one above when a script needs to call the API.</EmptyState>;
  return (
    <Table label="API tokens" className="tokens-table" columns={["Name", "Prefix", ...(withOwner ? ["Owner"] : []), "Created", "Last used", "Status", ""]}>
      {tokens.data.map((token) => (
        <TokenRow key={token.id} token={token} withOwner={withOwner} />
      ))}
    </Table>
  );
}

function TokenRow({ token, withOwner }: { token: ApiToken; withOwner: boolean }) {
  const revoke = useRevokeToken();
  // Revoking cannot be undone: the first click asks, the second revokes.
  const [confirming, setConfirming] = useState(false);
  return (
    <tr aria-label={token.name}>
      <td>
        <strong>{token.name}</strong>
        {revoke.error && !revoke.isPending ? <ErrorNotice title="The token was not revoked" error={revoke.error} /> : null}
      </td>
      <td className="nowrap">
        <code>{token.prefix}…</code>
      </td>
      {withOwner ? <td>{token.account_name}</td> : null}
      <td className="nowrap">
        <When at={token.created_at} never="" />
      </td>
      <td className="nowrap">
        <When at={token.last_used_at} never="Never" />
      </td>
      <td className="nowrap">{token.revoked_at ? <Pill tone="neutral">Revoked</Pill> : <Pill tone="success">Active</Pill>}</td>
      <td className="nowrap">
        {token.revoked_at ? null : confirming ? (
          <div className="token-actions">
            <button type="button" className="button button-secondary button-small" disabled={revoke.isPending} onClick={() => setConfirming(false)}>
              Keep
            </button>
            <button
              type="button"
              className="button button-danger button-small"
              disabled={revoke.isPending}
              aria-busy={revoke.isPending}
              aria-label={`Revoke ${token.name} for good`}
              onClick={() => revoke.mutate({ tokenId: token.id }, { onSettled: () => setConfirming(false) })}
            >
              {revoke.isPending ? <Spinner /> : null}
              Revoke for good
            </button>
          </div>
        ) : (
          <button type="button" className="button button-secondary button-small" aria-label={`Revoke ${token.name}`} onClick={() => setConfirming(true)}>
            Revoke
          </button>
        )}
      </td>
    </tr>
  );
}
