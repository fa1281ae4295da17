/**
 * Where a run was forked from, and the runs forked from it, each with a link to it and to its comparison with this run
 * (`/app/runs/{a}/compare/{b}`, which compares runs of any front door): the header of a flow run and of a workflow run
 * show it alike, each linking runs to its own pages.
 */
import type { ReactNode } from "react";
import { Link, paths } from "../lib/router";
import type { EngineRun } from "../lib/trpc";
import { EngineRunPill } from "./StatusPill";
import "./RunLineage.css";

/** One run of a lineage as a header names it: its link's text, where it was forked, by whom, and what else to say. */
export interface LineageEntry {
  runId: string;
  /** The link's text ("run 1a2b3c4d", a pipeline's RUN_...). */
  name: string;
  /** Where it was forked: a node or an agent. */
  at: ReactNode;
  by: string | null;
  /** After who forked it: the version it runs (the parent's), its status (a fork's). */
  note: ReactNode;
}

/**
 * A run's parent and forks, each linked to its page (`runPath`) and to its comparison with this run (`runId`): the one
 * lineage every run's header shows, whatever front door's run it is.
 */
export function LineageList({ runId, parent, forks, runPath }: { runId: string; parent: LineageEntry | null; forks: readonly LineageEntry[]; runPath(runId: string): string }) {
  if (!parent && forks.length === 0) return null;
  return (
    <div className="run-lineage small">
      {parent ? (
        <p>
          Forked from <Link to={runPath(parent.runId)}>{parent.name}</Link> at {parent.at}
          {parent.by ? ` by ${parent.by}` : ""} · {parent.note} · <Link to={paths.runCompare(parent.runId, runId)}>Compare with parent</Link>
        </p>
      ) : null}
      {forks.length > 0 ? (
        <div>
          <span>Forks:</span>
          <ul className="run-forks">
            {forks.map((fork) => (
              <li key={fork.runId}>
                <Link to={runPath(fork.runId)}>{fork.name}</Link> at {fork.at}
                {fork.by ? ` by ${fork.by}` : ""}
                {fork.note ? <> · {fork.note}</> : null} ·{" "}
                <Link to={paths.runCompare(runId, fork.runId)} aria-label={`Compare with ${fork.name}`}>compare</Link>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

export interface RunLineageProps {
  run: Pick<EngineRun, "id" | "forked_from" | "forks">;
  /** Where the app shows a run of this front door (its parent and forks are runs of the same door). */
  runPath(runId: string): string;
}

/** An engine run's lineage (a flow run's, a workflow run's): its nodes by id, its forks with their status. */
export function RunLineage({ run, runPath }: RunLineageProps) {
  const { forked_from: parent, forks } = run;
  const name = (id: string) => `run ${id.slice(0, 8)}`;
  return (
    <LineageList
      runId={run.id}
      runPath={runPath}
      parent={parent ? {
        runId: parent.run_id, name: name(parent.run_id), at: <code>{parent.node_id}</code>, by: parent.by?.name ?? null,
        note: parent.version === "latest" ? `on the latest version (v${parent.flow_version})` : "on the version it ran",
      } : null}
      forks={forks.map((fork) => ({ runId: fork.run_id, name: name(fork.run_id), at: <code>{fork.node_id}</code>, by: fork.by?.name ?? null, note: <EngineRunPill status={fork.status} /> }))}
    />
  );
}
