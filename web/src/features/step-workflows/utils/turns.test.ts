import { describe, expect, it } from "vitest";
import type { StepTurn } from "../../../lib/trpc";
import { conversation, runStep, stepRun, turnAbout } from "../testing/runs";
import { attemptsOf, isStepRunActive, isStepRunResumable, type StepEpisode, stepEpisodes, stepNotes } from "./turns";

const started = (step: string, attempt: number): StepTurn => ({ kind: "started", ...turnAbout(step, { attempt }), body: { revising: false, feedback: null } });
const params = (step: string, attempt: number, value: unknown): StepTurn => ({ kind: "system", ...turnAbout(step, { attempt }), body: { event: "params", value } });
const failed = (step: string, attempt: number, error: string, retrying = false): StepTurn => ({ kind: "failed", ...turnAbout(step, { attempt }), body: { error, retrying } });
const notRun = (step: string, reason: string, status: "skipped" | "cancelled"): StepTurn => ({ kind: "skipped", ...turnAbout(step), body: { reason, status } });

/** The turns drawn on their own (an episode's card at the turn it began with), each as its kind or its step's card. */
const drawn = (turns: StepTurn[]) => {
  const { at, folded } = stepEpisodes(turns);
  return turns.filter((turn) => !folded.has(turn.id)).map((turn) => (at.has(turn.id) ? "step" : turn.kind));
};
const episodes = (turns: StepTurn[]): StepEpisode[] => [...stepEpisodes(turns).at.values()];

describe("a step run's conversation", () => {
  it("tells each step's attempt as one turn: its params and its result", () => {
    const turns: StepTurn[] = [
      { kind: "input", ...turnAbout(null, { who: "Dana" }), body: { value: { who: "Ada" } } },
      started("greet", 1),
      params("greet", 1, { text: "Hello, Ada" }),
      { kind: "output", ...turnAbout("greet", { attempt: 1 }), body: { value: { text: "Hello, Ada" }, text: "Hello, Ada", attempts: 1 } },
      { kind: "outcome", ...turnAbout(null), body: { status: "completed", reason: null, outputs: { greeting: "Hello, Ada" }, output_errors: {} } },
    ];
    const run = stepRun({ status: "completed", steps: [runStep("greet", "COMPLETED")] });
    expect(drawn(turns)).toEqual(["input", "step", "outcome"]);
    const [greet] = episodes(turns);
    expect(greet).toMatchObject({ stepId: "greet", tool: "utils.echo", params: { text: "Hello, Ada" } });
    expect(greet!.end?.kind).toBe("output");
    expect(attemptsOf(greet!)).toBe(1);
    const notes = stepNotes(conversation(run, turns));
    expect([notes.working.has(greet!.id), notes.retryable.has(greet!.end!.id)]).toEqual([false, false]);
  });

  it("places steps that run side by side where each started, and marks the one at work", () => {
    const turns: StepTurn[] = [
      started("a", 1),
      started("b", 1),
      params("b", 1, { ms: 5 }),
      params("a", 1, { ms: 500 }),
      { kind: "output", ...turnAbout("b", { attempt: 1 }), body: { value: { ms: 5 }, text: '{"ms":5}', attempts: 1 } },
    ];
    const notes = stepNotes(conversation(stepRun({ steps: [runStep("a", "RUNNING"), runStep("b", "COMPLETED")] }), turns));
    expect(episodes(turns).map((item) => [item.stepId, item.params, notes.working.has(item.id), item.end?.kind ?? null])).toEqual([
      ["a", { ms: 500 }, true, null],
      ["b", { ms: 5 }, false, "output"],
    ]);
  });

  it("counts the attempts tried again automatically, with each one's error", () => {
    const turns = [
      started("fetch", 1),
      params("fetch", 1, { url: "x" }),
      failed("fetch", 1, "HTTP 503", true),
      params("fetch", 2, { url: "y" }),
      failed("fetch", 2, "timed out", true),
      params("fetch", 3, { url: "z" }),
      failed("fetch", 3, "HTTP 500"),
    ];
    const [fetch] = episodes(turns);
    expect(fetch!.retried.map((r) => [r.attempt, r.error])).toEqual([
      [1, "HTTP 503"],
      [2, "timed out"],
    ]);
    expect(fetch!.params).toEqual({ url: "z" });
    expect(attemptsOf(fetch!)).toBe(3);
    expect(stepNotes(conversation(stepRun({ status: "failed", steps: [runStep("fetch", "FAILED")] }), turns)).retryable.has(fetch!.end!.id)).toBe(true);
  });

  it("shows a skipped step and a step cancelled before it started on lines of their own", () => {
    const turns: StepTurn[] = [
      started("lookup", 1),
      failed("lookup", 1, "step lookup: params.text: {{inputs.nope}} cannot be resolved"),
      notRun("report", 'trigger_rule all_success: "lookup" failed', "skipped"),
      notRun("later", "cancelled: enough", "cancelled"),
      { kind: "outcome", ...turnAbout(null, { who: "Dana" }), body: { status: "cancelled", reason: "enough", outputs: null, output_errors: {} } },
    ];
    expect(drawn(turns)).toEqual(["step", "skipped", "skipped", "outcome"]);
    const [lookup] = episodes(turns);
    // Its params never resolved, and a cancelled run's failure is not retried.
    expect(lookup!.params).toBeUndefined();
    expect(stepNotes(conversation(stepRun({ status: "cancelled", steps: [runStep("lookup", "FAILED")] }), turns)).retryable.has(lookup!.end!.id)).toBe(false);
  });

  it("ends a running step's turn when the step is cancelled with the run", () => {
    const turns = [started("wait", 1), notRun("wait", "cancelled: stop", "cancelled")];
    expect(drawn(turns)).toEqual(["step"]);
    const end = episodes(turns)[0]!.end;
    expect(end?.kind === "skipped" ? end.body.reason : null).toBe("cancelled: stop");
  });

  it("starts a new turn when a failed step is retried, and only the latest failure can be retried", () => {
    const turns: StepTurn[] = [
      started("flaky", 1),
      failed("flaky", 1, "no"),
      { kind: "system", ...turnAbout("flaky", { who: "Dana" }), body: { event: "retried" } },
      started("flaky", 2),
      failed("flaky", 2, "still no"),
    ];
    expect(drawn(turns)).toEqual(["step", "system", "step"]);
    const notes = stepNotes(conversation(stepRun({ status: "failed", steps: [runStep("flaky", "FAILED")] }), turns));
    expect(episodes(turns).map((item) => notes.retryable.has(item.end!.id))).toEqual([false, true]);
  });
});

describe("a step run's status", () => {
  it("is polled while running, and can be resumed once failed or cancelled", () => {
    expect(isStepRunActive("running")).toBe(true);
    expect(isStepRunActive("failed")).toBe(false);
    expect(["running", "completed", "failed", "cancelled"].filter((s) => isStepRunResumable(s as "running"))).toEqual(["failed", "cancelled"]);
  });
});
