/**
 * What changed between two versions of an output (`review.diff`): each added, removed, moved or changed part with its
 * name, a changed text as its words kept, inserted (<ins>) and deleted (<del>), long unchanged runs folded until
 * "Show unchanged"; the agent's own account beside it, and a plain notice wherever the two disagree. Any two versions
 * can be compared. Open on the version under review, folded on older ones.
 */
import { type ReactNode, useId, useState } from "react";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Spinner } from "../../../components/Spinner";
import type { ReviewDiffChange, ReviewOutput } from "../../../lib/trpc";
import { useDiff } from "../api/review";
import { WordDiff } from "../../../components/WordDiff";
import { shortValue } from "../utils/pieces";

const kindWords: Record<ReviewDiffChange["kind"], string> = { added: "Added", removed: "Removed", changed: "Changed", moved: "Moved" };

function Pieces({ change, showUnchanged }: { change: ReviewDiffChange; showUnchanged: boolean }) {
  return (
    <p className="diff-text">
      <WordDiff pieces={change.pieces} fold={!showUnchanged} className="" />
    </p>
  );
}

function Change({ change, showUnchanged }: { change: ReviewDiffChange; showUnchanged: boolean }) {
  return (
    <li className={`diff-change diff-${change.kind}`}>
      <span className={`diff-kind diff-kind-${change.kind}`}>{kindWords[change.kind]}</span> <span className="diff-label">{change.label}</span>
      {change.kind === "changed" && change.pieces.length > 0 ? <Pieces change={change} showUnchanged={showUnchanged} /> : null}
      {change.kind === "changed" && change.pieces.length === 0 ? (
        <p className="diff-text">
          <del>{shortValue(change.before)}</del> <ins>{shortValue(change.after)}</ins>
        </p>
      ) : null}
      {change.kind === "added" ? (
        <p className="diff-text">
          <ins>{shortValue(change.after)}</ins>
        </p>
      ) : null}
      {change.kind === "removed" ? (
        <p className="diff-text">
          <del>{shortValue(change.before)}</del>
        </p>
      ) : null}
      {change.kind === "moved" ? <p className="diff-text muted">From position {String(change.before)} to {String(change.after)}</p> : null}
    </li>
  );
}

export interface DiffPanelProps {
  decisionId: string;
  output: ReviewOutput;
  /** The version shown, and the one it revises (what it is compared with first). */
  version: number;
  revises: number;
  /** The agent's own account of the changes (ChangesMade), shown beside the diff. */
  claim: ReactNode;
  open: boolean;
}

export function DiffPanel({ decisionId, output, version, revises, claim, open: openAtFirst }: DiffPanelProps) {
  const [open, setOpen] = useState(openAtFirst);
  const [from, setFrom] = useState(revises);
  const [to, setTo] = useState(version);
  const [showUnchanged, setShowUnchanged] = useState(false);
  const diff = useDiff(decisionId, { against: from, version: to }, open && from !== to);
  const bodyId = useId();
  const data = diff.data;
  const versions = output.versions.map((v) => v.version);
  return (
    // Named apart from the agent's account inside it and from other outputs' panels: "What changed since v1, compared in
    // requirements v2".
    <section className="diff-panel" aria-label={`What changed since v${from}, compared in ${output.artifact_type ? `${output.artifact_type} ` : ""}v${to}`}>
      <header className="diff-head">
        <h3 className="diff-title">
          <button type="button" className="diff-toggle" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen((value) => !value)}>
            <svg className={`icon chevron${open ? " open" : ""}`} viewBox="0 0 20 20" aria-hidden="true">
              <path d="M6 8l4 4 4-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
            What changed since v{from}
            {to !== version ? ` (to v${to})` : ""}
          </button>
        </h3>
        {open ? (
          <span className="diff-versions">
            <VersionPicker text="Compare v" label="Older version" versions={versions} value={from} onChange={setFrom} />
            <VersionPicker text="with v" label="Newer version" versions={versions} value={to} onChange={setTo} />
          </span>
        ) : null}
      </header>
      <div id={bodyId} hidden={!open} className="diff-body">
        <div className="diff-computed">
          {from === to ? <p className="muted small">Pick two different versions.</p> : null}
          {diff.isPending && from !== to && open ? <Spinner label="Comparing the versions" /> : null}
          {diff.error ? <ErrorNotice title="The versions could not be compared" error={diff.error} /> : null}
          {data && from !== to ? (
            <>
              {data.mismatches.map((mismatch) => (
                <p key={`${mismatch.kind}:${mismatch.subject}`} className="notice notice-warning diff-mismatch" role="note">
                  {mismatch.message}
                </p>
              ))}
              {data.changes.length === 0 ? <p className="muted">The two versions are the same.</p> : null}
              <ol className="diff-changes" aria-label={`Changes from v${data.from_version} to v${data.to_version}`}>
                {data.changes.map((change) => (
                  <Change key={`${change.kind}:${change.anchor}`} change={change} showUnchanged={showUnchanged} />
                ))}
              </ol>
              <button type="button" className="button button-ghost button-small" aria-pressed={showUnchanged} onClick={() => setShowUnchanged((value) => !value)}>
                {showUnchanged ? "Hide unchanged" : `Show unchanged (${data.unchanged})`}
              </button>
              {showUnchanged ? (
                <p className="muted small">
                  {data.unchanged === 1 ? "1 part is" : `${data.unchanged} parts are`} the same in both versions; the changed texts above are shown whole.
                </p>
              ) : null}
            </>
          ) : null}
        </div>
        {claim && to === version ? <div className="diff-claim">{claim}</div> : null}
      </div>
    </section>
  );
}

/** One end of the comparison: which version, of those the output has. */
function VersionPicker({ text, label, versions, value, onChange }: { text: string; label: string; versions: readonly number[]; value: number; onChange(version: number): void }) {
  return (
    <label>
      {text}
      <select aria-label={label} value={value} onChange={(event) => onChange(Number(event.target.value))}>
        {versions.map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </select>
    </label>
  );
}
