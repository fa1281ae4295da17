/**
 * The export bundle: one ZIP a team takes into its next tools.
 * - `00-brief.md`: the brief the agents drafted from (and its earlier versions);
 * - one Markdown document per step, named by its place in the pipeline (`01-requirements.md` ... `06-test-cases.md`);
 * - `report.html`: the whole run in one page that draws every diagram offline (report.ts);
 * - `backlog/jira.csv`, `backlog/linear.csv`, `backlog/github.csv`: the user stories for each tracker's importer;
 * - `features/*.feature`: the test cases as Gherkin, one file per suite;
 * - `schema.sql`: the entity-relationship model as PostgreSQL DDL;
 * - `export.json` (the export payload as the API returns it: each artifact type's latest version, artifact only) and
 *   `manifest.json`, naming every other file with its SHA-256 (and each step's version and what made it), so a
 *   downloaded bundle can be checked file by file.
 * Byte-for-byte reproducible: entries are stored in that order with the export's own time as their modification time.
 */
import { createHash } from "node:crypto";
import { strToU8, zipSync } from "fflate";
import { z } from "zod";
import { isPlainObject } from "../../lib/json";
import { describeZodError } from "../../lib/zodIssues";
import { MadeBy } from "../provenance";
import { ExportPayload } from "../schemas";
import { backlogOf, githubCsv, jiraCsv, linearCsv } from "./backlogCsv";
import { renderBriefMarkdown } from "./brief";
import { ddlOf } from "./ddl";
import { featureFiles } from "./gherkin";
import { artifactFileName, artifactOrder, artifactTitle, renderArtifactMarkdown } from "./markdown";
import { type ReportSection, erDiagramOf, renderReport } from "./report";

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
  /** What made this version (provenance.ts); written into its document and the manifest. */
  made_by: MadeBy.optional(),
});
export type BundleArtifact = z.infer<typeof BundleArtifact>;

/** The run the bundle is of: its domain, every version of its brief (the last is what the agents read), and its steps in order. */
export const BundleRun = z.object({
  domain: z.string(),
  briefs: z.array(z.object({ version: z.number().int().positive(), brief: z.string(), by: z.string().nullable() })).min(1),
  steps: z.array(z.object({ artifact_type: z.string(), name: z.string() })),
});
export type BundleRun = z.infer<typeof BundleRun>;

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);

