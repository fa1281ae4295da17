/**
 * The computed diff between two versions of an output: changes at the deepest part that changed, addressed by their
 * anchors, with word-level pieces. Pure: no database.
 */
import { describe, expect, it } from "vitest";
import { ARTIFACT_TYPES, type ArtifactType } from "../pipeline/artifacts";
import { BRIEFS, runPipeline } from "../testing/agentTestkit";
import { replaceAt, valueAt } from "./anchors";
import { diffOutputs } from "./diff";
import type { TextPiece } from "./schemas";

const superApp = runPipeline(BRIEFS.superApp.domain, BRIEFS.superApp.brief);
const artifactOf = (type: ArtifactType): unknown => superApp[type].artifact;
const unchangedIn = (output: unknown) => diffOutputs(output, output).unchanged;

function textAt(output: unknown, anchor: string): string {
  const text = valueAt(output, anchor);
  if (typeof text !== "string") throw new Error(`${anchor} is not text`);
  return text;
}

function listAt(output: unknown, anchor: string): unknown[] {
  const list = valueAt(output, anchor);
  if (!Array.isArray(list)) throw new Error(`${anchor} is not a list`);
  return list;
}

function objectAt(output: unknown, anchor: string): Record<string, unknown> {
  const value = valueAt(output, anchor);
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error(`${anchor} is not an object`);
  return { ...value };
}

/** The text at `anchor` (which must hold `word` once), and the output with that one word replaced. */
function editWord<T>(output: T, anchor: string, word: string, replacement: string) {
  const text = textAt(output, anchor);
  if (text.indexOf(word) < 0 || text.indexOf(word) !== text.lastIndexOf(word)) throw new Error(`${anchor} does not hold "${word}" exactly once`);
  const edited = text.replace(word, replacement);
  const at = text.indexOf(word);
  const pieces: TextPiece[] = [
    { op: "equal", text: text.slice(0, at) },
    { op: "delete", text: word },
    { op: "insert", text: replacement },
    { op: "equal", text: text.slice(at + word.length) },
  ].filter((piece): piece is TextPiece => piece.text !== "");
  return { before: text, after: edited, output: replaceAt(output, anchor, edited), pieces };
}

const requirements = superApp.requirements.artifact;
const capabilityList = () => listAt(requirements, "core_capabilities");
const assumptionList = () => listAt(requirements, "assumptions");

describe("one field of one item changed, in each artifact type", () => {
  const cases: [ArtifactType, string, string, string, string][] = [
    ["requirements", "core_capabilities[CAP-003].description", "bills", "invoices", "Core capabilities › CAP-003 › Description"],
    ["inception", "functional_requirements[FR-002].description", "book", "schedule", "Functional requirements › FR-002 › Description"],
    [
      "agile",
      "epics[EP-01].user_stories[US-003].acceptance_criteria[#2]",
      "shown",
      "visible",
      "Epics › EP-01 › User stories › US-003 › Acceptance criteria › item 2",
    ],
    [
      "diagramacion",
      "entity_relationship_model.entities[Food].attributes[status].type",
      "text",
      "varchar",
      "Entity relationship model › Entities › Food › Attributes › status › Type",
    ],
    ["pseudocodigo", "user_story_pseudocode[US-004]", "each", "every", "User story pseudocode › US-004"],
    ["qa", "test_suites[TS-01].test_cases[TC-002].expected_result", "told", "shown", "Test suites › TS-01 › Test cases › TC-002 › Expected result"],
  ];

  it.each(cases)("%s: %s is the only change, with its word pieces", (type, anchor, word, replacement, label) => {
    const before = artifactOf(type);
    const edit = editWord(before, anchor, word, replacement);
    expect(diffOutputs(before, edit.output)).toEqual({
      changes: [{ anchor, label, kind: "changed", pieces: edit.pieces, before: edit.before, after: edit.after }],
      unchanged: unchangedIn(before) - 1,
    });
  });

  it("counts every leaf part once: texts, numbers and empty lists, but not an item's id", () => {
    const before = {
      problem_statement_refined: "A booking app.",
      core_capabilities: [
        { id: "CAP-001", name: "Book rooms", description: "Guests can book rooms." },
        { id: "CAP-002", name: "Pay online", description: "Guests can pay online." },
      ],
      assumptions: ["Guests have accounts.", "Cards only."],
      external_dependencies: [],
    };
    const after = replaceAt(before, "core_capabilities[CAP-002].description", "Guests can pay by card.");
    expect(unchangedIn(before)).toBe(8);
    expect(diffOutputs(before, after)).toEqual({
      changes: [
        {
          anchor: "core_capabilities[CAP-002].description",
          label: "Core capabilities › CAP-002 › Description",
          kind: "changed",
          pieces: [
            { op: "equal", text: "Guests can pay " },
            { op: "delete", text: "online" },
            { op: "insert", text: "by card" },
            { op: "equal", text: "." },
          ],
          before: "Guests can pay online.",
          after: "Guests can pay by card.",
        },
      ],
      unchanged: 7,
    });
  });

  it("two versions that are the same have no changes", () => {
    for (const type of ARTIFACT_TYPES) expect(diffOutputs(artifactOf(type), structuredClone(artifactOf(type))).changes).toEqual([]);
  });
});

