/**
 * "Flows": every plain flow with its latest version, who saved it and when, its runs in progress and its last run's
 * outcome, and "New flow" for operators. Flows a front door registered (the agent pipeline's, a workflow's) are
 * that front door's and not listed here.
 */
import { EmptyState } from "../../../components/EmptyState";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Spinner } from "../../../components/Spinner";
import { EngineRunPill } from "../../../components/StatusPill";
import { Table } from "../../../components/Table";
import { Link, navigate, paths } from "../../../lib/router";
import { useCan } from "../../../lib/session";
import { formatDateTime } from "../../../lib/time";
import { useFlowList } from "../api/flows";
import "../designer.css";

export function FlowListPage() {
  const flows = useFlowList();
  const operator = useCan("operator");
  const list = flows.data?.filter((flow) => !flow.registered) ?? [];
  return (
    <div className="page-pad">
      <header className="run-header flow-list-head">
        <div>
          <h1 className="run-title">Flows</h1>
          <p className="muted small">Flows drawn on the canvas: open one to change it, see its versions, or run it.</p>
        </div>
        {operator ? (
          <button type="button" className="button button-primary" onClick={() => navigate(paths.flows.create())}>
            New flow
          </button>
        ) : null}
      </header>
      {flows.isPending ? (
        <Spinner label="Loading flows" />
      ) : flows.isError && !flows.data ? (
        <ErrorNotice title="The flows could not be loaded" error={flows.error} />
      ) : list.length === 0 ? (
        <EmptyState title="No flows yet">{operator ? "Start one with “New flow”, or import a flow's JSON into a new flow." : "An operator draws the first one."}</EmptyState>
      ) : (
        <Table label="Flows" columns={["Flow", "Latest version", "Saved", "In progress", "Last run"]}>
          {list.map((flow) => (
            <tr key={flow.id}>
              <td>
                <Link to={paths.flows.flow(flow.id)} className="table-link">
                  {flow.name}
                </Link>
              </td>
              <td>Version {flow.version}</td>
              <td className="nowrap">
                {flow.saved_by?.name ?? "someone"}, {formatDateTime(flow.saved_at)}
              </td>
              <td>{flow.runs_in_progress}</td>
              <td>
                {flow.last_run ? (
                  <Link to={paths.flows.run(flow.last_run.id)}>
                    {/* Named by what it shows, after what it is (WCAG 2.5.3, label in name). */}
                    <span className="visually-hidden">{`Last run of ${flow.name}, version ${flow.last_run.flow_version}: `}</span>
                    <EngineRunPill status={flow.last_run.status} />
                  </Link>
                ) : (
                  <span className="muted">Never run</span>
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
    </div>
  );
}
