import { describe, expect, it } from "vitest";
import { engineRunTitle, whyNotCompare } from "./EngineRunList";

describe("engineRunTitle", () => {
  it("names each run by what it is and its title, never by an id alone", () => {
    expect(engineRunTitle({ flow_name: "agent pipeline", title: "tool-library", owner: { front_door: "pipeline", run_id: "RUN_1" } })).toBe("Agent pipeline: tool-library");
    expect(engineRunTitle({ flow_name: "workflow greeting v2", title: "Say hello to Ana", owner: { front_door: "yaml", run_id: "r" } })).toBe("Workflow greeting v2: Say hello to Ana");
    expect(engineRunTitle({ flow_name: "steps lookup v1", title: null, owner: { front_door: "steps", run_id: "r" } })).toBe("Step workflow lookup v1");
    expect(engineRunTitle({ flow_name: "my flow", title: null, owner: null })).toBe("my flow");
  });
});

describe("whyNotCompare", () => {
  it("asks for two runs of one flow, and says nothing once they are", () => {
    expect(whyNotCompare([])).toBe("Choose two runs of one flow to compare them.");
    expect(whyNotCompare([{ flow_id: "f1" }])).toBe("Choose one more run of one flow to compare them.");
    expect(whyNotCompare([{ flow_id: "f1" }, { flow_id: "f2" }])).toMatch(/^These two runs are of different flows/);
    expect(whyNotCompare([{ flow_id: "f1" }, { flow_id: "f1" }])).toBeNull();
  });
});
