import { describe, expect, it } from "vitest";
import { hasCompletionSignal } from "./loopSignal";

describe("hasCompletionSignal", () => {
  it("counts the signal on a line of its own, anywhere", () => {
    expect(hasCompletionSignal("Fixed the tests.\nDONE\nSummary follows.", "DONE")).toBe(true);
    expect(hasCompletionSignal("Fixed the tests.\r\n  DONE  \r\n", "DONE")).toBe(true);
  });

  it("counts the signal at the very end of the output, after trailing whitespace", () => {
    expect(hasCompletionSignal("All tests pass. DONE", "DONE")).toBe(true);
    expect(hasCompletionSignal("All tests pass: DONE \n\n\t", "DONE")).toBe(true);
  });

  it("counts <promise>SIGNAL</promise> anywhere", () => {
    expect(hasCompletionSignal("I am finished <promise>DONE</promise> and here is why.", "DONE")).toBe(true);
    expect(hasCompletionSignal("<promise> ALL GOOD </promise>", "ALL GOOD")).toBe(true);
  });

  it("does not count a mention mid-sentence, or the signal glued to a longer word", () => {
    expect(hasCompletionSignal("I am not DONE yet, more to do.", "DONE")).toBe(false);
    expect(hasCompletionSignal("The task is UNDONE", "DONE")).toBe(false);
    expect(hasCompletionSignal("Say DONE. when finished", "DONE")).toBe(false);
    expect(hasCompletionSignal("<promise>NOT DONE</promise>", "DONE")).toBe(false);
  });

  it("is exact about case, treats the signal literally, and never matches an empty signal", () => {
    expect(hasCompletionSignal("done", "DONE")).toBe(false);
    expect(hasCompletionSignal("ok\n[x]+", "[x]+")).toBe(true);
    expect(hasCompletionSignal("xx", "x+")).toBe(false);
    expect(hasCompletionSignal("anything\n", "  ")).toBe(false);
  });
});
