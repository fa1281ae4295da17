import { describe, expect, it } from "vitest";
import { byName, definitionText } from "./definition";

describe("a stored definition shown", () => {
  it("puts the fields back in the format's order, unknown ones last", () => {
    const stored = {
      id: "x",
      steps: [{ id: "a", params: { z: 1, a: 2 }, tool: "utils.echo", depends_on: [], extra: true }],
      inputs: [{ type: "string", name: "who", optional: true }],
      outputs: { b: "{{a.z}}", a: "{{a.a}}" },
      version: "1",
      description: "d",
      name: "n",
    };
    const shown = JSON.parse(definitionText(stored)) as typeof stored;
    expect(Object.keys(shown)).toEqual(["id", "name", "version", "description", "inputs", "steps", "outputs"]);
    expect(Object.keys(shown.steps[0]!)).toEqual(["id", "tool", "depends_on", "params", "extra"]);
    expect(Object.keys(shown.inputs[0]!)).toEqual(["name", "type", "optional"]);
    // Params and outputs are the author's own: left as stored.
    expect(Object.keys(shown.steps[0]!.params)).toEqual(["z", "a"]);
    expect(definitionText(stored).endsWith("}\n")).toBe(true);
  });

  it("orders a record's values by name", () => {
    expect(byName({ waited_ms: 1, times: 2, greeting: 3 }).map(([name]) => name)).toEqual(["greeting", "times", "waited_ms"]);
  });
});
