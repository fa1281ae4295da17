/**
 * Where a run was forked from, and the runs forked from it, each with a link to it and to its comparison with this run
 * (`/app/runs/{a}/compare/{b}`, which compares runs of any front door): the header of a flow run and of a workflow run
 * show it alike, each linking runs to its own pages.
 */
import { Link, paths } from "../lib/router";
import type { EngineRun } from "../lib/trpc";
import { EngineRunPill } from "./StatusPill";
import "./RunLineage.css";

export interface RunLineageProps {
  run: Pick<EngineRun, "id" | "forked_from" | "forks">;
  /** Where the app shows a run of this front door (its parent and forks are runs of the same door). */
  runPath(runId: string): string;
}

export function RunLineage({ run, runPath }: RunLineageProps) {
  const { forked_from: parent, forks } = run;
  if (!parent && forks.length === 0) return null;
  return (
    <div className="run-lineage small">
      {parent ? (
        <p>
          Forked from <Link to={runPath(parent.run_id)}>run {parent.run_id.slice(0, 8)}</Link> at <code>{parent.node_id}</code>
          {parent.by?.name ? ` by ${parent.by.name}` : ""} · {parent.version === "latest" ? `on the latest version (v${parent.flow_version})` : "on the version it ran"} ·{" "}
          <Link to={paths.runCompare(parent.run_id, run.id)}>Compare with parent</Link>
        </p>
      ) : null}
      {forks.length > 0 ? (
        <div>
          <span>Forks:</span>
          <ul className="run-forks">
            {forks.map((fork) => (
              <li key={fork.run_id}>
                <Link to={runPath(fork.run_id)}>run {fork.run_id.slice(0, 8)}</Link> at <code>{fork.node_id}</code>
                {fork.by?.name ? ` by ${fork.by.name}` : ""} · <EngineRunPill status={fork.status} /> ·{" "}
                <Link to={paths.runCompare(run.id, fork.run_id)} aria-label={`Compare with run ${fork.run_id.slice(0, 8)}`}>compare</Link>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
