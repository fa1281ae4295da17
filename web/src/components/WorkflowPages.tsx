/**
 * The pages of a workflow front door (the YAML workflows, the JSON step workflows), as far as they are alike: the list
 * with "New …" and the recent runs, a workflow's header, its sections (its definition read-only or edited into a new
 * version), "New …" with the format in short, and the way back to the list. The door words the titles and labels
 * (lib/workflowDoor); the feature brings what its workflows hold.
 */
import { type ReactNode, useId, useState } from "react";
import { Link, navigate } from "../lib/router";
import { useCan } from "../lib/session";
import { formatDateTime } from "../lib/time";
import { type WorkflowDoor, doorTitle } from "../lib/workflowDoor";
import { EmptyState } from "./EmptyState";
import { ErrorNotice } from "./ErrorNotice";
import { Spinner } from "./Spinner";
import "./WorkflowPages.css";

/** Above a workflow page's title: the way back to the list. */
export function WorkflowsCrumb({ door }: { door: WorkflowDoor }) {
  return (
    <p className="breadcrumb small">
      <Link to={door.paths.list()}>{doorTitle(door)}</Link> /
    </p>
  );
}

/** "New workflow", for operators (who register workflows); nothing for anyone else. */
export function NewWorkflowLink({ door }: { door: WorkflowDoor }) {
  if (!useCan("operator")) return null;
  return (
    <Link to={door.paths.create()} className="button button-primary button-small">
      <svg className="icon" viewBox="0 0 20 20" aria-hidden="true">
        <path d="M10 4v12M4 10h12" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
      New {door.noun}
    </Link>
  );
}

/** A section of a workflow page under its heading, with an action beside the heading when one is given. */
export function PageSection({ title, action, children }: { title: string; action?: ReactNode; children: ReactNode }) {
  const titleId = useId();
  const heading = (
    <h2 id={titleId} className="section-title">
      {title}
    </h2>
  );
  return (
    <section className="page-section" aria-labelledby={titleId}>
      {action === undefined ? (
        heading
      ) : (
        <div className="section-head">
          {heading}
          {action}
        </div>
      )}
      {children}
    </section>
  );
}

export interface WorkflowListProps<T> {
  door: WorkflowDoor;
  /** Under the title: what the door's workflows are. */
  intro: ReactNode;
  workflows: { isPending: boolean; isError: boolean; data?: T[]; error: unknown };
  /** What to do when there is none yet. */
  empty: ReactNode;
  /** The table of the workflows, once there are some. */
  children(workflows: T[]): ReactNode;
  /** The recent runs of them all. */
  runs: ReactNode;
}

/** The workflows registered on the server (each one's latest version), "New …", and the recent runs of them all. */
export function WorkflowListPage<T>({ door, intro, workflows, empty, children, runs }: WorkflowListProps<T>) {
  const title = doorTitle(door);
  const plural = `${door.noun}s`;
  return (
    <div className="page-pad workflows-page">
      <header className="run-header">
        <div className="run-title-row">
          <h1 className="run-title">{title}</h1>
          <NewWorkflowLink door={door} />
        </div>
        <p className="muted small">{intro}</p>
      </header>
      {workflows.isPending ? (
        <p className="muted">
          <Spinner label={`Loading ${plural}`} /> Loading {plural}…
        </p>
      ) : workflows.isError && !workflows.data ? (
        <ErrorNotice title={`${title} could not be loaded`} error={workflows.error} />
      ) : !workflows.data?.length ? (
        <EmptyState title={`No ${plural} yet`}>{empty}</EmptyState>
      ) : (
        children(workflows.data)
      )}
      <PageSection title="Recent runs">{runs}</PageSection>
    </div>
  );
}

export interface WorkflowHeaderProps {
  door: WorkflowDoor;
  workflow: { name: string; version: number; created_at: string; versions: readonly unknown[] };
  /** Beside the version badge (a workflow's tags). */
  badges?: ReactNode;
  /** Between the title and the line saying when it was registered (its title, its description). */
  about: ReactNode;
  /** Added to that line. */
  registered?: string;
  children?: ReactNode;
}

/** A workflow page's header: the way back, its name and latest version, what it is, and when it was registered. */
export function WorkflowHeader({ door, workflow, badges, about, registered = "", children }: WorkflowHeaderProps) {
  const versions = workflow.versions.length;
  return (
    <header className="run-header">
      <WorkflowsCrumb door={door} />
      <div className="run-title-row">
        <h1 className="run-title">{workflow.name}</h1>
        <span className="version-badge" title={`Version ${workflow.version}, the latest`}>
          v{workflow.version}
        </span>
        {badges}
      </div>
      {about}
      <p className="run-sub muted small">
        Version {workflow.version} registered {formatDateTime(workflow.created_at)} · {versions} version{versions === 1 ? "" : "s"}
        {registered}
      </p>
      {children}
    </header>
  );
}

/** What the editor of a definition is told: back out, or saved (under the name the saved definition has). */
export interface EditorDone {
  onDiscard(): void;
  onSaved(saved: { name: string }): void;
}

/**
 * "Definition": the definition read-only, and for operators (who register versions) a button that swaps it for the
 * editor. Saved, the page shows the new version, or the renamed workflow's page.
 */
export function DefinitionSection({ door, name, editLabel, editor, children }: { door: WorkflowDoor; name: string; editLabel: string; editor(done: EditorDone): ReactNode; children: ReactNode }) {
  const [editing, setEditing] = useState(false);
  const operator = useCan("operator");
  const done: EditorDone = {
    onDiscard: () => setEditing(false),
    onSaved: (saved) => {
      setEditing(false);
      if (saved.name !== name) navigate(door.paths.workflow(saved.name));
    },
  };
  const edit = (
    <button type="button" className="button button-secondary button-small" onClick={() => setEditing(true)}>
      {editLabel}
    </button>
  );
  return (
    <PageSection title="Definition" action={editing || !operator ? null : edit}>
      {editing ? editor(done) : children}
    </PageSection>
  );
}

/** "New …": the way back, the title, what to do, then the feature's notes and editor. */
export function NewWorkflowPage({ door, intro, children }: { door: WorkflowDoor; intro: ReactNode; children: ReactNode }) {
  return (
    <div className="page-pad workflows-page">
      <header className="run-header">
        <WorkflowsCrumb door={door} />
        <h1 className="run-title">New {door.noun}</h1>
        <p className="muted small">{intro}</p>
      </header>
      {children}
    </div>
  );
}

/** Notes folded under their summary ("The format in short"), beside an editor. */
export function FormatNotes({ summary, children }: { summary: string; children: ReactNode }) {
  return (
    <details className="format-notes">
      <summary>{summary}</summary>
      {children}
    </details>
  );
}
