/**
 * The open designer of one flow: the drawing (from the draft or a version), kept as a draft server-side as it
 * changes, checked as it changes, and the header's commands: save as the next version (with a message; refused
 * while the check finds problems, and on a stale base shown who saved what since, with the diff, and "Save on
 * top"), versions (compare any two, restore one), run, import and export, "Discard draft", which asks first, and for
 * operators "Re-run failed runs…" (ForkFailedRuns).
 */
import { type ReactNode, useState } from "react";
import { ConfirmDialog } from "../../../components/ConfirmDialog";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Field } from "../../../components/Field";
import { Notice } from "../../../components/Notice";
import { navigate, paths } from "../../../lib/router";
import { useCan } from "../../../lib/session";
import { formatDateTime } from "../../../lib/time";
import type { FlowGraph } from "../../../lib/trpc";
import { useFlowCheck } from "../api/check";
import { useDiscardDraft, useKeepDraft } from "../api/drafts";
import { useLastInput, useStartFlowRun } from "../api/runs";
import { useSaveVersion } from "../api/versions";
import { useFlowEditor } from "../hooks/useFlowEditor";
import { useNarrowScreen } from "../hooks/useNarrowScreen";
import { noDecorations } from "../model/decorations";
import { readNewFlowDraft, writeNewFlowDraft } from "../model/newFlowDraft";
import { staleVersionOf } from "../model/versionDiff";
import { DesignerWorkspace } from "./DesignerWorkspace";
import { exportFlow, ImportPanel } from "./ImportExport";
import { ForkFailedRuns } from "./ForkFailedRuns";
import { RunDialog } from "./RunDialog";
import { StaleSavePanel } from "./StaleSavePanel";
import { VersionHistory } from "./VersionHistory";

interface Saved {
  name: string;
  version: number;
  graph: FlowGraph;
}

type Panel = "save" | "run" | "versions" | "import" | "discard" | "failed" | null;

const sameGraph = (a: FlowGraph, b: FlowGraph) => JSON.stringify(a) === JSON.stringify(b);

