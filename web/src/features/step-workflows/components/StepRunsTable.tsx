/** Recent step workflow runs, newest first: of one workflow (on its page) or of all (under the list), each with its inputs in short. */
import { EmptyState } from "../../../components/EmptyState";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Spinner } from "../../../components/Spinner";
import { EngineRunPill } from "../../../components/StatusPill";
import { Table } from "../../../components/Table";
import { Link, paths } from "../../../lib/router";
import { formatDateTime, formatRelative } from "../../../lib/time";
import { useStepRuns } from "../api/runs";
import { inputsInShort } from "../utils/result";

const shownRuns = 25;

export function StepRunsTable({ workflow }: { workflow?: string }) {
  const runs = useStepRuns(workflow);
  if (runs.isPending) {
    return (
      <p className="muted">
        <Spinner label="Loading runs" /> Loading runs…
      </p>
    );
  }
  if (runs.isError && !runs.data) return <ErrorNotice title="Runs could not be loaded" error={runs.error} />;
  if (runs.data.length === 0) return <EmptyState title="No runs yet">{workflow ? "Start one above." : "Open a step workflow to start its first run."}</EmptyState>;
  const shown = runs.data.slice(0, shownRuns);
  return (
    <Table label={workflow ? `Runs of ${workflow}` : "Recent step workflow runs"} columns={["Status", "Inputs", ...(workflow ? [] : ["Workflow"]), "Started"]}>
      {shown.map((run) => (
        <tr key={run.id}>
          <td>
            <EngineRunPill status={run.status} />
          </td>
          <td>
            <Link to={paths.stepRun(run.id)} className="table-link">
              {inputsInShort(run.inputs)}
            </Link>{" "}
            <span className="muted small">
              · v{run.version} · <code>{run.id.slice(0, 8)}</code>
            </span>
          </td>
          {workflow ? null : (
            <td>
              <Link to={paths.stepWorkflow(run.workflow)}>{run.workflow}</Link>
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
  );
}
