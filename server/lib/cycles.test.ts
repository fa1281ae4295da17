/** The product's one cycle finder (server/lib/cycles.ts), on its own: pure, so no database. */
import { describe, expect, it } from "vitest";
import { findCycles, reachableFrom } from "./cycles";

describe("findCycles", () => {
  it("finds the shortest walk back, one per group of mutually dependent nodes", () => {
    const edges = new Map([["a", ["b"]], ["b", ["c", "d"]], ["c", ["b"]], ["d", ["a"]], ["e", ["e"]], ["f", ["a"]]]);
    expect(findCycles(["a", "b", "c", "d", "e", "f"], edges)).toEqual([["a", "b", "d", "a"], ["e", "e"]]);
    expect(findCycles(["x"], new Map([["x", ["y"]]]))).toEqual([]);
  });

  it("walks from the group's first node in the order given, and takes any kind of node", () => {
    const edges = new Map([[2, [0]], [0, [1]], [1, [2]]]);
    expect(findCycles([0, 1, 2], edges)).toEqual([[0, 1, 2, 0]]);
    expect(findCycles([2, 1, 0], edges)).toEqual([[2, 0, 1, 2]]);
  });

  it("reports separate groups separately, and a walk through a node outside its group never", () => {
    const edges = new Map([["a", ["b"]], ["b", ["a", "c"]], ["c", ["d"]], ["d", ["c"]]]);
    expect(findCycles(["a", "b", "c", "d"], edges)).toEqual([["a", "b", "a"], ["c", "d", "c"]]);
  });
});

describe("reachableFrom", () => {
  it("is every node a start leads to, itself only through a cycle", () => {
    expect(reachableFrom("a", new Map([["a", ["b"]], ["b", ["c"]]]))).toEqual(new Set(["b", "c"]));
    expect(reachableFrom("a", new Map([["a", ["b"]], ["b", ["a"]]]))).toEqual(new Set(["b", "a"]));
  });
});
