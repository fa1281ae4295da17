import { describe, expect, it } from "vitest";
import { conversation, runStep, stepRun, stepTurn } from "../testing/runs";
import { attemptsOf, isStepRunActive, isStepRunResumable, type StepEpisode, stepItems } from "./turns";

const episodes = (items: ReturnType<typeof stepItems>) => items.filter((item): item is StepEpisode => item.kind === "step");

describe("a step run's conversation", () => {
  it("tells each step's attempt as one turn: its params and its result", () => {
    const turns = [
      stepTurn("inputs", null, { data: { inputs: { who: "Ada" } }, actor: "Dana" }),
      stepTurn("started", "greet", { data: { attempt: 1 } }),
      stepTurn("params", "greet", { data: { attempt: 1, input: { text: "Hello, Ada" } } }),
      stepTurn("output", "greet", { text: "Hello, Ada", data: { attempt: 1, output: { text: "Hello, Ada" }, attempts: 1 } }),
      stepTurn("outcome", null, { text: "completed", data: { status: "completed", outputs: { greeting: "Hello, Ada" }, output_errors: {} } }),
    ];
    const items = stepItems(conversation(stepRun({ status: "completed", steps: [runStep("greet", "COMPLETED")] }), turns));
    expect(items.map((item) => item.kind)).toEqual(["inputs", "step", "outcome"]);
    const [greet] = episodes(items);
    expect(greet).toMatchObject({ stepId: "greet", tool: "utils.echo", params: { text: "Hello, Ada" }, live: false, retryable: false });
    expect(greet!.end?.kind).toBe("output");
    expect(attemptsOf(greet!)).toBe(1);
  });

  it("places steps that run side by side where each started, and marks the one at work", () => {
    const turns = [
      stepTurn("started", "a", { data: { attempt: 1 } }),
      stepTurn("started", "b", { data: { attempt: 1 } }),
      stepTurn("params", "b", { data: { attempt: 1, input: { ms: 5 } } }),
      stepTurn("params", "a", { data: { attempt: 1, input: { ms: 500 } } }),
      stepTurn("output", "b", { data: { attempt: 1, output: { ms: 5 } } }),
    ];
    const items = episodes(stepItems(conversation(stepRun({ steps: [runStep("a", "RUNNING"), runStep("b", "COMPLETED")] }), turns)));
    expect(items.map((item) => [item.stepId, item.params, item.live, item.end?.kind ?? null])).toEqual([
      ["a", { ms: 500 }, true, null],
      ["b", { ms: 5 }, false, "output"],
    ]);
  });

  it("counts the attempts tried again automatically, with each one's error", () => {
    const turns = [
      stepTurn("started", "fetch", { data: { attempt: 1 } }),
      stepTurn("params", "fetch", { data: { attempt: 1, input: { url: "x" } } }),
      stepTurn("retrying", "fetch", { text: "HTTP 503", data: { attempt: 1 } }),
      stepTurn("params", "fetch", { data: { attempt: 2, input: { url: "y" } } }),
      stepTurn("retrying", "fetch", { text: "timed out", data: { attempt: 2 } }),
      stepTurn("params", "fetch", { data: { attempt: 3, input: { url: "z" } } }),
      stepTurn("failed", "fetch", { text: "HTTP 500", data: { attempt: 3 } }),
    ];
    const [fetch] = episodes(stepItems(conversation(stepRun({ status: "failed", steps: [runStep("fetch", "FAILED")] }), turns)));
    expect(fetch!.retried.map((r) => [r.attempt, r.error])).toEqual([
      [1, "HTTP 503"],
      [2, "timed out"],
    ]);
    expect(fetch!.params).toEqual({ url: "z" });
    expect(attemptsOf(fetch!)).toBe(3);
    expect(fetch!.retryable).toBe(true);
  });

  it("shows a skipped step and a step cancelled before it started on lines of their own", () => {
    const turns = [
      stepTurn("started", "lookup", { data: { attempt: 1 } }),
      stepTurn("failed", "lookup", { text: "step lookup: params.text: {{inputs.nope}} cannot be resolved", data: { attempt: 1 } }),
      stepTurn("skipped", "report", { text: 'trigger_rule all_success: "lookup" failed' }),
      stepTurn("cancelled", "later", { text: "cancelled: enough" }),
      stepTurn("cancelled", null, { text: "enough", actor: "Dana" }),
    ];
    const items = stepItems(conversation(stepRun({ status: "cancelled", steps: [runStep("lookup", "FAILED")] }), turns));
    expect(items.map((item) => item.kind)).toEqual(["step", "step-skipped", "step-cancelled", "run-cancelled"]);
    const [lookup] = episodes(items);
    // Its params never resolved, and a cancelled run's failure is not retried.
    expect(lookup!.params).toBeUndefined();
    expect(lookup!.retryable).toBe(false);
  });

  it("ends a running step's turn when the step is cancelled with the run", () => {
    const turns = [stepTurn("started", "wait", { data: { attempt: 1 } }), stepTurn("cancelled", "wait", { text: "cancelled: stop" })];
    const items = stepItems(conversation(stepRun({ status: "cancelled", steps: [runStep("wait", "CANCELLED")] }), turns));
    expect(items.map((item) => item.kind)).toEqual(["step"]);
    expect(episodes(items)[0]!.end?.text).toBe("cancelled: stop");
  });

  it("starts a new turn when a failed step is retried, and only the latest failure can be retried", () => {
    const turns = [
      stepTurn("started", "flaky", { data: { attempt: 1 } }),
      stepTurn("failed", "flaky", { text: "no", data: { attempt: 1 } }),
      stepTurn("retried", "flaky", { actor: "Dana" }),
      stepTurn("started", "flaky", { data: { attempt: 2 } }),
      stepTurn("failed", "flaky", { text: "still no", data: { attempt: 2 } }),
    ];
    const items = stepItems(conversation(stepRun({ status: "failed", steps: [runStep("flaky", "FAILED")] }), turns));
    expect(items.map((item) => item.kind)).toEqual(["step", "retried", "step"]);
    expect(episodes(items).map((item) => item.retryable)).toEqual([false, true]);
  });
});

describe("a step run's status", () => {
  it("is polled while running, and can be resumed once failed or cancelled", () => {
    expect(isStepRunActive("running")).toBe(true);
    expect(isStepRunActive("failed")).toBe(false);
    expect(["running", "completed", "failed", "cancelled"].filter((s) => isStepRunResumable(s as "running"))).toEqual(["failed", "cancelled"]);
  });
});
