/** The export bundle, unzipped with fflate and checked file by file against its manifest. */
import { createHash } from "node:crypto";
import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { BRIEFS, runPipeline } from "../../testing/agentTestkit";
import { ARTIFACT_TYPES } from "../artifacts";
import { type BundleArtifact, BundleError, BundleManifest, buildBundle, exportPayloadOf } from "./bundle";

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

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("buildBundle", () => {
  const files = unzipSync(buildBundle(exportJson, stored));

  it("holds export.json, one Markdown file per artifact in pipeline order, and manifest.json", () => {
    expect(Object.keys(files)).toEqual([
      "export.json",
      "REQ-002-requirements.md",
      "INC-001-inception.md",
      "US-001-user-stories.md",
      "DIA-001-diagrams.md",
      "PSE-001-pseudocode.md",
      "TC-003-test-cases.md",
      "manifest.json",
    ]);
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

  it("manifest.json names every artifact with its file and the SHA-256 of its bytes", () => {
    const manifest = BundleManifest.parse(JSON.parse(strFromU8(files["manifest.json"] as Uint8Array)));
    expect(manifest.run_id).toBe("RUN_1");
    expect(manifest.exported_at).toBe("2026-02-17T23:00:00Z");
    expect(manifest.export_json.sha256).toBe(sha256(files["export.json"] as Uint8Array));
    expect(manifest.artifacts.map((entry) => [entry.artifact_type, entry.version, entry.file])).toEqual([
      ["requirements", 2, "REQ-002-requirements.md"],
      ["inception", 1, "INC-001-inception.md"],
      ["agile", 1, "US-001-user-stories.md"],
      ["diagramacion", 1, "DIA-001-diagrams.md"],
      ["pseudocodigo", 1, "PSE-001-pseudocode.md"],
      ["qa", 3, "TC-003-test-cases.md"],
    ]);
    for (const entry of manifest.artifacts) {
      expect(entry.sha256, entry.file).toBe(sha256(files[entry.file] as Uint8Array));
      expect(entry.created_at).toBe(stored.find((artifact) => artifact.artifact_type === entry.artifact_type)?.created_at);
    }
  });

  it("the Markdown files render the full envelopes, including changes and justification", () => {
    const requirements = strFromU8(files["REQ-002-requirements.md"] as Uint8Array);
    expect(requirements.startsWith("# REQ-002 Requirements\n")).toBe(true);
    expect(requirements).toContain("- **Run:** RUN_1");
    expect(requirements).toContain(envelopes.requirements.justification);
    const diagrams = strFromU8(files["DIA-001-diagrams.md"] as Uint8Array);
    expect(diagrams).toContain("```mermaid\nsequenceDiagram\n");
  });

  it("is reproducible: the same input gives the same bytes", () => {
    expect(sha256(buildBundle(exportJson, stored))).toBe(sha256(buildBundle(exportJson, stored)));
  });

  it("refuses an export and contents that do not describe the same artifacts, or a bad export time", () => {
    expect(() => buildBundle(exportJson, stored.slice(1))).toThrow(BundleError);
    expect(() => buildBundle(exportJson, stored.slice(1))).toThrow("no content for qa v3");
    expect(() => buildBundle(exportJson, [...stored, { ...stored[0], version: 1 } as BundleArtifact])).toThrow("content for qa v1 which the export does not list");
    expect(() => buildBundle({ ...exportJson, exported_at: "yesterday" }, stored)).toThrow('exported_at "yesterday" is not a date');
    expect(() => buildBundle({ run_id: "RUN_1" } as never, stored)).toThrow("the export payload is malformed: exported_at");
  });

  it("bundles an empty run (nothing exported yet) as export.json and manifest.json only", () => {
    const empty = unzipSync(buildBundle(exportPayloadOf("RUN_2", "2026-02-18T00:00:00Z", []), []));
    expect(Object.keys(empty)).toEqual(["export.json", "manifest.json"]);
  });
});
