/**
 * The built-in agents' account of a revision (`changes_made`) held against the computed diff of the two versions:
 * claims the diff shows nothing for, changes no claim mentions. Pure: no database.
 */
import { describe, expect, it } from "vitest";
import { replaceAt, valueAt } from "../review/anchors";
import { diffOutputs } from "../review/diff";
import type { DiffChange } from "../review/schemas";
import { BRIEFS, feedbackCall, runPipeline } from "../testing/agentTestkit";
import { draft } from "./agents/drafts";
import type { ArtifactType } from "./artifacts";
import { compareClaim } from "./claimCheck";

const superApp = runPipeline(BRIEFS.superApp.domain, BRIEFS.superApp.brief);
const artifactOf = (type: ArtifactType): unknown => superApp[type].artifact;
const requirements = superApp.requirements.artifact;

function listAt(output: unknown, anchor: string): unknown[] {
  const list = valueAt(output, anchor);
  if (!Array.isArray(list)) throw new Error(`${anchor} is not a list`);
  return list;
}
const capabilityList = () => listAt(requirements, "core_capabilities");
const assumptionList = () => listAt(requirements, "assumptions");

/** `output` with the one `word` in the text at `anchor` replaced. */
function editWord<T>(output: T, anchor: string, word: string, replacement: string): { output: T } {
  const text = valueAt(output, anchor);
  if (typeof text !== "string" || text.indexOf(word) < 0 || text.indexOf(word) !== text.lastIndexOf(word)) throw new Error(`${anchor} does not hold "${word}" exactly once`);
  return { output: replaceAt(output, anchor, text.replace(word, replacement)) };
}

describe("the agent's claim against the diff", () => {
  const withCap4Description = editWord(requirements, "core_capabilities[CAP-004].description", "manage", "curate").output;
  const changesOf = (after: unknown) => diffOutputs(requirements, after).changes;

  it("a claimed change the diff does not show, and a change the claim does not mention", () => {
    const claim = { added: [], removed: [], modified: ['core_capabilities: CAP-001 "Order food"'] };
    expect(compareClaim(claim, changesOf(withCap4Description))).toEqual([
      {
        kind: "claimed_not_found",
        subject: 'core_capabilities: CAP-001 "Order food"',
        message: "The agent says it modified CAP-001, but CAP-001 is the same in both versions.",
      },
      { kind: "unclaimed_change", subject: "core_capabilities[CAP-004]", message: "CAP-004 changed, and the agent did not say so." },
    ]);
  });

  it("a claim that matches produces no mismatch: by id, by quoted text, by a whole field, or as an object", () => {
    const changes = changesOf(withCap4Description);
    expect(compareClaim({ modified: ['core_capabilities: CAP-004: "Manage catalogs"'] }, changes)).toEqual([]);
    expect(compareClaim({ modified: ['core_capabilities: "Merchants can curate their catalogs."'] }, changes)).toEqual([]);
    expect(compareClaim({ modified: ["core_capabilities"] }, changes)).toEqual([]);
    expect(compareClaim({ modified: [{ id: "CAP-004", field: "description" }] }, changes)).toEqual([]);
  });

  it("a whole-field claim covers every change under the field, and is reported when nothing under it changed", () => {
    const edited = editWord(requirements, "problem_statement_refined", "three groups", "four groups").output;
    expect(compareClaim({ modified: ["problem_statement_refined"] }, changesOf(edited))).toEqual([]);
    expect(compareClaim({ modified: ["problem_statement_refined", "core_capabilities: CAP-004 description"] }, changesOf(withCap4Description))).toEqual([
      {
        kind: "claimed_not_found",
        subject: "problem_statement_refined",
        message: "The agent says it modified problem_statement_refined, but problem_statement_refined is the same in both versions.",
      },
    ]);
  });

  it("a quoted claim with nothing like it in the diff, and an unclaimed item without an id, quoted", () => {
    const after = { ...requirements, assumptions: [...assumptionList(), "Drivers own a smartphone."] };
    expect(compareClaim({ added: ['assumptions: "Riders tip their drivers."'] }, changesOf(after))).toEqual([
      {
        kind: "claimed_not_found",
        subject: 'assumptions: "Riders tip their drivers."',
        message: 'The agent says it added "Riders tip their drivers.", but nothing matching it was added or changed.',
      },
      {
        kind: "unclaimed_change",
        subject: "assumptions[#6]",
        message: 'Assumptions › item 6 ("Drivers own a smartphone.") was added, and the agent did not say so.',
      },
    ]);
  });

  it("several unclaimed changes to one item are one mismatch; a claim that names nothing checkable is not reported", () => {
    const named = replaceAt(requirements, "core_capabilities[CAP-004].name", "Curate catalogs");
    const renamed = replaceAt(named, "core_capabilities[CAP-004].description", "Merchants curate.");
    expect(compareClaim({ modified: ["Tightened the wording throughout."] }, changesOf(renamed))).toEqual([
      { kind: "unclaimed_change", subject: "core_capabilities[CAP-004]", message: "CAP-004 changed, and the agent did not say so." },
    ]);
  });

  it("no claim at all leaves every change unclaimed; a claim in a shape that cannot be read is not checked", () => {
    const removed = { ...requirements, core_capabilities: capabilityList().slice(1) };
    expect(compareClaim(null, changesOf(removed))).toEqual([
      { kind: "unclaimed_change", subject: "core_capabilities[CAP-001]", message: "CAP-001 was removed, and the agent did not say so." },
    ]);
    expect(compareClaim("I removed the first capability.", changesOf(removed))).toEqual([]);
  });

  const revisions: [ArtifactType, string][] = [
    ["requirements", "Add a capability to export trip reports as PDF."],
    ["requirements", 'Rename "Book rides" to "Book trips".'],
    ["requirements", "Remove the pay bills capability."],
    ["inception", "Add a risk about driver shortage at night. We need offline support for drivers. Please drop FR-008."],
    ["agile", "Drivers should be able to rate customers. Make US-003 a Must. US-001 needs a criterion for closed restaurants."],
    ["diagramacion", "Add a Notification entity related to Customer. Show the refund flow. Rename Food to Meal."],
    ["pseudocodigo", "Validate the card expiry in US-007."],
    ["qa", "Add a test for expired cards in US-007. Remove the Track orders cases."],
  ];

  it.each(revisions)("the built-in %s agent's own claim for %j matches the diff", (type, feedback) => {
    const revised = draft(type, feedbackCall(superApp[type], feedback));
    const changes: DiffChange[] = diffOutputs(artifactOf(type), revised.artifact).changes;
    expect(changes.length).toBeGreaterThan(0);
    expect(compareClaim(revised.changes_made, changes)).toEqual([]);
  });
});
