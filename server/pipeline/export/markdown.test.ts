/** One Markdown document per artifact, readable for the built-in shapes and never failing on others. */
import { describe, expect, it } from "vitest";
import { BRIEFS, runPipeline } from "../../testing/agentTestkit";
import { ARTIFACT_TYPES } from "../artifacts";
import { artifactFileName, renderArtifactMarkdown } from "./markdown";

const envelopes = runPipeline(BRIEFS.superApp.domain, BRIEFS.superApp.brief);
const render = (artifact_type: string, content: unknown, version = 1) => renderArtifactMarkdown({ artifact_type, version, created_at: "2026-02-17T22:10:00Z", content, run_id: "RUN_1" });

describe("file names", () => {
  it("are the step's place in the pipeline and what it holds, so they sort in pipeline order; no version that reads like an item id", () => {
    expect(ARTIFACT_TYPES.map((type, index) => artifactFileName(type, index + 1))).toEqual([
      "01-requirements.md",
      "02-inception.md",
      "03-user-stories.md",
      "04-diagrams.md",
      "05-pseudocode.md",
      "06-test-cases.md",
    ]);
    expect(artifactFileName("Security Review", 7)).toBe("07-security-review.md");
  });
});

describe("built-in artifacts", () => {
  it("starts with the step's title, version, time and run; without a step, the type's readable title", () => {
    expect(render("requirements", envelopes.requirements, 2).split("\n").slice(0, 5)).toEqual([
      "# Requirements",
      "",
      "- **Version:** 2",
      "- **Created:** 2026-02-17T22:10:00Z",
      "- **Run:** RUN_1",
    ]);
    const step = renderArtifactMarkdown({ artifact_type: "diagramacion", version: 3, created_at: "2026-02-17T22:10:00Z", content: envelopes.diagramacion, step: { name: "Diagrams", position: 4, of: 6 } });
    expect(step.split("\n").slice(0, 5)).toEqual(["# 04 Diagrams", "", "- **Step:** 4 of 6, Diagrams", "- **Version:** 3", "- **Created:** 2026-02-17T22:10:00Z"]);
  });

  it("requirements: sections in the artifact's field order, capabilities as a table, extra fields generically", () => {
    const markdown = render("requirements", envelopes.requirements);
    const headings = markdown.split("\n").filter((line) => line.startsWith("## "));
    expect(headings).toEqual([
      "## Problem statement",
      "## Identified domains",
      "## Core capabilities",
      "## External dependencies",
      "## Assumptions",
      "## Quality attributes",
      "## Changes in this version",
      "## Justification",
    ]);
    expect(markdown).toContain("| ID | Name | Description | Actor | Kind | Domain |");
    expect(markdown).toContain("| CAP-001 | Order food | Customers can order food. | Customers | person | Ordering and commerce |");
    expect(markdown).toContain("- The app must respond within 300 ms.");
    expect(markdown).toContain('- Core capabilities: CAP-001 "Order food"');
  });

  it("inception: risk matrix and requirement lists as tables", () => {
    const markdown = render("inception", envelopes.inception);
    expect(markdown).toContain("## Risk matrix\n\n| ID | Risk | Probability | Impact | Mitigation |\n| --- | --- | --- | --- | --- |\n| R-01 | Stripe is unavailable or changes its API | Medium | High |");
    expect(markdown).toMatch(/## Functional requirements\n\n\| ID \| Title \| Description \|/);
    expect(markdown).toContain("| FR-001 | Order food | The system shall allow customers to order food. |");
    expect(markdown).toContain("| NFR-002 | Performance | The app must respond within 300 ms. |");
    expect(markdown).toContain("### Components\n\n| Name | Responsibility |");
  });

  it("agile: a heading per epic and per story, the story sentence and its acceptance criteria", () => {
    const markdown = render("agile", envelopes.agile);
    expect(markdown).toContain("### EP-01 Ordering and commerce");
    expect(markdown).toContain("| US-001 | Order food | Must | 3 |");
    expect(markdown).toContain("#### US-001 Order food\n\n> As a customer, I want to order food, so that I get the food I need without phoning anyone.");
    expect(markdown).toContain("**Acceptance criteria**\n\n- Given I am signed in as a customer, when I order food, then the food is saved and I see a confirmation");
  });

  it("diagramacion: entity tables and the Mermaid source in a mermaid block", () => {
    const markdown = render("diagramacion", envelopes.diagramacion);
    expect(markdown).toContain("#### Ride\n\n| Attribute | Type | Key |\n| --- | --- | --- |\n| id | uuid | PK |");
    expect(markdown).toContain("### Relationships\n\n| From | To | Cardinality | Label | Source stories |");
    expect(markdown).toContain(`## Sequence diagram\n\n\`\`\`mermaid\n${envelopes.diagramacion.artifact.mermaid_sequence_diagram.trimEnd()}\n\`\`\`\n`);
  });

  it("pseudocodigo and qa: code blocks per story, a table and a section per test case", () => {
    const pseudocode = render("pseudocodigo", envelopes.pseudocodigo);
    expect(pseudocode).toContain("### US-001\n\n```text\nFUNCTION orderFood(customer, input)");
    const qa = render("qa", envelopes.qa);
    expect(qa).toContain("| ID | Title | Story | Type | Priority | Expected result |");
    expect(qa).toContain("#### TC-001 Order food: succeeds with valid input");
    expect(qa).toContain("**Steps**\n\n1. Open the food screen\n2. Order food with valid details\n3. Submit");
  });
});

describe("whatever an n8n agent returns", () => {
  const odd: [string, unknown][] = [
    ["requirements", null],
    ["requirements", "just text"],
    ["requirements", [1, "two", { three: 3 }]],
    ["inception", { artifact: { risk_matrix: "high risk everywhere", functional_requirements: ["Login", "Logout"], high_level_architecture: ["API", { layer: "DB" }] } }],
    ["agile", { artifact: { epics: { first: { stories: "none" } } } }],
    ["agile", { artifact: { epics: ["Epic as text", { title: "E", user_stories: ["Story as text", { id: 1 }] }] } }],
    ["diagramacion", { artifact: { entity_relationship_model: { entities: ["User", { attributes: "id" }] }, mermaid_sequence_diagram: 42 } }],
    ["pseudocodigo", { artifact: { user_story_pseudocode: 7 } }],
    ["pseudocodigo", { artifact: { user_story_pseudocode: [{ story_id: "US-1", pseudocode: ["line 1", "line 2"] }, "loose"] } }],
    ["qa", { artifact: { test_suites: ["smoke", { name: "S", test_cases: [{ steps: "click", expected_result: { ok: true } }, "case as text"] }] } }],
    ["qa", { artifact: { test_suites: [{ cases: [{ id: "T1", title: "x" }] }] }, changes_made: "rewrote all", justification: { why: "because" } }],
    ["security-review", { artifact: { findings: [{ id: "F1", severity: "high", text: "SQL | injection\nin search" }] }, extra: true }],
  ];

  it.each(odd)("renders %s content %j without throwing", (type, content) => {
    const markdown = render(type, content);
    expect(markdown.startsWith("# ")).toBe(true);
    expect(markdown.endsWith("\n")).toBe(true);
  });

  it("keeps unknown fields and escapes table cells", () => {
    const markdown = render("security-review", { artifact: { findings: [{ id: "F1", severity: "high", text: "SQL | injection\nin search" }] } });
    expect(markdown).toContain("# Security review\n");
    expect(markdown).toContain("## Findings\n\n| ID | Severity | Text |\n| --- | --- | --- |\n| F1 | high | SQL \\| injection<br>in search |");
  });

  it("does not fence a fenced Mermaid source twice, and code with backticks cannot close its block", () => {
    const diagram = render("diagramacion", { artifact: { entity_relationship_model: "x", mermaid_sequence_diagram: "```mermaid\nsequenceDiagram\n  A->>B: hi\n```" } });
    expect(diagram).toContain("```mermaid\nsequenceDiagram\n  A->>B: hi\n```\n");
    expect(diagram.match(/```/g)).toHaveLength(2);
    const code = render("pseudocodigo", { artifact: { user_story_pseudocode: { "US-1": "PRINT ```done```" } } });
    expect(code).toContain("````text\nPRINT ```done```\n````");
  });

  it("renders very deep values as JSON instead of endless headings", () => {
    let deep: unknown = "bottom";
    for (let level = 0; level < 30; level++) deep = { [`level${level}`]: [{ name: `n${level}` }, { more: deep }] };
    const markdown = render("requirements", { artifact: { deep } });
    expect(markdown).toContain("```json");
    expect(markdown).toContain('"bottom"');
  });
});

describe("approvals", () => {
  it("lists who approved the version and quotes each comment", () => {
    const markdown = renderArtifactMarkdown({
      artifact_type: "requirements", version: 2, created_at: "2026-02-17T22:10:00Z", content: envelopes.requirements,
      approvals: [
        { by: "Rita Ramos", at: "2026-02-17T23:00:00Z", comment: "Good.\nKeep payments short." },
        { by: null, at: "2026-02-17T23:05:00Z", comment: null },
      ],
    });
    expect(markdown).toContain(
      ["## Approval", "", "- Approved by Rita Ramos on 2026-02-17T23:00:00Z:", "  > Good.", "  > Keep payments short.", "- Approved by an unnamed reviewer on 2026-02-17T23:05:00Z (no comment)"].join("\n"),
    );
    expect(render("requirements", envelopes.requirements)).not.toContain("## Approval");
  });
});
