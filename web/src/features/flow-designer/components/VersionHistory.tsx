/**
 * A flow's versions, newest first (number, message, who saved it and when): any two compared on the canvas and as a
 * list, and any older one restored (as a new version with its graph: nothing is overwritten).
 */
import { useId, useState } from "react";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Spinner } from "../../../components/Spinner";
import { formatDateTime } from "../../../lib/time";
import type { FlowGraph } from "../../../lib/trpc";
import { useDiff, useRestoreVersion, useVersion, useVersions } from "../api/versions";
import { DiffCanvas } from "./DiffCanvas";

export function VersionHistory({ flowId, current, editable, onRestored }: { flowId: string; current: number; editable: boolean; onRestored(version: number, graph: FlowGraph): void }) {
  const versions = useVersions(flowId);
  const restore = useRestoreVersion();
  const latest = Math.max(current, ...(versions.data ?? []).map((v) => v.version));
  const [range, setRange] = useState<{ from: number; to: number } | null>(null);
  const [from, setFrom] = useState(Math.max(1, current - 1));
  const [to, setTo] = useState(current);
  const fromId = useId();
  const toId = useId();
  if (versions.isPending) return <Spinner label="Loading the versions" />;
  if (versions.error) return <ErrorNotice title="The versions could not be loaded" error={versions.error} />;
  const list = [...versions.data].sort((a, b) => b.version - a.version);
  return (
    <section className="designer-dialog" aria-labelledby="versions-title">
      <h2 id="versions-title" className="inspector-subtitle">Versions</h2>
      <ol className="version-list">
        {list.map((v) => (
          <li key={v.version} className="version-row">
            <span>
              <strong>Version {v.version}</strong> · {v.message || v.origin} · {v.author?.name ?? "unknown"} · {formatDateTime(v.created_at)}
              {v.version === current ? " · open" : ""}
            </span>
            {editable && v.version !== latest ? (
              <button
                type="button"
                className="button button-secondary button-small"
                disabled={restore.isPending}
                onClick={() =>
                  restore.mutate(
                    { flowId, version: v.version, base_version: latest },
                    { onSuccess: (made) => onRestored(made.version, made.graph) },
                  )
                }
              >
                Restore version {v.version} as version {latest + 1}
              </button>
            ) : null}
          </li>
        ))}
      </ol>
      {restore.error ? <ErrorNotice title="The version was not restored" error={restore.error} /> : null}
      {list.length > 1 ? (
        <form
          className="compare-row"
          onSubmit={(event) => {
            event.preventDefault();
            setRange({ from, to });
          }}
        >
          <label htmlFor={fromId} className="field-title">Compare version</label>
          <select id={fromId} className="input" value={from} onChange={(e) => setFrom(Number(e.target.value))}>
            {list.map((v) => <option key={v.version} value={v.version}>{v.version}</option>)}
          </select>
          <label htmlFor={toId} className="field-title">with version</label>
          <select id={toId} className="input" value={to} onChange={(e) => setTo(Number(e.target.value))}>
            {list.map((v) => <option key={v.version} value={v.version}>{v.version}</option>)}
          </select>
          <button type="submit" className="button button-secondary button-small" disabled={from === to}>
            Compare
          </button>
        </form>
      ) : null}
      {range ? <VersionCompare flowId={flowId} range={range} /> : null}
    </section>
  );
}

function VersionCompare({ flowId, range }: { flowId: string; range: { from: number; to: number } }) {
  const diff = useDiff(flowId, range);
  const before = useVersion(flowId, range.from);
  const after = useVersion(flowId, range.to);
  const error = diff.error ?? before.error ?? after.error;
  if (error) return <ErrorNotice title="The versions could not be compared" error={error} />;
  if (!diff.data || !before.data || !after.data) return <Spinner label="Comparing" />;
  return <DiffCanvas before={before.data.graph} after={after.data.graph} diff={diff.data} title={`From version ${range.from} to version ${range.to}`} />;
}
