/** A forked turn's kept decisions, read by hand: each readable one by node, anything else left out. */
import { describe, expect, it } from "vitest";
import { copiedDecisions } from "./turns";

describe("copiedDecisions", () => {
  it("reads each decision a fork kept, and leaves out what it cannot read", () => {
    const kept = { by: "Rita Ramos", decision: "approve", at: "2026-11-29T08:00:00.000Z", run_id: "11111111-1111-4111-8111-111111111111" };
    const data = { from_run_id: kept.run_id, decided: { review: kept, broken: { by: 5 }, list: [] } };
    expect(copiedDecisions({ data })).toEqual([["review", kept]]);
    expect(copiedDecisions({ data: { decided: "nothing" } })).toEqual([]);
    expect(copiedDecisions({ data: null })).toEqual([]);
  });
});
