/**
 * Anchors: every field and every list item of each of the six artifact types has one (ids where the item has one,
 * positions where not, lines of multi-line texts), each resolves to its part, survives a revision that keeps the part,
 * and is reported gone (outdated) when the part is.
 */
import { describe, expect, it } from "vitest";
import { ARTIFACT_TYPES, type ArtifactType } from "../pipeline/artifacts";
import { BRIEFS, runPipeline } from "../testing/agentTestkit";
import { AnchorError, anchorsOf, formatAnchor, parseAnchor, relocate, replaceAt, textOf, valueAt } from "./anchors";

const superApp = runPipeline(BRIEFS.superApp.domain, BRIEFS.superApp.brief);
const artifactOf = (type: ArtifactType): unknown => structuredClone(superApp[type].artifact);

/** Every path to a field or a list item in a JSON value, as the anchors must cover them (ids of items excluded). */
function partsOf(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((item, i) => [[...path, i], ...partsOf(item, [...path, i])]);
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([key, child]) => (key === "id" && path.length > 0 ? [] : [[...path, key], ...partsOf(child, [...path, key])]));
  }
  return [];
}

const at = (value: unknown, path: (string | number)[]) => path.reduce<unknown>((v, key) => (v as Record<string | number, unknown>)[key], value);

describe("anchors", () => {
  it.each(ARTIFACT_TYPES)("every field and list item of a %s artifact has an anchor that resolves to it", (type) => {
    const artifact = artifactOf(type);
    const anchors = anchorsOf(artifact);
    const values = anchors.map((a) => valueAt(artifact, a.anchor));
    for (const part of partsOf(artifact)) {
      expect(values, `${type}: ${part.join(".")}`).toContainEqual(at(artifact, part));
    }
    for (const a of anchors) {
      expect(a.label.length).toBeGreaterThan(0);
      expect(parseAnchor(a.anchor) && formatAnchor(parseAnchor(a.anchor))).toBe(a.anchor);
    }
    expect(new Set(anchors.map((a) => a.anchor)).size).toBe(anchors.length);
  });

  it("names items by their ids as reviewers and agents do", () => {
    const anchors = new Set(ARTIFACT_TYPES.flatMap((type) => anchorsOf(artifactOf(type)).map((a) => a.anchor)));
    for (const expected of ["core_capabilities[CAP-001]", "epics[EP-01].user_stories[US-001]", "functional_requirements[FR-001].description", "user_story_pseudocode[US-001]:L1", "mermaid_sequence_diagram:L1"]) {
      expect(anchors, expected).toContain(expected);
    }
    expect([...anchors].some((a) => /^test_suites\[[^\]]+\]\.test_cases\[TC-\d+\]$/.test(a))).toBe(true);
    expect([...anchors].some((a) => /^assumptions\[#1\]$/.test(a))).toBe(true);
  });

  it("an id anchor survives a revision that keeps its part, however it moved or changed; a removed part is gone", () => {
    const artifact = artifactOf("requirements") as { core_capabilities: { id: string; name: string }[] };
    const [first, ...rest] = artifact.core_capabilities;
    const revised = { ...artifact, core_capabilities: [...rest, { ...first!, name: `${first!.name}, within 3 days` }] };
    expect(relocate(revised, "core_capabilities[CAP-001]", textOf(first))).toBe("core_capabilities[CAP-001]");
    expect(relocate(revised, "core_capabilities[CAP-001].name", first!.name)).toBe("core_capabilities[CAP-001].name");
    const removed = { ...artifact, core_capabilities: rest };
    expect(relocate(removed, "core_capabilities[CAP-001]", textOf(first))).toBeNull();
  });

  it("a position or a line is re-found by the text it quoted, and is outdated once the text is gone", () => {
    const output = { assumptions: ["Cards only.", "A pilot city."], steps: "open\nbook\npay" };
    const inserted = { assumptions: ["Cash too.", "Cards only.", "A pilot city."], steps: "open\nsearch\nbook\npay" };
    expect(relocate(inserted, "assumptions[#2]", "A pilot city.")).toBe("assumptions[#3]");
    expect(relocate(inserted, "steps:L2", "book")).toBe("steps:L3");
    expect(relocate(inserted, "steps:L1", "open")).toBe("steps:L1");
    expect(relocate({ assumptions: ["Cards only."], steps: "open\npay" }, "steps:L2", "book")).toBeNull();
    expect(relocate({ assumptions: ["Cards only."], steps: "open" }, "assumptions[#2]", "A pilot city.")).toBeNull();
    expect(valueAt(output, "steps:L2")).toBe("book");
  });

  it("addresses a text output by paragraph, and the lines of a paragraph that has several", () => {
    const text = "# Plan\n\nBook a court.\n\n- open\n- pay";
    expect(anchorsOf(text).map((a) => a.anchor)).toEqual(["P1", "P2", "P3", "L5", "L6"]);
    expect(valueAt(text, "P3")).toBe("- open\n- pay");
    expect(replaceAt(text, "P2", "Book a court for two hours.")).toBe("# Plan\n\nBook a court for two hours.\n\n- open\n- pay");
    expect(replaceAt(text, "L6", "- pay by card")).toBe("# Plan\n\nBook a court.\n\n- open\n- pay by card");
  });

  it("writes at an anchor leaving everything else as it was, and refuses anchors that name nothing", () => {
    const artifact = artifactOf("agile") as { epics: { user_stories: { title?: string }[] }[] };
    const edited = replaceAt(artifact, "epics[EP-01].user_stories[US-001].title", "A new title");
    expect(valueAt(edited, "epics[EP-01].user_stories[US-001].title")).toBe("A new title");
    expect(JSON.stringify({ ...edited, epics: edited.epics.slice(1) })).toBe(JSON.stringify({ ...artifact, epics: artifact.epics.slice(1) }));
    expect(() => replaceAt(artifact, "epics[EP-09]", 1)).toThrow(AnchorError);
    expect(() => parseAnchor("epics[")).toThrow(AnchorError);
    expect(() => parseAnchor("steps:L0")).toThrow(AnchorError);
    expect(valueAt(artifact, "epics[EP-09].title")).toBeUndefined();
  });
});
