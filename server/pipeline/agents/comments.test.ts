/**
 * Targeted revision by the built-in agents: a comment on one part of an artifact changes that part as asked and
 * nothing else (every other part JSON-equal, same key order), and each agent reports truthfully per comment.
 */
import { describe, expect, it } from "vitest";
import { anchorsOf, replaceAt, textOf, valueAt } from "../../review/anchors";
import { composeFeedback } from "../../review/feedback";
import type { SentComment } from "../../review/schemas";
import { runPipeline } from "../../testing/agentTestkit";
import type { ArtifactType, EnvelopeOf } from "../artifacts";
import { commentOutcomesOf } from "./comments";
import { draft } from "./drafts";

const TOOL_LIBRARY =
  "A neighbourhood tool library where members reserve tools, borrow them for a few days and return them. " +
  "Members can unlock the tool locker with the app and then pick up the tool. Volunteers check returned tools and record their condition. " +
  "Late returns are charged through Stripe.";
const pipeline = runPipeline("tool-library", TOOL_LIBRARY);

/** A comment as the review sends it: the part's anchor, label and quoted text, and what the reviewer wrote. */
function comment(artifact: unknown, anchor: string, text: string): SentComment {
  return { anchor, label: anchor, quote: textOf(valueAt(artifact, anchor) ?? ""), text };
}

function revise<T extends ArtifactType>(slug: T, previous: EnvelopeOf<T>, general: string, comments: SentComment[]): EnvelopeOf<T> {
  return draft(slug, { run_id: "RUN_TEST", context: previous, is_feedback: true, feedback: composeFeedback(general, comments), comments });
}

const within = (anchor: string, part: string) => anchor === part || [".", "[", ":"].some((next) => anchor.startsWith(`${part}${next}`));

/** Every part of `before` outside `changed` (and the parts holding them) is JSON-equal in `after`, key order included. */
function expectOnlyChanged(before: unknown, after: unknown, changed: string[]): void {
  for (const { anchor } of anchorsOf(before)) {
    if (changed.some((part) => within(anchor, part) || within(part, anchor))) continue;
    expect(JSON.stringify(valueAt(after, anchor)), anchor).toBe(JSON.stringify(valueAt(before, anchor)));
  }
}

const capability = (envelope: EnvelopeOf<"requirements">, id: string) => valueAt(envelope.artifact, `core_capabilities[${id}]`);
const ADDED_RULE = 'added "A reservation must be limited to 3 days." to its description';
const LATE_FEE = "Given a late fee applies, when I reserve tools, then the late fee is applied and shown to me";
const stories = (envelope: EnvelopeOf<"agile">) => envelope.artifact.epics.flatMap((epic) => epic.user_stories);

