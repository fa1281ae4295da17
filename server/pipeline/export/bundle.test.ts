/** The export bundle, unzipped with fflate and checked file by file against its manifest. */
import { createHash } from "node:crypto";
import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { BRIEFS, PIPELINE_STEPS, feedbackCall, runPipeline } from "../../testing/agentTestkit";
import { draft } from "../agents/drafts";
import { ARTIFACT_TYPES } from "../artifacts";
import { type BundleArtifact, BundleError, BundleManifest, type BundleRun, buildBundle, exportPayloadOf } from "./bundle";

const envelopes = runPipeline(BRIEFS.superApp.domain, BRIEFS.superApp.brief);
const versionOf: Record<string, number> = { requirements: 2, qa: 3 };
// Stored in reverse order on purpose: the bundle orders files by pipeline order itself.
const stored: BundleArtifact[] = [...ARTIFACT_TYPES].reverse().map((type, index) => ({
  artifact_type: type,
  version: versionOf[type] ?? 1,
  created_at: `2026-02-17T22:1${index}:00Z`,
  content: envelopes[type],
}));
const exportJson = exportPayloadOf("RUN_1", "2026-02-17T23:00:00Z", stored);
const STEPS = PIPELINE_STEPS;
const run: BundleRun = {
  domain: BRIEFS.superApp.domain,
  briefs: [
    { version: 1, brief: "A super-app.", by: "Ana Analyst" },
    { version: 2, brief: BRIEFS.superApp.brief, by: "Ana Analyst" },
  ],
  steps: STEPS,
};

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("buildBundle", () => {
  const files = unzipSync(buildBundle(exportJson, stored, run));

  it("holds the brief, one Markdown file per step named by its place in the pipeline, the files the next tools import, export.json and manifest.json", () => {
    expect(Object.keys(files)).toEqual([
      "00-brief.md",
      "01-requirements.md",
      "02-inception.md",
      "03-user-stories.md",
      "04-diagrams.md",
      "05-pseudocode.md",
      "06-test-cases.md",
      "report.html",
      "backlog/jira.csv",
      "backlog/linear.csv",
      "backlog/github.csv",
      ...envelopes.qa.artifact.test_suites.map((suite) => expect.stringMatching(new RegExp(`^features/${String(suite.id).toLowerCase()}-[a-z0-9-]+\\.feature$`))),
      "schema.sql",
      "export.json",
      "manifest.json",
    ]);
  });

  it("the brief is the one the agents read, with the version it replaced", () => {
    const brief = strFromU8(files["00-brief.md"] as Uint8Array);
    expect(brief).toContain(`- **Version:** 2, by Ana Analyst\n\n${BRIEFS.superApp.brief}\n`);
    expect(brief).toContain("### Version 1, by Ana Analyst\n\n> A super-app.");
  });

  it("export.json is the export payload as given: latest versions, artifacts only", () => {
    const written = JSON.parse(strFromU8(files["export.json"] as Uint8Array));
    expect(written).toEqual(exportJson);
    expect(written.artifacts.map((artifact: { artifact_type: string; version: number }) => `${artifact.artifact_type}@${artifact.version}`)).toEqual([
      "requirements@2",
      "inception@1",
      "agile@1",
      "diagramacion@1",
      "pseudocodigo@1",
      "qa@3",
    ]);
    expect(written.artifacts[0].artifact).toEqual(envelopes.requirements.artifact);
    expect(written.artifacts[0]).not.toHaveProperty("justification");
  });

  it("manifest.json names every file with the SHA-256 of its bytes, and each step's version; the bundle verifies file by file", () => {
    const manifest = BundleManifest.parse(JSON.parse(strFromU8(files["manifest.json"] as Uint8Array)));
    expect(manifest.run_id).toBe("RUN_1");
    expect(manifest.exported_at).toBe("2026-02-17T23:00:00Z");
    expect(manifest.export_json.sha256).toBe(sha256(files["export.json"] as Uint8Array));
    expect(manifest.artifacts.map((entry) => [entry.artifact_type, entry.step, entry.version, entry.file])).toEqual([
      ["requirements", "Requirements", 2, "01-requirements.md"],
      ["inception", "Inception", 1, "02-inception.md"],
      ["agile", "User stories", 1, "03-user-stories.md"],
      ["diagramacion", "Diagrams", 1, "04-diagrams.md"],
      ["pseudocodigo", "Pseudocode", 1, "05-pseudocode.md"],
      ["qa", "QA", 3, "06-test-cases.md"],
    ]);
    for (const entry of manifest.artifacts) expect(entry.created_at).toBe(stored.find((artifact) => artifact.artifact_type === entry.artifact_type)?.created_at);
    const listed = [...manifest.artifacts, ...manifest.files, manifest.export_json];
    for (const entry of listed) expect(entry.sha256, entry.file).toBe(sha256(files[entry.file] as Uint8Array));
    // Every file but the manifest itself is listed, once.
    expect(listed.map((entry) => entry.file).sort()).toEqual(Object.keys(files).filter((file) => file !== "manifest.json").sort());
  });

  it("records what made each version in its document and the manifest", () => {
    const offline = { kind: "offline" as const, label: "Offline drafting (no language model)", detail: "A stand-in for a language model." };
    const made = unzipSync(buildBundle(exportJson, stored.map((artifact) => ({ ...artifact, made_by: offline })), run));
    const manifest = BundleManifest.parse(JSON.parse(strFromU8(made["manifest.json"] as Uint8Array)));
    expect(manifest.artifacts.map((entry) => entry.made_by)).toEqual(STEPS.map(() => offline));
    expect(strFromU8(made["01-requirements.md"] as Uint8Array)).toContain("- **Made by:** Offline drafting (no language model). A stand-in for a language model.");
  });

  it("the Markdown headers name the step, its place and version, never the artifact type's slug; no stale comment outcomes or raw anchors", () => {
    const diagrams = strFromU8(files["04-diagrams.md"] as Uint8Array);
    expect(diagrams.startsWith("# 04 Diagrams\n\n- **Step:** 4 of 6, Diagrams\n- **Version:** 1\n")).toBe(true);
    expect(diagrams).not.toMatch(/diagramacion|Artifact type/);
    const revised = draft("requirements", feedbackCall(envelopes.requirements, "Remove CAP-002."));
    const withOutcomes = {
      ...revised,
      changes_made: { ...revised.changes_made, modified: [...revised.changes_made.modified, "core_capabilities[CAP-003].description: now reads \"x\"", "mermaid_sequence_diagram:L4: removed"] },
      comment_outcomes: [{ anchor: "core_capabilities[CAP-003]", done: false, message: "not done" }],
    };
    const text = strFromU8(unzipSync(buildBundle(exportJson, stored.map((artifact) => (artifact.artifact_type === "requirements" ? { ...artifact, content: withOutcomes } : artifact)), run))["01-requirements.md"] as Uint8Array);
    expect(text).not.toMatch(/Comment outcomes|Done|core_capabilities\[/);
    expect(text).toContain('- Core capabilities: CAP-002 "Book rides"');
    expect(text).toContain('- CAP-003 description: now reads "x"');
    expect(text).toContain("- Line 4 of Mermaid sequence diagram: removed");
  });

  it("is reproducible: the same input gives the same bytes", () => {
    expect(sha256(buildBundle(exportJson, stored, run))).toBe(sha256(buildBundle(exportJson, stored, run)));
  });

  it("refuses an export and contents that do not describe the same artifacts, or a bad export time", () => {
    expect(() => buildBundle(exportJson, stored.slice(1), run)).toThrow(BundleError);
    expect(() => buildBundle(exportJson, stored.slice(1), run)).toThrow("no content for qa v3");
    expect(() => buildBundle(exportJson, [...stored, { ...stored[0], version: 1 } as BundleArtifact], run)).toThrow("content for qa v1 which the export does not list");
    expect(() => buildBundle({ ...exportJson, exported_at: "yesterday" }, stored, run)).toThrow('exported_at "yesterday" is not a date');
    expect(() => buildBundle({ run_id: "RUN_1" } as never, stored, run)).toThrow("the export payload is malformed: exported_at");
  });

  it("bundles an empty run (nothing exported yet) as its brief, the report, export.json and manifest.json only", () => {
    const empty = unzipSync(buildBundle(exportPayloadOf("RUN_2", "2026-02-18T00:00:00Z", []), [], run));
    expect(Object.keys(empty)).toEqual(["00-brief.md", "report.html", "export.json", "manifest.json"]);
  });
});
