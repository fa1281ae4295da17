/**
 * The audit trail, for operators: every change anyone (or any worker or agent) asked for, accepted or refused, newest
 * first: when, who, the action, its target, the outcome with its status, and the address and browser it came from.
 * Filtered by a run (or any target's id), a person, an action (a name, or a prefix ending in "." for a family of
 * them) and the outcome; "Load older entries" reads the next page. The people to pick from come from the page.
 */
import { type FormEvent, useState } from "react";
import { EmptyState } from "../../../components/EmptyState";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Field } from "../../../components/Field";
import { SelectField } from "../../../components/SelectField";
import { Spinner } from "../../../components/Spinner";
import { Pill } from "../../../components/StatusPill";
import { Table } from "../../../components/Table";
import { Link, paths } from "../../../lib/router";
import { formatDateTime } from "../../../lib/time";
import { BreakableText } from "../../../components/BreakableText";
import type { AuditEntry, AuditFilter } from "../../../lib/trpc";
import { useAuditTrail } from "../api/audit";
import "../audit.css";

export interface AuditPerson {
  id: string;
  name: string;
}

interface Draft {
  target: string;
  accountId: string;
  action: string;
  outcome: string;
}

const noFilter: Draft = { target: "", accountId: "", action: "", outcome: "" };

/** The filter the server is asked with: the fields left empty filter nothing. */
export function filterOf(draft: Draft): AuditFilter {
  const target = draft.target.trim();
  const action = draft.action.trim();
  return {
    ...(target ? { target } : {}),
    ...(draft.accountId ? { accountId: draft.accountId } : {}),
    ...(action ? { action } : {}),
    ...(draft.outcome === "accepted" || draft.outcome === "refused" ? { outcome: draft.outcome } : {}),
  };
}

export function AuditPage({ people }: { people: AuditPerson[] }) {
  const [draft, setDraft] = useState<Draft>(noFilter);
  const [filter, setFilter] = useState<AuditFilter>({});
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilter(filterOf(draft));
  };
  const clear = () => {
    setDraft(noFilter);
    setFilter({});
  };
  const set = (field: keyof Draft) => (event: { target: { value: string } }) => setDraft((previous) => ({ ...previous, [field]: event.target.value }));
  const filtered = Object.keys(filter).length > 0;
  return (
    <div className="page-pad audit-page">
      <header className="run-header">
        <h1 className="run-title">Audit trail</h1>
        <p className="muted small">
          Every change asked of this server, accepted or refused, with who asked for it and from where. Entries are never changed or removed.
        </p>
      </header>
      <form className="composer audit-filters" aria-label="Filter the audit trail" onSubmit={apply}>
        <Field className="audit-filter" label="Run or target" value={draft.target} placeholder="A run, node, flow, workflow or account id" onChange={set("target")} />
        <SelectField
          className="audit-filter"
          label="Person"
          value={draft.accountId}
          options={[{ value: "", label: "Anyone" }, ...people.map((person) => ({ value: person.id, label: person.name }))]}
          onChange={set("accountId")}
        />
        <Field className="audit-filter" label="Action" value={draft.action} placeholder="pipeline.approve, or pipeline." onChange={set("action")} />
        <SelectField
          className="audit-filter audit-filter-narrow"
          label="Outcome"
          value={draft.outcome}
          options={[
            { value: "", label: "Any" },
            { value: "accepted", label: "Accepted" },
            { value: "refused", label: "Refused" },
          ]}
          onChange={set("outcome")}
        />
        <div className="audit-filter-actions">
          <button type="submit" className="button button-primary">
            Filter
          </button>
          {filtered ? (
            <button type="button" className="button button-secondary" onClick={clear}>
              Clear
            </button>
          ) : null}
        </div>
      </form>
      <AuditEntries filter={filter} filtered={filtered} />
    </div>
  );
}