export function DesignerSession({ flowId, saved, draft }: {
  flowId: string;
  saved: Saved | null;
  draft: { name: string; base_version: number; graph: FlowGraph; updated_at: string } | null;
}) {
  const operator = useCan("operator");
  const narrow = useNarrowScreen();
  const editable = operator && !narrow;
  const empty: FlowGraph = { nodes: [], edges: [] };
  // A new flow with neither version nor draft starts from what an import handed over in this tab, if anything.
  const [handedOver] = useState(() => (saved || draft ? null : readNewFlowDraft()));
  const editor = useFlowEditor(draft?.graph ?? saved?.graph ?? handedOver?.graph ?? empty);
  const [name, setName] = useState(draft?.name ?? saved?.name ?? "");
  // The version the drawing started from, and its graph: what the draft differs from, and the save's base.
  const [base, setBase] = useState<{ version: number; graph: FlowGraph }>(() => ({ version: draft?.base_version ?? saved?.version ?? 0, graph: saved && (draft?.base_version ?? saved.version) === saved.version ? saved.graph : empty }));
  const [panel, setPanel] = useState<Panel>(null);
  const [message, setMessage] = useState("");
  const [notice, setNotice] = useState<ReactNode>(draft ? `Your draft from ${formatDateTime(draft.updated_at)}, started from ${draft.base_version ? `version ${draft.base_version}` : "a new flow"}, is open.` : null);
  const isNew = base.version === 0;
  const changed = !sameGraph(editor.graph, base.graph) || (isNew && name.trim() !== "");
  const kept = useKeepDraft(flowId, { graph: editor.graph, base_version: base.version, ...(name.trim() ? { name: name.trim() } : {}) }, editable && changed && (!isNew || name.trim() !== ""));
  const check = useFlowCheck(editor.graph, editable);
  const save = useSaveVersion();
  const discard = useDiscardDraft();
  const start = useStartFlowRun();
  const lastInput = useLastInput(isNew ? null : flowId);
  const stale = staleVersionOf(save.error);

  const problems = check.problems;
  const blocked = editor.graph.nodes.length === 0 ? "Add a node first." : problems.length ? `Fix the ${problems.length} problem${problems.length > 1 ? "s" : ""} first: a flow with problems is kept as a draft, not saved as a version.` : isNew && !name.trim() ? "Name the flow first." : null;

  const doSave = (baseVersion: number) =>
    save.mutate(
      { flowId, graph: editor.graph, message: message.trim(), base_version: baseVersion, ...(isNew ? { name: name.trim() } : {}) },
      {
        onSuccess: (version) => {
          kept.forget();
          setBase({ version: version.version, graph: editor.graph });
          setPanel(null);
          setMessage("");
          setNotice(`Saved as version ${version.version}.`);
          if (isNew) writeNewFlowDraft(null);
        },
      },
    );

  const heading = isNew ? "New flow" : name;
  const versionLabel = isNew ? "not saved yet" : `version ${base.version}${changed ? ", with changes not saved" : ""}`;
  return (
    <div className="page-pad designer-page">
      <header className="designer-head">
        <div>
          <h1 className="designer-title">{heading}</h1>
          <p className="muted small">
            {versionLabel}
            {editable && changed ? (kept.saving ? " · keeping the draft…" : kept.error ? " · the draft could not be kept" : " · draft kept") : null}
            {!editable ? (narrow ? " · read-only on a small screen" : " · read-only: operators edit flows") : null}
          </p>
        </div>
        <div className="designer-head-actions">
          {editable ? (
            <button type="button" className="button button-primary" aria-expanded={panel === "save"} onClick={() => setPanel(panel === "save" ? null : "save")}>
              Save as version {base.version + 1}…
            </button>
          ) : null}
          {!isNew ? (
            <button type="button" className="button button-secondary" aria-expanded={panel === "run"} onClick={() => setPanel(panel === "run" ? null : "run")}>
              Run version {base.version}…
            </button>
          ) : null}
          {!isNew ? (
            <button type="button" className="button button-secondary" aria-expanded={panel === "versions"} onClick={() => setPanel(panel === "versions" ? null : "versions")}>
              Versions
            </button>
          ) : null}
          {operator && !isNew ? (
            <button type="button" className="button button-secondary" aria-expanded={panel === "failed"} onClick={() => setPanel(panel === "failed" ? null : "failed")}>
              Re-run failed runs…
            </button>
          ) : null}
          <button type="button" className="button button-secondary" onClick={() => exportFlow(name || "flow", editor.graph)}>
            Export JSON
          </button>
          <button type="button" className="button button-secondary" aria-expanded={panel === "import"} onClick={() => setPanel(panel === "import" ? null : "import")}>
            Import JSON…
          </button>
          {editable && (changed || draft) ? (
            <button type="button" className="button button-ghost" onClick={() => setPanel("discard")}>
              Discard draft…
            </button>
          ) : null}
        </div>
      </header>
      {notice ? <Notice tone="neutral" title={String(notice)}>{null}</Notice> : null}
      {isNew && editable ? <Field label="Flow name" className="field designer-name" value={name} onChange={(e) => setName(e.target.value)} hint="What the flow is called in the list of flows." /> : null}

      {panel === "save" && editable ? (
        <form
          className="designer-dialog"
          aria-labelledby="save-title"
          onSubmit={(event) => {
            event.preventDefault();
            if (!blocked && message.trim()) doSave(base.version);
          }}
        >
          <h2 id="save-title" className="inspector-subtitle">Save as version {base.version + 1}</h2>
          <Field label="What changed" className="field" value={message} onChange={(e) => setMessage(e.target.value)} hint="Said beside the version in its history." />
          {blocked ? <p className="hint hint-error">{blocked}</p> : null}
          {save.error && !stale ? <ErrorNotice title="The version was not saved" error={save.error} /> : null}
          <div className="dialog-actions">
            <button type="submit" className="button button-primary" disabled={Boolean(blocked) || !message.trim() || save.isPending}>
              {save.isPending ? "Saving…" : `Save version ${base.version + 1}`}
            </button>
            <button type="button" className="button button-secondary" onClick={() => setPanel(null)}>
              Keep drawing
            </button>
          </div>
        </form>
      ) : null}
      {stale && panel === "save" ? (
        <StaleSavePanel flowId={flowId} stale={stale} baseVersion={base.version} mine={editor.graph} pending={save.isPending} onSaveOnTop={() => doSave(stale.latest.version)} />
      ) : null}

      {panel === "run" && !isNew ? (
        <RunDialog
          flowId={flowId}
          versionLabel={`version ${base.version}`}
          lastInput={lastInput}
          pending={start.isPending}
          error={start.error}
          onClose={() => setPanel(null)}
          onStart={(input) => start.mutateAsync({ flowId, input, version: base.version }).then((run) => navigate(paths.flows.run(run.id)))}
        />
      ) : null}
      {panel === "versions" && !isNew ? (
        <VersionHistory
          flowId={flowId}
          current={base.version}
          editable={editable}
          onRestored={(version, graph) => {
            editor.replace(graph);
            setBase({ version, graph });
            setNotice(`Restored as version ${version}.`);
            setPanel(null);
          }}
        />
      ) : null}
      {panel === "failed" && operator && !isNew ? <ForkFailedRuns flowId={flowId} onClose={() => setPanel(null)} /> : null}
      {panel === "import" ? (
        <ImportPanel
          canImportHere={editable}
          onImportHere={(graph) => {
            editor.replace(graph);
            setPanel(null);
            setNotice("Imported: save it as a new version, or undo to go back.");
          }}
          onImportAsNewFlow={(graph) => {
            writeNewFlowDraft({ name: "", graph });
            navigate(paths.flows.create());
          }}
          onClose={() => setPanel(null)}
        />
      ) : null}
      {panel === "discard" ? (
        <ConfirmDialog
          title="Discard your draft?"
          confirmLabel={isNew ? "Discard the new flow's drawing" : `Discard it and open version ${base.version}`}
          cancelLabel="Keep my draft"
          pending={discard.isPending}
          onCancel={() => setPanel(null)}
          onConfirm={() =>
            discard.mutate(
              { flowId },
              {
                onSuccess: () => {
                  kept.forget();
                  editor.reset(base.graph);
                  if (isNew) setName("");
                  setPanel(null);
                  setNotice(isNew ? "The draft was discarded." : `The draft was discarded: version ${base.version} is open.`);
                },
              },
            )
          }
        >
          <p>Every change since {isNew ? "you started this flow" : `version ${base.version}`} is lost, here and on your other devices; undo cannot bring it back.</p>
          {discard.error ? <ErrorNotice title="The draft was not discarded" error={discard.error} /> : null}
        </ConfirmDialog>
      ) : null}

      <DesignerWorkspace editor={editor} editable={editable} decorations={noDecorations} problems={editable ? problems : []} checking={check.checking} />
    </div>
  );
}
