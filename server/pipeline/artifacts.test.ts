/**
 * The artifact schemas (seeds/README.md, "Artifact shapes of the six agents"): lenient where real n8n agents
 * vary, strict on the fields the seed names.
 */
import { describe, expect, it } from "vitest";
import { ARTIFACT_TYPES, assertEnvelope, isArtifactType, parseEnvelope } from "./artifacts";

const requirements = {
  problem_statement_refined: "Riders book rides.",
  identified_domains: ["mobility"],
  core_capabilities: ["Riders can book rides"],
  external_dependencies: [],
  assumptions: [],
};

describe("envelopes from real n8n agents", () => {
  it("accepts plain-string lists, numeric ids, unknown keys and a missing changes_made/justification", () => {
    const parsed = assertEnvelope("requirements", { artifact: { ...requirements, core_capabilities: ["Book rides", { id: 7, name: "Pay" }, { capability: "Rate" }], confidence: 0.8 }, model: "gpt" });
    expect(parsed.changes_made).toEqual({ added: [], removed: [], modified: [] });
    expect(parsed.justification).toBe("");
    expect(parsed.artifact.core_capabilities[1]).toEqual({ id: "7", name: "Pay" });
    expect(parsed.artifact.confidence).toBe(0.8);
    expect(parsed.model).toBe("gpt");
  });

  it("reads a justification given as lines, change lists with objects, and nulls as empty", () => {
    const parsed = assertEnvelope("requirements", { artifact: requirements, changes_made: { added: [{ field: "x" }], removed: null }, justification: ["one", "two"] });
    expect(parsed.justification).toBe("one\ntwo");
    expect(parsed.changes_made).toEqual({ added: [{ field: "x" }], removed: [], modified: [] });
  });

  it("reads an epic's `stories` as `user_stories`", () => {
    const parsed = assertEnvelope("agile", { artifact: { epics: [{ title: "Rides", stories: [{ id: "US-1", title: "Book" }] }] } });
    expect(parsed.artifact.epics[0]?.user_stories).toEqual([{ id: "US-1", title: "Book" }]);
  });

  it("accepts a fenced Mermaid source, a prose ER model, and pseudocode as a list", () => {
    expect(parseEnvelope("diagramacion", { artifact: { entity_relationship_model: "Rider 1:N Ride", mermaid_sequence_diagram: "```mermaid\nsequenceDiagram\n  A->>B: hi\n```" } }).success).toBe(true);
    expect(parseEnvelope("pseudocodigo", { artifact: { user_story_pseudocode: [{ story_id: "US-1", pseudocode: "BEGIN END" }] } }).success).toBe(true);
  });
});

describe("what the schemas refuse, naming the field", () => {
  it.each([
    ["requirements", { artifact: { ...requirements, assumptions: undefined } }, "artifact.assumptions"],
    ["requirements", { artifact: { ...requirements, core_capabilities: [] } }, "core_capabilities must list at least one capability"],
    ["inception", { artifact: { product_vision: "v", scope_in: [], scope_out: [], stakeholders: [], high_level_architecture: "", risk_matrix: [], functional_requirements: [{ id: "FR-1", description: "d" }], non_functional_requirements: [] } }, "artifact.functional_requirements.0.title"],
    ["agile", { artifact: { epics: [{ title: "E", user_stories: [{ title: "no id" }] }] } }, "artifact.epics.0.user_stories.0.id"],
    ["diagramacion", { artifact: { entity_relationship_model: {}, mermaid_sequence_diagram: "graph TD; A-->B" } }, "must be Mermaid source starting with `sequenceDiagram`"],
    ["pseudocodigo", { artifact: { user_story_pseudocode: "US-1: do it" } }, "artifact.user_story_pseudocode"],
    ["qa", { artifact: { test_suites: [] } }, "test_suites must list at least one suite"],
    ["qa", { artifact: "tests" }, "artifact"],
  ] as const)("%s: %s", (type, content, expected) => {
    const parsed = parseEnvelope(type, content);
    expect(parsed.success).toBe(false);
    if (!parsed.success) {
      expect(parsed.error).toMatch(new RegExp(`^not a valid ${type} envelope: `));
      expect(parsed.error).toContain(expected);
    }
    expect(() => assertEnvelope(type, content)).toThrow(expected);
  });
});

it("knows the six artifact types", () => {
  expect(ARTIFACT_TYPES).toEqual(["requirements", "inception", "agile", "diagramacion", "pseudocodigo", "qa"]);
  expect(isArtifactType("qa")).toBe(true);
  expect(isArtifactType("security")).toBe(false);
});
