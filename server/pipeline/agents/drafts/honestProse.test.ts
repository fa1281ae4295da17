/**
 * The drafts read as an analyst's: on a realistic brief no broken sentence ("The product is a web."), and every count
 * or range written in prose matches the list it describes, for every artifact type, in a first draft and after a
 * revision that removes and adds items.
 */
import { describe, expect, it } from "vitest";
import { BRIEFS, type PipelineEnvelopes, feedbackCall, runPipeline } from "../../../testing/agentTestkit";
import { ARTIFACT_TYPES } from "../../artifacts";
import { commentOutcomesOf } from "../comments";
import { numberWord } from "../text/lists";
import { draft } from "./index";

const tool = runPipeline(BRIEFS.toolLibrary.domain, BRIEFS.toolLibrary.brief);

describe("a realistic brief's requirements read as sentences", () => {
  const artifact = tool.requirements.artifact;
  const capabilities = artifact.core_capabilities as { description: string; actor: string }[];

  it("the problem statement says what the product is, whole, and who it serves", () => {
    expect(artifact.problem_statement_refined).toMatch(/^The product is a web app for a neighbourhood tool library run by volunteers\. It serves three groups: members, /);
    expect(artifact.problem_statement_refined).not.toMatch(/The product is an? \w+\./);
  });

  it("no capability is a question word read as a group, nor a relative clause glued to a passive", () => {
    expect(capabilities.map((capability) => capability.actor)).not.toContain("Sees");
    expect(capabilities.map((capability) => capability.description)).toEqual(
      expect.arrayContaining(["Volunteers can see who has what.", "The system must suspend members for a month when they return late twice."]),
    );
    for (const capability of capabilities) expect(capability.description, capability.description).not.toMatch(/\bcan \w+(?: \w+)* (?:are|is) \w+ed\b|\bcan see\.$/);
  });
});

/** "ten", "10": the number a count in prose says. */
const NUMBER = `(\\d+|${Array.from({ length: 20 }, (_, index) => numberWord(index + 1)).join("|")})`;
const valueOf = (said: string) => (/^\d+$/.test(said) ? Number(said) : Array.from({ length: 20 }, (_, index) => numberWord(index + 1)).indexOf(said.toLowerCase()) + 1);

/** What each artifact's prose counts, and how many there are. */
function counted(envelopes: PipelineEnvelopes, type: (typeof ARTIFACT_TYPES)[number]): [RegExp, number][] {
  const capabilities = envelopes.requirements.artifact.core_capabilities.length;
  const stories = envelopes.agile.artifact.epics.flatMap((epic) => epic.user_stories).length;
  switch (type) {
    case "requirements":
      return [[new RegExp(`\\b${NUMBER} capabilities\\b`, "gi"), capabilities], [new RegExp(`\\b${NUMBER} external dependencies\\b`, "gi"), envelopes.requirements.artifact.external_dependencies.length]];
    case "inception":
      return [[new RegExp(`\\b${NUMBER} capabilities\\b`, "gi"), capabilities], [new RegExp(`\\(${NUMBER} requirements, FR-001 to FR-0*(\\d+)\\)`, "gi"), envelopes.inception.artifact.functional_requirements.length]];
    case "agile":
      return [[new RegExp(`requirement \\(${NUMBER} stories\\)`, "gi"), stories], [new RegExp(`into ${NUMBER} epics\\b`, "gi"), envelopes.agile.artifact.epics.length]];
    case "diagramacion":
      return [[new RegExp(`\\b${NUMBER} user stories\\b`, "gi"), stories]];
    case "pseudocodigo":
      return [[new RegExp(`\\(${NUMBER} functions\\)`, "gi"), Object.keys(envelopes.pseudocodigo.artifact.user_story_pseudocode).length]];
    case "qa":
      return [
        [new RegExp(`^${NUMBER} test cases`, "gi"), envelopes.qa.artifact.test_suites.flatMap((suite) => suite.test_cases).length],
        [new RegExp(`in ${NUMBER} suites\\b`, "gi"), envelopes.qa.artifact.test_suites.length],
        [new RegExp(`\\b${NUMBER} user stories\\b`, "gi"), stories],
      ];
  }
}

/** Every string of an envelope (the artifact's and the justification). */
const strings = (value: unknown): string[] =>
  typeof value === "string" ? [value] : Array.isArray(value) ? value.flatMap(strings) : value && typeof value === "object" ? Object.values(value).flatMap(strings) : [];

const revisedRequirements = draft("requirements", feedbackCall(tool.requirements, "Remove CAP-002. Add a waiting list for members."));
const cases: [string, PipelineEnvelopes][] = [
  ["the tool library", tool],
  ["the super-app", runPipeline(BRIEFS.superApp.domain, BRIEFS.superApp.brief)],
  ["the clinic", runPipeline(BRIEFS.clinic.domain, BRIEFS.clinic.brief)],
  ["the tool library after a revision", { ...tool, requirements: revisedRequirements }],
];

describe.each(cases)("counts in %s's prose", (_, envelopes) => {
  it.each([...ARTIFACT_TYPES])("%s: every count written in words or digits is the length of the list it describes", (type) => {
    if (type !== "requirements" && envelopes.requirements === revisedRequirements) return;
    let found = 0;
    for (const [pattern, actual] of counted(envelopes, type)) {
      for (const text of strings(envelopes[type])) {
        for (const match of text.matchAll(pattern)) {
          found++;
          expect(valueOf(match[1]!), `"${match[0]}" in ${type}`).toBe(actual);
          if (match[2]) expect(Number(match[2]), `"${match[0]}" in ${type}`).toBe(actual);
        }
      }
    }
    expect(found, `${type} states a count`).toBeGreaterThan(0);
  });
});

describe("a reviewer's words never become the deliverable's", () => {
  const remark = "'Return late twice' is not something a tenant does.";
  const before = tool.requirements;

  it("a remark on a capability leaves it as it was, and the comment says why it was not done", () => {
    const after = draft("requirements", { ...feedbackCall(before, ""), comments: [{ anchor: "core_capabilities[CAP-007]", label: "CAP-007", quote: "", text: remark }] });
    expect(after.artifact).toEqual(before.artifact);
    expect(JSON.stringify(after.artifact)).not.toContain("tenant");
    expect(commentOutcomesOf(after)).toEqual([{ anchor: "core_capabilities[CAP-007]", done: false, message: expect.stringContaining("is left as it was") }]);
  });

  it("a request to add a topic to a text is refused rather than pasted; an aside about the brief stays out of a new capability", () => {
    const topic = draft("requirements", { ...feedbackCall(before, ""), comments: [{ anchor: "problem_statement_refined", label: "Problem", quote: "", text: "add the weekly overdue list" }] });
    expect(topic.artifact.problem_statement_refined).toBe(before.artifact.problem_statement_refined);
    expect(commentOutcomesOf(topic)?.[0]?.done).toBe(false);
    const general = draft("requirements", feedbackCall(before, "It must also support a weekly overdue list (CSV), which the brief now asks for."));
    expect(JSON.stringify(general.artifact)).not.toMatch(/brief now asks/);
  });
});