function AuditEntries({ filter, filtered }: { filter: AuditFilter; filtered: boolean }) {
  const trail = useAuditTrail(filter);
  if (trail.isPending) {
    return (
      <p className="muted">
        <Spinner label="Loading the audit trail" /> Loading the audit trail…
      </p>
    );
  }
  if (!trail.data) return <ErrorNotice title="The audit trail could not be loaded" error={trail.error} />;
  const entries = trail.data.pages.flatMap((page) => page.entries);
  if (entries.length === 0) {
    return <EmptyState title={filtered ? "No entry matches" : "Nothing recorded yet"}>{filtered ? "Try fewer filters." : "Changes appear here as people make them."}</EmptyState>;
  }
  return (
    <>
      {trail.isRefetchError ? <ErrorNotice title="Updates paused: the latest entries could not be fetched" error={trail.error} /> : null}
      <Table label="Audit entries" className="audit-table table-cards" columns={["When", "Who", "Action", "Target", "Outcome", "Address"]}>
        {entries.map((entry) => (
          <AuditRow key={entry.id} entry={entry} />
        ))}
      </Table>
      {trail.hasNextPage ? (
        <div className="audit-more">
          {trail.isFetchNextPageError ? <ErrorNotice title="Older entries could not be loaded" error={trail.error} /> : null}
          <button type="button" className="button button-secondary" disabled={trail.isFetchingNextPage} aria-busy={trail.isFetchingNextPage} onClick={() => void trail.fetchNextPage()}>
            {trail.isFetchingNextPage ? <Spinner /> : null}
            Load older entries
          </button>
        </div>
      ) : (
        <p className="hint">
          {entries.length} entr{entries.length === 1 ? "y" : "ies"}, the oldest last.
        </p>
      )}
    </>
  );
}

const actorKindLabel: Record<AuditEntry["actor_kind"], string | null> = {
  account: null,
  token: "API token",
  bootstrap: "bootstrap token",
  worker: "worker",
  agent: "agent",
  anonymous: "not signed in",
};

/**
 * Where a run named by an action opens in the app: its front door is the action's first word. The REST doors of
 * both kinds of workflow share the word "workflow", so their runs are not linked.
 */
export function runLink(entry: Pick<AuditEntry, "action" | "target_kind" | "target_id">): string | null {
  if (entry.target_kind !== "run" || !entry.target_id) return null;
  const door = entry.action.split(".")[0];
  if (door === "pipeline") return paths.run(entry.target_id);
  if (door === "workflows") return paths.workflows.run(entry.target_id);
  if (door === "steps") return paths.steps.run(entry.target_id);
  if (door === "engine") return paths.engineRun(entry.target_id);
  return null;
}

/**
 * What an entry's message says: a refusal's reason, or what the person said with an accepted action, which the server
 * records as "comment: ...", "feedback: ...", "reason: ..." or "brief: ...", shown under that label.
 */
function AuditMessage({ entry }: { entry: AuditEntry }) {
  const said = entry.outcome === "accepted" ? /^(comment|feedback|reason|brief): ([\s\S]*)$/.exec(entry.message ?? "") : null;
  if (!said) return <p className="audit-message small">{entry.message}</p>;
  const label = { comment: "Comment", feedback: "Feedback", reason: "Reason", brief: "New brief" }[said[1] as "comment" | "feedback" | "reason" | "brief"];
  return (
    <blockquote className="audit-message audit-said small">
      <span className="muted">{label}:</span> {said[2]}
    </blockquote>
  );
}

function AuditRow({ entry }: { entry: AuditEntry }) {
  const kind = actorKindLabel[entry.actor_kind];
  const link = runLink(entry);
  return (
    <tr>
      <td className="nowrap" data-label="When">
        <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
      </td>
      <td data-label="Who">
        {entry.actor_name ? <BreakableText text={entry.actor_name} /> : <span className="muted">no one</span>}
        {kind && entry.actor_name !== kind ? (
          <div className="audit-kind">
            <span className="tag">{kind}</span>
          </div>
        ) : null}
      </td>
      <td className="audit-action" data-label="Action">
        <code>{entry.action}</code>
      </td>
      <td data-label="Target">
        {entry.target_id ? (
          <>
            {entry.target_title ? <div className="audit-target-title">{entry.target_title}</div> : null}
            {entry.target_kind ? <span className="muted small">{entry.target_kind} </span> : null}
            {link ? (
              <Link to={link}>
                <code>
                  <BreakableText text={entry.target_id} />
                </code>
              </Link>
            ) : (
              <code>
                <BreakableText text={entry.target_id} />
              </code>
            )}
          </>
        ) : (
          <span className="muted">—</span>
        )}
      </td>
      <td data-label="Outcome">
        <Pill tone={entry.outcome === "accepted" ? "success" : "danger"}>
          {entry.outcome === "accepted" ? "Accepted" : "Refused"}
          {entry.status ? ` · ${entry.status}` : ""}
        </Pill>
        {entry.message ? <AuditMessage entry={entry} /> : null}
      </td>
      <td data-label="Address">
        {entry.address ? <BreakableText text={entry.address} /> : <span className="muted">—</span>}
        {entry.user_agent ? (
          <p className="audit-agent muted small" title={entry.user_agent}>
            {entry.user_agent}
          </p>
        ) : null}
      </td>
    </tr>
  );
}
