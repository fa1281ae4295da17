/**
 * A save refused because someone saved since the version the drawing started from: who saved which version when,
 * with their message, what they changed (on a canvas and as a list), and "Save on top", which saves the drawing as
 * the version after theirs once the person has looked. Never last-write-wins: nothing is saved until she says so.
 */
import { formatDateTime } from "../../../lib/time";
import type { FlowGraph } from "../../../lib/trpc";
import { useVersion } from "../api/versions";
import type { StaleVersion } from "../model/versionDiff";
import { DiffCanvas } from "./DiffCanvas";

export function StaleSavePanel({ flowId, stale, baseVersion, pending, onSaveOnTop }: {
  flowId: string;
  stale: StaleVersion;
  baseVersion: number;
  mine: FlowGraph;
  pending: boolean;
  onSaveOnTop(): void;
}) {
  const before = useVersion(flowId, baseVersion > 0 ? baseVersion : null);
  const after = useVersion(flowId, stale.latest.version);
  const who = stale.latest.author?.name ?? "someone";
  return (
    <section className="designer-dialog stale-save" role="alert" aria-labelledby="stale-title">
      <h2 id="stale-title" className="inspector-subtitle">
        Version {stale.latest.version} was saved by {who} at {formatDateTime(stale.latest.created_at)} since you opened version {baseVersion}
      </h2>
      <p>
        Their message: “{stale.latest.message}”. Your drawing is kept; look at what they changed, then save yours on top of theirs, or keep drawing.
      </p>
      {after.data ? (
        <DiffCanvas before={before.data?.graph ?? { nodes: [], edges: [] }} after={after.data.graph} diff={stale.diff} title={`What changed from version ${baseVersion} to ${stale.latest.version}`} />
      ) : null}
      <div className="dialog-actions">
        <button type="button" className="button button-primary" disabled={pending} onClick={onSaveOnTop}>
          {pending ? "Saving…" : `Save on top as version ${stale.latest.version + 1}`}
        </button>
      </div>
    </section>
  );
}
