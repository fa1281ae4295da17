/**
 * Recent runs of a workflow front door, newest first: of one workflow (on its page) or of all (under the list). The
 * feature says how a run is named; loading, errors, the empty state, the columns, the links (lib/workflowDoor) and
 * the "most recent of" hint are the same for every kind of workflow.
 */
import type { ReactNode } from "react";
import { Link } from "../lib/router";
import { formatDateTime, formatRelative } from "../lib/time";
import type { WorkflowDoor } from "../lib/workflowDoor";
import { EmptyState } from "./EmptyState";
import { ErrorNotice } from "./ErrorNotice";
import { Spinner } from "./Spinner";
import { EngineRunPill } from "./StatusPill";
import { Table } from "./Table";

const shownRuns = 25;

export interface RunRow {
  id: string;
  workflow: string;
  version: number;
  status: Parameters<typeof EngineRunPill>[0]["status"];
  created_at: string;
}

export interface WorkflowRunsTableProps<R extends RunRow> {
  door: WorkflowDoor;
  runs: { isPending: boolean; isError: boolean; data?: R[]; error: unknown };
  /** Set on a workflow's page: only its runs, without the Workflow column. */
  workflow?: string;
  /** The Run column's header and what names a run in it. */
  runColumn: string;
  runText: (run: R) => ReactNode;
}

export function WorkflowRunsTable<R extends RunRow>({ door, runs, workflow, runColumn, runText }: WorkflowRunsTableProps<R>) {
  if (runs.isPending) {
    return (
      <p className="muted">
        <Spinner label="Loading runs" /> Loading runs…
      </p>
    );
  }
  if (runs.isError && !runs.data) return <ErrorNotice title="Runs could not be loaded" error={runs.error} />;
  const all = runs.data ?? [];
  if (all.length === 0) return <EmptyState title="No runs yet">{workflow ? "Start one above." : `Open a ${door.noun} to start its first run.`}</EmptyState>;
  const shown = all.slice(0, shownRuns);
  return (
    <>
      <Table label={workflow ? `Runs of ${workflow}` : `Recent ${door.noun} runs`} columns={["Status", runColumn, ...(workflow ? [] : ["Workflow"]), "Started"]}>
        {shown.map((run) => (
          <tr key={run.id}>
            <td>
              <EngineRunPill status={run.status} />
            </td>
            <td>
              <Link to={door.paths.run(run.id)} className="table-link">
                {runText(run)}
              </Link>{" "}
              <span className="muted small">
                · v{run.version} · <code>{run.id.slice(0, 8)}</code>
              </span>
            </td>
            {workflow ? null : (
              <td>
                <Link to={door.paths.workflow(run.workflow)}>{run.workflow}</Link>
              </td>
            )}
            <td className="nowrap">
              <time dateTime={run.created_at} title={formatDateTime(run.created_at)}>
                {formatRelative(run.created_at)}
              </time>
            </td>
          </tr>
        ))}
      </Table>
      {all.length > shown.length ? (
        <p className="hint">
          The {shown.length} most recent of {all.length} runs.
        </p>
      ) : null}
    </>
  );
}