describe("items added, removed and moved", () => {
  const newCapability = { id: "CAP-009", name: "Reserve tools", description: "Customers can reserve tools.", actor: "Customers" };

  it("an added item is reported once, at the item, with its value", () => {
    const after = { ...requirements, core_capabilities: [...capabilityList(), newCapability] };
    expect(diffOutputs(requirements, after)).toEqual({
      changes: [{ anchor: "core_capabilities[CAP-009]", label: "Core capabilities › CAP-009", kind: "added", pieces: [], after: newCapability }],
      unchanged: unchangedIn(requirements),
    });
  });

  it("a removed item is reported at its anchor in the older version, and the items after it did not move", () => {
    const removed = valueAt(requirements, "core_capabilities[CAP-003]");
    const after = { ...requirements, core_capabilities: capabilityList().filter((item) => item !== removed) };
    const diff = diffOutputs(requirements, after);
    expect(diff.changes).toEqual([
      { anchor: "core_capabilities[CAP-003]", label: "Core capabilities › CAP-003", kind: "removed", pieces: [], before: removed },
    ]);
    expect(diff.unchanged).toBe(unchangedIn(requirements) - 5);
  });

  it("reordering only is a move, not a change: the item taken out of order, with its positions", () => {
    const items = capabilityList();
    const after = { ...requirements, core_capabilities: [items[4], ...items.slice(0, 4), ...items.slice(5)] };
    expect(diffOutputs(requirements, after)).toEqual({
      changes: [{ anchor: "core_capabilities[CAP-005]", label: "Core capabilities › CAP-005", kind: "moved", pieces: [], before: 5, after: 1 }],
      unchanged: unchangedIn(requirements),
    });
  });

  it("an item that moved and changed is a move, and a change at the part that changed", () => {
    const items = capabilityList();
    const renamed = replaceAt(items[4], "name", "Follow orders");
    const after = { ...requirements, core_capabilities: [renamed, ...items.slice(0, 4), ...items.slice(5)] };
    expect(diffOutputs(requirements, after).changes.map((change) => [change.kind, change.anchor])).toEqual([
      ["moved", "core_capabilities[CAP-005]"],
      ["changed", "core_capabilities[CAP-005].name"],
    ]);
  });

  it("items without ids are matched by content: added, removed, changed and moved at their positions", () => {
    const [first, second, third, fourth, fifth] = assumptionList();
    const edited = editWord(requirements, "assumptions[#2]", "Stripe", "Adyen").after;
    const after = { ...requirements, assumptions: [fifth, first, edited, "Drivers own a smartphone.", third] };
    expect(diffOutputs(requirements, after)).toEqual({
      changes: [
        { anchor: "assumptions[#1]", label: "Assumptions › item 1", kind: "moved", pieces: [], before: 5, after: 1 },
        {
          anchor: "assumptions[#3]",
          label: "Assumptions › item 3",
          kind: "changed",
          pieces: [
            { op: "delete", text: "Stripe" },
            { op: "insert", text: "Adyen" },
            { op: "equal", text: " offers an API and a test environment the product can integrate against." },
          ],
          before: second,
          after: edited,
        },
        { anchor: "assumptions[#4]", label: "Assumptions › item 4", kind: "added", pieces: [], after: "Drivers own a smartphone." },
        { anchor: "assumptions[#4]", label: "Assumptions › item 4", kind: "removed", pieces: [], before: fourth },
      ],
      unchanged: unchangedIn(requirements) - 2,
    });
  });

  it("fields added to and removed from an object", () => {
    const { actor, ...withoutActor } = objectAt(requirements, "core_capabilities[CAP-001]");
    const after = { ...requirements, core_capabilities: [withoutActor, ...capabilityList().slice(1)], review_notes: ["Name the actors."] };
    expect(diffOutputs(requirements, after).changes).toEqual([
      { anchor: "core_capabilities[CAP-001].actor", label: "Core capabilities › CAP-001 › Actor", kind: "removed", pieces: [], before: actor },
      { anchor: "review_notes", label: "Review notes", kind: "added", pieces: [], after: ["Name the actors."] },
    ]);
  });

  it("a story added inside an epic is reported at its anchor under the epic", () => {
    const agile = artifactOf("agile");
    const story = { id: "US-009", title: "Rate customers", story: "As a driver, I want to rate customers." };
    const stories = listAt(agile, "epics[EP-02].user_stories");
    const after = replaceAt(agile, "epics[EP-02].user_stories", [...stories, story]);
    expect(diffOutputs(agile, after).changes).toEqual([
      { anchor: "epics[EP-02].user_stories[US-009]", label: "Epics › EP-02 › User stories › US-009", kind: "added", pieces: [], after: story },
    ]);
  });
});

