/**
 * The run's downloads, in its header from the first output on: the ZIP bundle and the export JSON, each the latest
 * version of every artifact so far (the approved ones once the run is completed).
 */
import { downloadLinks } from "../api/get-export";

export function RunDownloads({ runId, completed }: { runId: string; completed: boolean }) {
  return (
    <div className="run-downloads" role="group" aria-label="Downloads">
      <a className={`button ${completed ? "button-primary" : "button-secondary"} button-small`} href={downloadLinks.bundle(runId)} download>
        Download bundle
      </a>
      <a className="button button-secondary button-small" href={downloadLinks.exportJson(runId)} download>
        Download JSON
      </a>
      {completed ? null : <span className="muted small">the latest version of each output so far</span>}
    </div>
  );
}
