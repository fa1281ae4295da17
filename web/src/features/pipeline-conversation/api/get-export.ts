import { trpc } from "../../../lib/trpc";

/** The export payload (latest version of each artifact); only asked for once the run is completed. */
export function useExport(runId: string, enabled: boolean) {
  return trpc.pipeline.export.useQuery({ runId }, { enabled });
}

/** Plain download links served by the REST API (files, not application data). */
export const downloadLinks = {
  bundle: (runId: string) => `/runs/${encodeURIComponent(runId)}/artifacts/bundle`,
  exportJson: (runId: string) => `/runs/${encodeURIComponent(runId)}/artifacts/export?download=1`,
};
