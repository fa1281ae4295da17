/** The decisions a fork keeps: the last one on each copied node, and a fork of a fork naming the run it was taken in. */
import { describe, expect, it } from "vitest";
import { copiedDecisions } from "./copiedDecisions";

const at = (minute: number) => `2026-11-29T08:${String(minute).padStart(2, "0")}:00.000Z`;

describe("copiedDecisions", () => {
  it("keeps each copied node's last decision, and none of a node it does not copy", () => {
    const decided = copiedDecisions("run-a", [
      { at: at(1), actor: "Rita Ramos", event: { type: "review", key: "gate", decision: "reject", feedback: "shorter" } },
      { at: at(2), actor: null, event: { type: "callback", key: "draft", status: "completed", output: "v2" } },
      { at: at(3), actor: "Olga Operator", event: { type: "review", key: "gate", decision: "approve" } },
      { at: at(4), actor: "Ana Analyst", event: { type: "input", key: "ask", text: "yes" } },
      { at: at(5), actor: "Ana Analyst", event: { type: "review", key: "later", decision: "approve" } },
    ], ["draft", "gate", "ask"]);
    expect(decided).toEqual({
      gate: { by: "Olga Operator", decision: "approve", at: at(3), run_id: "run-a" },
      ask: { by: "Ana Analyst", decision: "answer", at: at(4), run_id: "run-a" },
    });
  });

  it("a fork of a fork keeps the decision its parent copied, in the run it was taken in", () => {
    const inherited = { by: "Rita Ramos", decision: "approve" as const, at: at(1), run_id: "run-a" };
    const fork = {
      type: "fork" as const, key: "draft", from: { run_id: "run-a", node_id: "draft" }, rows: [], fire: ["draft"], decided: { gate: inherited },
    };
    expect(copiedDecisions("run-b", [{ at: at(9), actor: "Alan Analyst", event: fork }], ["gate"])).toEqual({ gate: inherited });
  });
});
