/** Ids derived from text: UUID-shaped, stable, and the very ids the workflow front doors derived before they shared this. */
import { describe, expect, it } from "vitest";
import { stableJson } from "./json";
import { hashedUuid, isUuid } from "./uuid";

describe("hashedUuid", () => {
  it("is a UUID of version 5 with the given variant, the same for the same text", () => {
    const id = hashedUuid("some text", "a");
    expect(isUuid(id)).toBe(true);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(hashedUuid("some text", "a")).toBe(id);
    expect(hashedUuid("other text", "a")).not.toBe(id);
  });

  it("gives the flow ids the YAML and step workflows stored before (each format's input and variant unchanged)", () => {
    const yaml = { name: "release-notes", version: 1, definition: { name: "release-notes", description: "d", nodes: [{ id: "a", kind: "prompt", prompt: "hi", depends_on: [] }] } };
    expect(hashedUuid(JSON.stringify(yaml), "b")).toBe("1d241143-0552-556f-b8f2-72b0acab35f8");
    const steps = { id: "greeting", steps: [{ id: "greet", tool: "utils.echo", params: { text: "hi" }, depends_on: [] }] };
    expect(hashedUuid(`steps\ngreeting\n2\n${stableJson(steps)}`, "a")).toBe("3920a4c9-0158-5eac-a7f0-ee26f21c3ddd");
  });
});
