/**
 * Every engine run, of any flow, newest first, each linking to its live graph (and a plain flow's run to its
 * conversation); two runs of one flow chosen are compared side by side.
 */
import { useState } from "react";
import { EmptyState } from "../../../components/EmptyState";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Spinner } from "../../../components/Spinner";
import { EngineRunPill } from "../../../components/StatusPill";
import { Table } from "../../../components/Table";
import { Link, navigate, paths } from "../../../lib/router";
import { formatDateTime, formatRelative } from "../../../lib/time";
import type { EngineRunSummary } from "../../../lib/trpc";
import { useEngineRunList } from "../api/engine-runs";
import "../flow-graph.css";

/**
 * A run as the list names it: what it is (the agent pipeline, a workflow or step workflow by name, a flow) and its
 * title (the pipeline's domain, a workflow run's message), never an id alone.
 */
export function engineRunTitle(run: Pick<EngineRunSummary, "flow_name" | "title" | "owner">): string {
  const door = run.owner?.front_door;
  const what =
    door === "pipeline" ? "Agent pipeline" : door === "yaml" ? `Workflow ${run.flow_name.replace(/^workflow /, "")}` : door === "steps" ? `Step workflow ${run.flow_name.replace(/^steps /, "")}` : run.flow_name;
  return run.title ? `${what}: ${run.title}` : what;
}

/** Why the chosen runs cannot be compared yet; null once they are two runs of one flow. */
export function whyNotCompare(chosen: readonly Pick<EngineRunSummary, "flow_id">[]): string | null {
  if (chosen.length < 2) return `Choose ${chosen.length === 0 ? "two runs" : "one more run"} of one flow to compare them.`;
  if (chosen[0]!.flow_id !== chosen[1]!.flow_id) return "These two runs are of different flows: choose two runs of one flow (or open a fork's header to compare it with its parent).";
  return null;
}

export function EngineRunList() {
  const runs = useEngineRunList();
  // The runs chosen to compare, oldest choice first; a third choice replaces the oldest.
  const [chosenIds, setChosenIds] = useState<string[]>([]);
  const toggle = (id: string) => setChosenIds((ids) => (ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id].slice(-2)));
  const chosen = chosenIds.flatMap((id) => runs.data?.find((run) => run.id === id) ?? []);
  const why = whyNotCompare(chosen);
  return (
    <div className="page-pad">
      <header className="run-header">
        <h1 className="run-title">Engine runs</h1>
        <p className="muted small">Runs of every flow on the engine, including the agent pipeline's. Open one to follow its graph and complete its UX nodes.</p>
      </header>
      {runs.isPending ? (
        <p className="muted">
          <Spinner label="Loading runs" /> Loading runs…
        </p>
      ) : runs.isError && !runs.data ? (
        <ErrorNotice title="Engine runs could not be loaded" error={runs.error} />
      ) : runs.data.length === 0 ? (
        <EmptyState title="No engine runs yet">Start a flow through the API, or submit a brief: each pipeline run is an engine run too.</EmptyState>
      ) : (
        <Table label="Engine runs" columns={["Compare", "Run", "Status", "Started", "Updated"]}>
          {runs.data.map((run) => (
            <tr key={run.id}>
              <td>
                <input type="checkbox" checked={chosenIds.includes(run.id)} onChange={() => toggle(run.id)} aria-label={`Compare ${engineRunTitle(run)} run ${run.id.slice(0, 8)}`} />
              </td>
              <td>
                <Link to={paths.engineRun(run.id)} className="table-link">
                  {engineRunTitle(run)}
                </Link>
                <div className="muted small">
                  <code>{run.id.slice(0, 8)}</code>
                  {run.owner ? null : (
                    <>
                      {" · "}
                      <Link to={paths.flowRun(run.id)}>
                        Conversation<span className="visually-hidden"> of {engineRunTitle(run)} run {run.id.slice(0, 8)}</span>
                      </Link>
                    </>
                  )}
                </div>
              </td>
              <td>
                <EngineRunPill status={run.status} />
              </td>
              <td className="nowrap">{formatDateTime(run.created_at)}</td>
              <td className="nowrap">{formatRelative(run.updated_at)}</td>
            </tr>
          ))}
        </Table>
      )}
      {(runs.data?.length ?? 0) > 1 ? (
        <div className="compare-chosen" role="group" aria-label="Compare two runs">
          <button type="button" className="button button-secondary button-small" disabled={why !== null} onClick={() => navigate(paths.runCompare(chosen[0]!.id, chosen[1]!.id))}>
            Compare the two chosen runs
          </button>
          <span className="muted small" role="status">{why ?? `${engineRunTitle(chosen[0]!)} and ${engineRunTitle(chosen[1]!)}`}</span>
        </div>
      ) : null}
    </div>
  );
}
