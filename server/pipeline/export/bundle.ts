/**
 * The export bundle: one ZIP with `export.json` (the export payload as the API returns it: each artifact
 * type's latest version, artifact only), one Markdown document per exported artifact, and `manifest.json`
 * naming every file with its SHA-256, so a downloaded bundle can be checked file by file. Byte-for-byte
 * reproducible: entries are stored in pipeline order with the export's own time as their modification time.
 */
import { createHash } from "node:crypto";
import { strToU8, zipSync } from "fflate";
import { z } from "zod";
import { describeZodError } from "../../lib/zodIssues";
import { ExportPayload } from "../schemas";
import { artifactFileName, artifactOrder, renderArtifactMarkdown } from "./markdown";

export { ExportPayload };

/** A reviewer's approval of an exported artifact version, with their comment (null when they wrote none). */
export const BundleApproval = z.object({ by: z.string().nullable(), at: z.string(), comment: z.string().nullable() });
export type BundleApproval = z.infer<typeof BundleApproval>;

/** One exported artifact with its whole stored content (envelope with changes and justification), for the Markdown. */
export const BundleArtifact = z.object({
  artifact_type: z.string().min(1),
  version: z.number().int().positive(),
  created_at: z.string(),
  content: z.unknown(),
  /** Who approved this version, when, and what they said (none yet: not listed). */
  approvals: z.array(BundleApproval).optional(),
});
export type BundleArtifact = z.infer<typeof BundleArtifact>;

export const ManifestEntry = z.object({
  artifact_type: z.string(),
  version: z.number().int(),
  created_at: z.string(),
  file: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export const BundleManifest = z.object({
  run_id: z.string(),
  exported_at: z.string(),
  export_json: z.object({ file: z.literal("export.json"), sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
  artifacts: z.array(ManifestEntry),
});
export type BundleManifest = z.infer<typeof BundleManifest>;

export class BundleError extends Error {
  override name = "BundleError";
}

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

const key = (artifact: { artifact_type: string; version: number }) => `${artifact.artifact_type} v${artifact.version}`;

/**
 * `exportJson` is what GET /runs/{run_id}/artifacts/export answers; `artifacts` are the same artifacts'
 * full contents. Both must name the same artifacts (type and version), or BundleError says which differ.
 */
export function buildBundle(exportJson: ExportPayload, artifacts: readonly BundleArtifact[]): Uint8Array {
  const payload = ExportPayload.safeParse(exportJson);
  if (!payload.success) throw new BundleError(`the export payload is malformed: ${describeZodError(payload.error, { root: "(root)" })}`);
  const contents = z.array(BundleArtifact).safeParse(artifacts);
  if (!contents.success) throw new BundleError(`the artifacts are malformed: ${describeZodError(contents.error, { root: "(root)" })}`);
  const exportedAt = new Date(payload.data.exported_at);
  if (Number.isNaN(exportedAt.getTime())) throw new BundleError(`exported_at "${payload.data.exported_at}" is not a date`);

  const exported = new Set(payload.data.artifacts.map(key));
  const supplied = new Set(contents.data.map(key));
  const missing = [...exported].filter((name) => !supplied.has(name));
  const extra = [...supplied].filter((name) => !exported.has(name));
  if (missing.length > 0 || extra.length > 0 || supplied.size !== contents.data.length) {
    throw new BundleError(
      [
        missing.length > 0 ? `no content for ${missing.join(", ")}` : "",
        extra.length > 0 ? `content for ${extra.join(", ")} which the export does not list` : "",
        supplied.size !== contents.data.length ? "the same artifact version is given twice" : "",
      ]
        .filter(Boolean)
        .join("; "),
    );
  }

  const ordered = [...contents.data].sort((a, b) => artifactOrder(a.artifact_type) - artifactOrder(b.artifact_type) || a.artifact_type.localeCompare(b.artifact_type) || a.version - b.version);
  const exportBytes = strToU8(`${JSON.stringify(exportJson, null, 2)}\n`);
  const files: Record<string, Uint8Array> = { "export.json": exportBytes };
  const entries: z.infer<typeof ManifestEntry>[] = [];
  for (const artifact of ordered) {
    const file = artifactFileName(artifact.artifact_type, artifact.version);
    const bytes = strToU8(renderArtifactMarkdown({ ...artifact, run_id: payload.data.run_id }));
    files[file] = bytes;
    entries.push({ artifact_type: artifact.artifact_type, version: artifact.version, created_at: artifact.created_at, file, sha256: sha256(bytes) });
  }
  const manifest: BundleManifest = {
    run_id: payload.data.run_id,
    exported_at: payload.data.exported_at,
    export_json: { file: "export.json", sha256: sha256(exportBytes) },
    artifacts: entries,
  };
  files["manifest.json"] = strToU8(`${JSON.stringify(manifest, null, 2)}\n`);
  // ZIP times are DOS times (1980..2107); an export time outside that range is clamped rather than refused.
  const mtime = new Date(Math.min(Math.max(exportedAt.getTime(), Date.UTC(1980, 0, 2)), Date.UTC(2107, 0, 1)));
  return zipSync(files, { level: 6, mtime });
}

/**
 * The export payload, for callers that hold full contents: the latest version per type, keeping only
 * `content.artifact` when present.
 */
export function exportPayloadOf(runId: string, exportedAt: string, artifacts: readonly BundleArtifact[]): ExportPayload {
  const latest = new Map<string, BundleArtifact>();
  for (const artifact of artifacts) {
    const current = latest.get(artifact.artifact_type);
    if (!current || artifact.version > current.version) latest.set(artifact.artifact_type, artifact);
  }
  return {
    run_id: runId,
    exported_at: exportedAt,
    artifacts: [...latest.values()]
      .sort((a, b) => artifactOrder(a.artifact_type) - artifactOrder(b.artifact_type) || a.artifact_type.localeCompare(b.artifact_type))
      .map((artifact) => {
        const content = artifact.content;
        const only = content && typeof content === "object" && !Array.isArray(content) && "artifact" in content ? (content as { artifact: unknown }).artifact : content;
        return { artifact_type: artifact.artifact_type, version: artifact.version, created_at: artifact.created_at, artifact: only };
      }),
  };
}