export const ManifestEntry = z.object({
  artifact_type: z.string(),
  /** The step as the pipeline names it, and its place (from 1). */
  step: z.string(),
  position: z.number().int(),
  version: z.number().int(),
  created_at: z.string(),
  made_by: MadeBy.nullable(),
  file: z.string(),
  sha256: Sha256,
});
export const ManifestFile = z.object({
  file: z.string(),
  /** brief, report, backlog, feature or schema. */
  kind: z.enum(["brief", "report", "backlog", "feature", "schema"]),
  sha256: Sha256,
});
export const BundleManifest = z.object({
  run_id: z.string(),
  exported_at: z.string(),
  export_json: z.object({ file: z.literal("export.json"), sha256: Sha256 }),
  artifacts: z.array(ManifestEntry),
  /** Every file but export.json, the artifacts' documents and the manifest itself. */
  files: z.array(ManifestFile),
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
export function buildBundle(exportJson: ExportPayload, artifacts: readonly BundleArtifact[], run: BundleRun): Uint8Array {
  const payload = ExportPayload.safeParse(exportJson);
  if (!payload.success) throw new BundleError(`the export payload is malformed: ${describeZodError(payload.error, { root: "(root)" })}`);
  const contents = z.array(BundleArtifact).safeParse(artifacts);
  if (!contents.success) throw new BundleError(`the artifacts are malformed: ${describeZodError(contents.error, { root: "(root)" })}`);
  const runRead = BundleRun.safeParse(run);
  if (!runRead.success) throw new BundleError(`the run is malformed: ${describeZodError(runRead.error, { root: "(root)" })}`);
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

  // The run's own steps give the order and the names; an artifact of no step follows them, in the known order.
  const steps = runRead.data.steps;
  const rank = (type: string) => {
    const at = steps.findIndex((step) => step.artifact_type === type);
    return at >= 0 ? at : steps.length + artifactOrder(type);
  };
  const ordered = [...contents.data].sort((a, b) => rank(a.artifact_type) - rank(b.artifact_type) || a.artifact_type.localeCompare(b.artifact_type) || a.version - b.version);
  const stepCount = Math.max(steps.length, ordered.length);
  const textFiles: { file: string; kind: z.infer<typeof ManifestFile>["kind"]; text: string }[] = [];
  const documents: { entry: Omit<z.infer<typeof ManifestEntry>, "sha256">; text: string }[] = [];
  const reportSections: ReportSection[] = [];

  const briefText = renderBriefMarkdown(payload.data.run_id, runRead.data.domain, runRead.data.briefs);
  textFiles.push({ file: "00-brief.md", kind: "brief", text: briefText });
  reportSections.push({ title: "00 Brief", markdown: briefText });
  ordered.forEach((artifact, index) => {
    const position = rank(artifact.artifact_type) < steps.length ? rank(artifact.artifact_type) + 1 : index + 1;
    const name = steps.find((step) => step.artifact_type === artifact.artifact_type)?.name ?? artifactTitle(artifact.artifact_type);
    const file = artifactFileName(artifact.artifact_type, position);
    const text = renderArtifactMarkdown({ ...artifact, run_id: payload.data.run_id, step: { name, position, of: stepCount }, ...(artifact.made_by ? { made_by: artifact.made_by } : {}) });
    documents.push({ entry: { artifact_type: artifact.artifact_type, step: name, position, version: artifact.version, created_at: artifact.created_at, made_by: artifact.made_by ?? null, file }, text });
    const body = artifactBody(artifact.content);
    const er = erDiagramOf(body);
    reportSections.push({ title: `${String(position).padStart(2, "0")} ${name}`, markdown: text, ...(er ? { extraDiagrams: [{ caption: "Entity-relationship diagram", source: er }] } : {}) });
  });

  // What the next tools import, from the latest version of each kind of artifact.
  const latestOf = (type: string) => {
    const found = ordered.filter((artifact) => artifact.artifact_type === type).at(-1);
    return artifactBody(found?.content);
  };
  const title = `${runRead.data.domain} (${payload.data.run_id})`;
  textFiles.push({ file: "report.html", kind: "report", text: renderReport(`Stitch run ${title}`, reportSections) });
  const stories = backlogOf(latestOf("agile"));
  if (stories.length > 0) {
    textFiles.push({ file: "backlog/jira.csv", kind: "backlog", text: jiraCsv(stories) });
    textFiles.push({ file: "backlog/linear.csv", kind: "backlog", text: linearCsv(stories) });
    textFiles.push({ file: "backlog/github.csv", kind: "backlog", text: githubCsv(stories) });
  }
  for (const feature of featureFiles(latestOf("qa"))) textFiles.push({ file: feature.file, kind: "feature", text: feature.text });
  const ddl = ddlOf(latestOf("diagramacion"), title);
  if (ddl) textFiles.push({ file: "schema.sql", kind: "schema", text: ddl.sql });

  const files: Record<string, Uint8Array> = {};
  const [brief, ...others] = textFiles;
  const listed: z.infer<typeof ManifestFile>[] = [];
  const add = (entry: { file: string; kind: z.infer<typeof ManifestFile>["kind"]; text: string }) => {
    const bytes = strToU8(entry.text);
    files[entry.file] = bytes;
    listed.push({ file: entry.file, kind: entry.kind, sha256: sha256(bytes) });
  };
  add(brief!);
  const entries: z.infer<typeof ManifestEntry>[] = [];
  for (const document of documents) {
    const bytes = strToU8(document.text);
    files[document.entry.file] = bytes;
    entries.push({ ...document.entry, sha256: sha256(bytes) });
  }
  others.forEach(add);
  const exportBytes = strToU8(`${JSON.stringify(exportJson, null, 2)}\n`);
  files["export.json"] = exportBytes;
  const manifest: BundleManifest = {
    run_id: payload.data.run_id,
    exported_at: payload.data.exported_at,
    export_json: { file: "export.json", sha256: sha256(exportBytes) },
    artifacts: entries,
    files: listed,
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
        return { artifact_type: artifact.artifact_type, version: artifact.version, created_at: artifact.created_at, artifact: artifactBody(artifact.content) };
      }),
  };
}

/** An artifact's own content: the `artifact` of an agent's envelope (`{ artifact, changes_made, justification }`), or the content itself when it has none. */
function artifactBody(content: unknown): unknown {
  return isPlainObject(content) && "artifact" in content ? content.artifact : content;
}
