/**
 * The shell reads the rows an event will need in one statement (transition.ts `anticipatedKeys`, macrostep.ts
 * `anticipating`): a Worker's completion and the `completed` it causes read their rows with one load, not one per
 * step, and the macrostep's outcome is the same as with a loader that reads row by row.
 */
import { describe, expect, it } from "vitest";
import { chain, graphOf, workerNode } from "../testing/flows";
import { compileGraph } from "./graph";
import { anticipating, macrostep, settle } from "./macrostep";
import { type NodeRow, anticipatedKeys, newRow } from "./transition";

const hook = "https://worker.example.test/hook";
const ctx = { runId: "r", runInput: null, callbackUrl: (key: string) => `https://b.test/callback/${key}` };

describe("anticipated rows", () => {
  const g = compileGraph(graphOf([workerNode("A", hook), workerNode("B", hook), workerNode("C", hook)], chain("A", "B", "C"), chain("A", "C")));
  const stored = new Map<string, NodeRow>([
    ["A", { ...newRow("A"), status: "running", attempt: 1 }],
    ["B", newRow("B")],
    ["C", newRow("C")],
  ]);
  const event = { type: "callback" as const, key: "A", status: "completed" as const, output: 1 };

  it("a completion anticipates its node, the nodes after it and their other inputs", () => {
    expect(anticipatedKeys(g, event).sort()).toEqual(["A", "B", "C"]);
    // A failure's follow-ups are not guessed: it reads its own row.
    expect(anticipatedKeys(g, { ...event, status: "failed" })).toEqual(["A"]);
  });

  it("one load instead of one per step, with the same outcome", async () => {
    const loads: string[][] = [];
    const byRow = async (keys: string[]) => {
      loads.push(keys);
      return keys.flatMap((key) => stored.get(key) ?? []);
    };
    const stepwise = await settle(macrostep(g, event, ctx), byRow);
    const stepwiseLoads = loads.length;
    loads.length = 0;
    const anticipated = await settle(macrostep(g, event, ctx), anticipating(anticipatedKeys(g, event), byRow));
    expect(stepwiseLoads).toBeGreaterThan(1);
    expect(loads).toHaveLength(1);
    expect(anticipated).toEqual(stepwise);
  });

  it("rows read already (a batch's) are answered without a load; a row not read is loaded when asked for", async () => {
    const loads: string[][] = [];
    const load = anticipating([], async (keys) => {
      loads.push(keys);
      return keys.flatMap((key) => stored.get(key) ?? []);
    }, { keys: ["A", "Z"], rows: [stored.get("A")!] });
    expect(await load(["A", "Z"])).toEqual([stored.get("A")]);
    expect(loads).toEqual([]);
    expect(await load(["B"])).toEqual([stored.get("B")]);
    expect(loads).toEqual([["B"]]);
  });
});