describe("changed text", () => {
  it("a rewrite (little of the old text left) reads as the old text struck through, then the new, not as interleaved words", () => {
    const before = "[offline responder: no LLM is configured]\nPrompt: 1 line, 43 characters.\nIt begins:\n> Write the court rules";
    const after = "Courts 1 to 4 open at 8 and close at 22.\nBook a court for two hours at most.";
    expect(diffOutputs(before, after).changes[0]!.pieces).toEqual([{ op: "delete", text: before }, { op: "insert", text: after }]);
    // A changed line with most of its words kept still shows the words that changed.
    const pieces = diffOutputs("Book a court for an hour.", "Book a court for two hours.").changes[0]!.pieces;
    expect(pieces.filter((p) => p.op === "equal").map((p) => p.text).join("")).toContain("Book a court for");
  });

  it("a one-word edit inside a long paragraph has one delete and one insert piece", () => {
    const edit = editWord(requirements, "problem_statement_refined", "three groups", "four groups");
    const [change] = diffOutputs(requirements, edit.output).changes;
    const text = requirements.problem_statement_refined;
    expect(text.length).toBeGreaterThan(300);
    expect(change?.pieces).toEqual([
      { op: "equal", text: text.slice(0, text.indexOf("three groups")) },
      { op: "delete", text: "three" },
      { op: "insert", text: "four" },
      { op: "equal", text: text.slice(text.indexOf(" groups")) },
    ]);
  });

  it("pseudocode: the changed line's words, the rest of the function kept whole, and an inserted line as a line", () => {
    const pseudocode = artifactOf("pseudocodigo");
    const anchor = "user_story_pseudocode[US-004]";
    const text = textAt(pseudocode, anchor);
    const line = "    RETURN error 422 listing each invalid field\n";
    const edited = text.replace(line, `${line.replace("422", "400")}    LOG the rejected input\n`);
    const [change, ...others] = diffOutputs(pseudocode, replaceAt(pseudocode, anchor, edited)).changes;
    expect(others).toEqual([]);
    expect(change).toMatchObject({ anchor, kind: "changed" });
    expect(change?.pieces).toEqual([
      { op: "equal", text: text.slice(0, text.indexOf("422")) },
      { op: "delete", text: "422" },
      { op: "insert", text: "400" },
      { op: "equal", text: " listing each invalid field\n" },
      { op: "insert", text: "    LOG the rejected input\n" },
      { op: "equal", text: text.slice(text.indexOf("  END IF")) },
    ]);
  });

  it("Mermaid source: a renamed participant on one line is that word", () => {
    const diagram = artifactOf("diagramacion");
    const edit = editWord(diagram, "mermaid_sequence_diagram", "participant DB as Database", "participant DB as Postgres");
    const [change] = diffOutputs(diagram, edit.output).changes;
    const text = edit.before;
    expect(change?.anchor).toBe("mermaid_sequence_diagram");
    expect(change?.pieces).toEqual([
      { op: "equal", text: text.slice(0, text.indexOf("Database\n")) },
      { op: "delete", text: "Database" },
      { op: "insert", text: "Postgres" },
      { op: "equal", text: text.slice(text.indexOf("Database\n") + "Database".length) },
    ]);
  });

  it("a text output (Markdown) is one part, the whole output, diffed by lines then words", () => {
    const before = "# Release notes\n\nCustomers order food.\nDrivers see the route on a map.\n\n## Limits\nOne city only.";
    const after = "# Release notes\n\nCustomers order food.\nDrivers see the live route on a map.\n- Payments go through Stripe.\n\n## Limits\nOne city only.";
    expect(diffOutputs(before, after)).toEqual({
      changes: [
        {
          anchor: "",
          label: "The whole output",
          kind: "changed",
          pieces: [
            { op: "equal", text: "# Release notes\n\nCustomers order food.\nDrivers see the " },
            { op: "insert", text: "live " },
            { op: "equal", text: "route on a map.\n" },
            { op: "insert", text: "- Payments go through Stripe.\n" },
            { op: "equal", text: "\n## Limits\nOne city only." },
          ],
          before,
          after,
        },
      ],
      unchanged: 0,
    });
    expect(diffOutputs(before, before)).toEqual({ changes: [], unchanged: 1 });
  });
});