describe("requirements: comments on parts", () => {
  const before = pipeline.requirements;

  it("a rule on a capability goes into its description, and nothing else changes", () => {
    const after = revise("requirements", before, "", [comment(before.artifact, "core_capabilities[CAP-001]", "a reservation must be limited to 3 days")]);
    expect(capability(after, "CAP-001")).toMatchObject({ description: "Members can reserve tools. A reservation must be limited to 3 days." });
    expectOnlyChanged(before.artifact, after.artifact, ["core_capabilities[CAP-001]"]);
    expect(after.changes_made).toEqual({ added: [], removed: [], modified: [`core_capabilities[CAP-001]: ${ADDED_RULE}`] });
    expect(commentOutcomesOf(after)).toEqual([{ anchor: "core_capabilities[CAP-001]", done: true, message: `CAP-001: ${ADDED_RULE}` }]);
    expect(after.justification).toContain('[core_capabilities[CAP-001]] done: CAP-001: added "A reservation must be limited to 3 days."');
  });

  it("renames a capability and rewords a plain field, each only where the comment points", () => {
    const comments = [
      comment(before.artifact, "core_capabilities[CAP-002]", "rename to Borrow tools"),
      comment(before.artifact, "problem_statement_refined", "change neighbourhood to community"),
    ];
    const after = revise("requirements", before, "", comments);
    expect(capability(after, "CAP-002")).toMatchObject({ name: "Borrow tools", description: "Members can borrow tools for a few days." });
    expect(after.artifact.problem_statement_refined).toBe(before.artifact.problem_statement_refined.replace("neighbourhood", "community"));
    expectOnlyChanged(before.artifact, after.artifact, ["core_capabilities[CAP-002].name", "problem_statement_refined"]);
    expect(commentOutcomesOf(after)?.map((outcome) => outcome.done)).toEqual([true, true]);
    expect(after.changes_made.modified).toEqual([
      'core_capabilities[CAP-002].name: "Borrow tools for a few days" -> "Borrow tools"',
      'problem_statement_refined: changed "neighbourhood" to "community"',
    ]);
  });

  it("a comment on a part that is not in this version is reported not done, and changes nothing", () => {
    const after = revise("requirements", before, "", [{ anchor: "core_capabilities[CAP-099]", label: "CAP-099", quote: "Old", text: "remove this" }]);
    expect(after.artifact).toEqual(before.artifact);
    expect(after.changes_made).toEqual({ added: [], removed: [], modified: [] });
    expect(commentOutcomesOf(after)).toEqual([{ anchor: "core_capabilities[CAP-099]", done: false, message: "CAP-099 is not in this version" }]);
  });

  it("general feedback that names CAP-001, a new capability and another, without comments: each clause lands and is claimed truthfully", () => {
    const feedback =
      "CAP-001 is too vague: a reservation must be limited to 3 days, and a member who finds a tool taken should be able to join a waiting list; " +
      "also add damage reports with a photo";
    const after = revise("requirements", before, feedback, []);
    expect(capability(after, "CAP-001")).toMatchObject({ description: expect.stringContaining("A reservation must be limited to 3 days.") });
    expect(after.artifact.core_capabilities.slice(-2)).toEqual([
      expect.objectContaining({ id: "CAP-009", name: "Join a waiting list", description: "Members can join a waiting list when they find a tool taken." }),
      expect.objectContaining({ id: "CAP-010", name: "Damage reports with a photo" }),
    ]);
    for (const id of ["CAP-002", "CAP-003", "CAP-004", "CAP-005", "CAP-006", "CAP-007", "CAP-008"]) {
      expect(JSON.stringify(capability(after, id))).toBe(JSON.stringify(capability(before, id)));
    }
    expect(after.changes_made.added).toEqual(['core_capabilities: CAP-009 "Join a waiting list"', 'core_capabilities: CAP-010 "Damage reports with a photo"']);
    const restated = expect.stringMatching(/^assumptions: "The ten capabilities/);
    expect(after.changes_made.modified).toEqual([`core_capabilities[CAP-001]: ${ADDED_RULE}`, restated, "problem_statement_refined"]);
    expect(after.justification).toContain(`CAP-001: ${ADDED_RULE}.`);
    expect(after.justification).not.toContain("CAP-009 \"A reservation");
    expect(after.justification).toContain('Added capability CAP-009 "Join a waiting list" for members.');
    expect(commentOutcomesOf(after)).toBeUndefined();
  });
});

describe("agile: comments on stories", () => {
  const before = pipeline.agile;
  const story = (envelope: EnvelopeOf<"agile">, id: string) => stories(envelope).find((candidate) => candidate.id === id);

  it("a story gains the criterion asked for, written as a criterion", () => {
    const after = revise("agile", before, "", [comment(before.artifact, "epics[EP-01].user_stories[US-001]", "add a late-fee criterion")]);
    const criterion = LATE_FEE;
    expect(story(after, "US-001")?.acceptance_criteria).toEqual([...(story(before, "US-001")?.acceptance_criteria ?? []), criterion]);
    expectOnlyChanged(before.artifact, after.artifact, ["epics[EP-01].user_stories[US-001].acceptance_criteria"]);
    const message = `US-001: added the acceptance criterion "${criterion}"`;
    expect(commentOutcomesOf(after)).toEqual([{ anchor: "epics[EP-01].user_stories[US-001]", done: true, message }]);
  });

  it("a story that names two actions splits into two, the new one numbered next and placed after it", () => {
    // A person's edit of US-004 names two actions; the reviewer then asks for the split.
    const edited = replaceAt(before, "artifact.epics[EP-02].user_stories[US-004].i_want", "to unlock the tool locker and then pick up the tool");
    const after = revise("agile", edited, "", [comment(edited.artifact, "epics[EP-02].user_stories[US-004]", "split this story")]);
    const ids = stories(after).map((candidate) => candidate.id);
    expect(ids.slice(ids.indexOf("US-004"), ids.indexOf("US-004") + 2)).toEqual(["US-004", "US-009"]);
    const fromSameRequirement = { functional_requirement_ids: ["FR-004"], as_a: "Member" };
    expect(story(after, "US-004")).toMatchObject({ title: "Unlock the tool locker", i_want: "to unlock the tool locker", ...fromSameRequirement });
    expect(story(after, "US-009")).toMatchObject({ title: "Pick up the tool", i_want: "to pick up the tool", ...fromSameRequirement });
    expectOnlyChanged(edited.artifact, after.artifact, ["epics[EP-02].user_stories[US-004]"]);
    expect(after.changes_made.added).toEqual(['epics[EP-02].user_stories[US-009]: "Pick up the tool" (split from US-004)']);
    const message = 'split US-004: "unlock the tool locker" stays US-004, "pick up the tool" is the new US-009 after it';
    expect(commentOutcomesOf(after)?.[0]).toMatchObject({ done: true, message });
  });

  it("a story that names one action is not split, and says why", () => {
    const after = revise("agile", before, "", [comment(before.artifact, "epics[EP-02].user_stories[US-003]", "split this story")]);
    expect(after.artifact).toEqual(before.artifact);
    const why = "could not split US-003 offline: no second action named";
    expect(commentOutcomesOf(after)?.[0]).toMatchObject({ done: false, message: expect.stringContaining(why) });
  });

  it("'remove this' removes the story and nothing else", () => {
    const after = revise("agile", before, "", [comment(before.artifact, "epics[EP-02].user_stories[US-003]", "remove this")]);
    expect(stories(after).map((candidate) => candidate.id)).not.toContain("US-003");
    expectOnlyChanged(before.artifact, after.artifact, ["epics[EP-02].user_stories"]);
    for (const other of stories(after)) expect(other).toEqual(story(before, other.id));
    expect(after.changes_made.removed).toEqual(['epics[EP-02].user_stories[US-003]: "Return tools"']);
  });

  it("general feedback with two requests in one sentence, without comments: a criterion for US-001, and the unlock story reported not split", () => {
    const after = revise("agile", before, "US-001 should gain a late-fee criterion, and split the unlock story", []);
    expect(story(after, "US-001")?.acceptance_criteria?.at(-1)).toBe(LATE_FEE);
    expect(stories(after).map((candidate) => candidate.id)).toEqual(stories(before).map((candidate) => candidate.id));
    expect(after.justification).toContain("Not done: could not split US-004 offline: no second action named");
    expect(after.justification).not.toContain("Given should gain");
  });
});

describe("inception, diagrams, pseudocode and tests: a comment changes its part only", () => {
  it("inception: a requirement's description gains the rule, the vision is reworded", () => {
    const before = pipeline.inception;
    const comments = [
      comment(before.artifact, "functional_requirements[FR-001]", "a reservation must be limited to 3 days"),
      comment(before.artifact, "product_vision", "change neighbourhood to community"),
    ];
    const after = revise("inception", before, "", comments);
    expect(valueAt(after.artifact, "functional_requirements[FR-001].description")).toBe(
      "The system shall allow members to reserve tools. A reservation must be limited to 3 days.",
    );
    expect(after.artifact.product_vision).toBe(before.artifact.product_vision.replace("neighbourhood", "community"));
    expectOnlyChanged(before.artifact, after.artifact, ["functional_requirements[FR-001].description", "product_vision"]);
    expect(commentOutcomesOf(after)?.map((outcome) => outcome.done)).toEqual([true, true]);
  });

  it("diagramacion: a comment on a line of the Mermaid source adds a step after it; an entity gains an attribute", () => {
    const before = pipeline.diagramacion;
    const lines = before.artifact.mermaid_sequence_diagram.split("\n");
    const at = lines.findIndex((line) => line.includes("->>APP: reserve tools")) + 1;
    const comments = [
      comment(before.artifact, `mermaid_sequence_diagram:L${at}`, "add a check that the tool is available"),
      comment(before.artifact, "entity_relationship_model.entities[Tool]", "add a serial number attribute"),
    ];
    const after = revise("diagramacion", before, "", comments);
    const revised = after.artifact.mermaid_sequence_diagram.split("\n");
    expect(revised).toEqual([...lines.slice(0, at), "  A1->>APP: check that the tool is available", ...lines.slice(at)]);
    const tool = valueAt(after.artifact, "entity_relationship_model.entities[Tool].attributes");
    expect(Array.isArray(tool) ? tool.at(-1) : undefined).toEqual({ name: "serial_number", type: "text" });
    expectOnlyChanged(before.artifact, after.artifact, ["mermaid_sequence_diagram", "entity_relationship_model.entities[Tool].attributes"]);
    expect(commentOutcomesOf(after)?.[0]).toEqual({
      anchor: `mermaid_sequence_diagram:L${at}`,
      done: true,
      message: `inserted "A1->>APP: check that the tool is available" after line ${at} of mermaid_sequence_diagram`,
    });
  });

  it("pseudocodigo: a line is changed as asked and the other functions stay", () => {
    const before = pipeline.pseudocodigo;
    const code = String(valueAt(before.artifact, "user_story_pseudocode[US-003]"));
    const at = code.split("\n").findIndex((line) => line.includes("REQUIRE")) + 1;
    const line = code.split("\n")[at - 1] ?? "";
    const word = /REQUIRE\s+(\w+)/.exec(line)?.[1] ?? "";
    const after = revise("pseudocodigo", before, "", [comment(before.artifact, `user_story_pseudocode[US-003]:L${at}`, `change ${word} to borrower`)]);
    expect(valueAt(after.artifact, `user_story_pseudocode[US-003]:L${at}`)).toBe(line.replace(word, "borrower").trim());
    expectOnlyChanged(before.artifact, after.artifact, ["user_story_pseudocode[US-003]"]);
    expect(commentOutcomesOf(after)?.[0]).toMatchObject({ done: true, message: `line ${at} of US-003: changed "${word}" to "borrower"` });
  });

  it("qa: a case gains a step, another case is removed, and an unknown case is reported", () => {
    const before = pipeline.qa;
    const comments = [
      comment(before.artifact, "test_suites[TS-01].test_cases[TC-001]", "add a step to try a fourth day"),
      comment(before.artifact, "test_suites[TS-01].test_cases[TC-002]", "remove this"),
      { anchor: "test_suites[TS-01].test_cases[TC-999]", label: "TC-999", quote: "", text: "remove this" },
    ];
    const after = revise("qa", before, "", comments);
    const steps = valueAt(after.artifact, "test_suites[TS-01].test_cases[TC-001].steps");
    expect(Array.isArray(steps) ? steps.at(-1) : undefined).toBe("Try a fourth day");
    expect(valueAt(after.artifact, "test_suites[TS-01].test_cases[TC-002]")).toBeUndefined();
    expectOnlyChanged(before.artifact, after.artifact, ["test_suites[TS-01].test_cases"]);
    for (const id of ["TC-003", "TC-004"]) {
      const anchor = `test_suites[TS-01].test_cases[${id}]`;
      expect(JSON.stringify(valueAt(after.artifact, anchor))).toBe(JSON.stringify(valueAt(before.artifact, anchor)));
    }
    expect(commentOutcomesOf(after)?.map((outcome) => [outcome.done, outcome.message])).toEqual([
      [true, 'TC-001: added the step "Try a fourth day"'],
      [true, "removed TC-002"],
      [false, "TC-999 is not in this version"],
    ]);
  });
});

describe("a revision asked by comments alone", () => {
  it("needs no general feedback: an empty feedback with comments revises; with neither the call is refused", () => {
    const previous = pipeline.requirements;
    const sent = [comment(previous.artifact, "core_capabilities[CAP-001]", "A reservation must be limited to 3 days.")];
    const revised = draft("requirements", { run_id: "RUN_TEST", context: previous, is_feedback: true, feedback: "", comments: sent });
    expect(commentOutcomesOf(revised)).toEqual([expect.objectContaining({ anchor: "core_capabilities[CAP-001]", done: true })]);
    expect(() => draft("requirements", { run_id: "RUN_TEST", context: previous, is_feedback: true, feedback: " ", comments: [] })).toThrow(/no comments/);
  });
});
