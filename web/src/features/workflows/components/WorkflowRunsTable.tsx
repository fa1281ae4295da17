/** Recent workflow runs, newest first: of one workflow (on its page) or of all (under the list). */
import { EmptyState } from "../../../components/EmptyState";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Spinner } from "../../../components/Spinner";
import { EngineRunPill } from "../../../components/StatusPill";
import { Table } from "../../../components/Table";
import { Link, paths } from "../../../lib/router";
import { formatDateTime, formatRelative } from "../../../lib/time";
import { useWorkflowRuns } from "../api/runs";

const shownRuns = 25;
const excerpt = (text: string) => (text.length > 90 ? `${text.slice(0, 90)}…` : text);

export function WorkflowRunsTable({ workflow }: { workflow?: string }) {
  const runs = useWorkflowRuns(workflow);
  if (runs.isPending) {
    return (
      <p className="muted">
        <Spinner label="Loading runs" /> Loading runs…
      </p>
    );
  }
  if (runs.isError && !runs.data) return <ErrorNotice title="Runs could not be loaded" error={runs.error} />;
  if (runs.data.length === 0) return <EmptyState title="No runs yet">{workflow ? "Start one above." : "Open a workflow to start its first run."}</EmptyState>;
  const shown = runs.data.slice(0, shownRuns);
  return (
    <>
      <Table label={workflow ? `Runs of ${workflow}` : "Recent workflow runs"} columns={["Status", "Run", ...(workflow ? [] : ["Workflow"]), "Started"]}>
        {shown.map((run) => (
          <tr key={run.id}>
            <td>
              <EngineRunPill status={run.status} />
            </td>
            <td>
              <Link to={paths.workflowRun(run.id)} className="table-link">
                {run.message.trim() ? excerpt(run.message) : "Run without a message"}
              </Link>{" "}
              <span className="muted small">
                · v{run.version} · <code>{run.id.slice(0, 8)}</code>
              </span>
            </td>
            {workflow ? null : (
              <td>
                <Link to={paths.workflow(run.workflow)}>{run.workflow}</Link>
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
      {runs.data.length > shown.length ? (
        <p className="hint">
          The {shown.length} most recent of {runs.data.length} runs.
        </p>
      ) : null}
    </>
  );
}
