/** The end of a completed run: what the export holds, and the way back to its downloads in the run's header. */
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Spinner } from "../../../components/Spinner";
import { formatDateTime } from "../../../lib/time";
import { useExport } from "../api/get-export";

/** The header's first download, focused and brought into view. */
function goToDownloads() {
  const first = document.querySelector<HTMLElement>(".run-downloads a");
  if (typeof first?.scrollIntoView === "function") first.scrollIntoView({ block: "center" });
  first?.focus({ preventScroll: true });
}

const filePrefix: Record<string, string> = { requirements: "REQ", inception: "INC", agile: "US", diagramacion: "DIA", pseudocodigo: "PSE", qa: "TC" };

export function ExportCard({ runId, agentNames }: { runId: string; agentNames: Record<string, string> }) {
  const exported = useExport(runId, true);
  return (
    <section className="export-card" aria-labelledby={`${runId}-export-title`}>
      <div className="export-head">
        <span className="export-icon" aria-hidden="true">
          <svg viewBox="0 0 24 24" className="icon-lg">
            <path d="M12 3v12m0 0l-4.5-4.5M12 15l4.5-4.5M4 17v2a2 2 0 002 2h12a2 2 0 002-2v-2" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </span>
        <div>
          <h2 id={`${runId}-export-title`} className="export-title">Export</h2>
          <p className="muted small">The approved version of every artifact, as a ZIP bundle of numbered files or as one JSON document: both are downloaded from the top of the run.</p>
        </div>
      </div>
      {exported.isPending ? (
        <p className="muted small">
          <Spinner /> Preparing the export…
        </p>
      ) : exported.isError ? (
        <ErrorNotice title="The export could not be loaded" error={exported.error} />
      ) : (
        <ul className="export-list">
          {exported.data.artifacts.map((artifact) => (
            <li key={artifact.artifact_type}>
              <code className="id-chip">{filePrefix[artifact.artifact_type] ?? artifact.artifact_type.toUpperCase()}</code>
              <span className="export-name">{agentNames[artifact.artifact_type] ?? artifact.artifact_type}</span>
              <span className="version-badge">v{artifact.version}</span>
              <span className="muted small export-date">{formatDateTime(artifact.created_at)}</span>
            </li>
          ))}
        </ul>
      )}
      <div className="export-actions">
        <button type="button" className="button button-primary" onClick={goToDownloads}>
          Go to the downloads
        </button>
      </div>
    </section>
  );
}
