/**
 * A step run's conversation as it renders (one Conversation with the step runs' adapter): a step's tool, params, attempts and result (text fields as
 * text, the rest as JSON, never markup), a failure with Retry, skipped and cancelled steps, the outputs at the end.
 */
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { conversation, runStep, stepRun, turnAbout } from "../testing/runs";
import { Conversation } from "../../../components/Conversation";
import type { StepRun, StepTurn } from "../../../lib/trpc";
import { WithTrpc } from "../../../testing/WithTrpc";
import { stepEpisodes, stepNotes } from "../utils/turns";
import { type StepActions, stepTurnAdapter } from "./stepTurnAdapter";

afterEach(cleanup);

const noRetry: StepActions = { retry: () => ({ pending: false, error: null, onRetry: vi.fn() }) };

/** The run's turns as its page draws them. */
function StepTurns({ turns, run, actions }: { turns: StepTurn[]; run: StepRun; actions: StepActions }) {
  return <Conversation turns={turns} notes={stepNotes(conversation(run, turns))} adapter={stepTurnAdapter(run.id, stepEpisodes(turns), actions)} />;
}

function renderRun(turns: StepTurn[], run = stepRun({ status: "completed" }), actions: StepActions = noRetry) {
  render(
    <div role="log">
      <StepTurns turns={turns} run={run} actions={actions} />
    </div>,
  );
}

describe("step run turns", () => {
  it("shows the inputs the run was started with", () => {
    renderRun([{ kind: "input", ...turnAbout(null, { who: "Dana" }), body: { value: { who: "Ada", limit: 3, tags: ["x"] } } }]);
    const inputs = screen.getByRole("article", { name: "Inputs" });
    expect(within(inputs).getByText("by Dana")).toBeTruthy();
    expect(within(inputs).getByText("Ada")).toBeTruthy();
    expect(within(inputs).getByText("3")).toBeTruthy();
    expect(within(inputs).getByLabelText("Inputs: tags").textContent).toBe('[\n  "x"\n]');
  });

  it("shows a step's tool, params, attempts and its result's text, with the whole result as JSON", () => {
    const output = { results: [{ title: "ACME" }], text: "1. ACME" };
    const search = { tool: "search.google", attempt: 1 };
    renderRun([
      { kind: "started", ...turnAbout("search", search), body: { revising: false, feedback: null } },
      { kind: "system", ...turnAbout("search", search), body: { event: "params", value: { query: "ACME" } } },
      { kind: "output", ...turnAbout("search", search), body: { value: output, text: "1. ACME", attempts: 1 } },
    ]);
    const step = screen.getByRole("article", { name: "Step search" });
    expect(within(step).getByRole("heading", { name: "search" })).toBeTruthy();
    expect(within(step).getByText("search.google")).toBeTruthy();
    expect(within(step).getByText("COMPLETED")).toBeTruthy();
    expect(within(step).getByText("1 attempt")).toBeTruthy();
    expect(within(step).getByLabelText("Params of search").textContent).toBe('{\n  "query": "ACME"\n}');
    expect(step.querySelector(".step-text")!.textContent).toBe("1. ACME");
    expect(within(step).getByLabelText("Result of search as JSON").textContent).toBe(JSON.stringify(output, null, 2));
  });

  it("renders what a tool answered as text, never as markup", () => {
    const html = '<img src=x onerror="alert(1)"><b>bold</b>';
    renderRun([
      { kind: "started", ...turnAbout("echo", { attempt: 1 }), body: { revising: false, feedback: null } },
      { kind: "output", ...turnAbout("echo", { attempt: 1 }), body: { value: { text: html, note: html }, text: html, attempts: 1 } },
    ]);
    const step = screen.getByRole("article", { name: "Step echo" });
    expect(step.querySelector("img")).toBeNull();
    expect(step.querySelector("b")).toBeNull();
    expect(step.querySelector(".step-text")!.textContent).toBe(html);
  });

  it("shows a failure with its error and Retry, and the attempts tried again", () => {
    const onRetry = vi.fn();
    renderRun(
      [
        { kind: "started", ...turnAbout("fetch", { attempt: 1 }), body: { revising: false, feedback: null } },
        { kind: "failed", ...turnAbout("fetch", { attempt: 1 }), body: { error: "HTTP 503", retrying: true } },
        { kind: "failed", ...turnAbout("fetch", { attempt: 2 }), body: { error: "HTTP 500", retrying: false } },
      ],
      stepRun({ status: "failed", steps: [runStep("fetch", "FAILED")] }),
      { retry: () => ({ pending: false, error: null, onRetry }) },
    );
    const step = screen.getByRole("article", { name: "Step fetch" });
    expect(within(step).getByText("FAILED")).toBeTruthy();
    expect(within(step).getByText("2 attempts")).toBeTruthy();
    expect(within(step).getByText("HTTP 500")).toBeTruthy();
    expect(within(step).getByRole("list", { name: "Failed attempts of fetch" }).textContent).toContain("Attempt 1 failed, tried again: HTTP 503");
    expect(within(step).getByText("The params could not be resolved, so the tool did not run.")).toBeTruthy();
    fireEvent.click(within(step).getByRole("button", { name: "Retry" }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it("shows skipped and cancelled steps with their reason", () => {
    renderRun(
      [
        { kind: "skipped", ...turnAbout("report"), body: { reason: 'trigger_rule all_success: "lookup" failed', status: "skipped" } },
        { kind: "skipped", ...turnAbout("later"), body: { reason: "cancelled: enough", status: "cancelled" } },
      ],
      stepRun({ status: "cancelled" }),
    );
    const skipped = screen.getByRole("article", { name: "Step report skipped" });
    expect(within(skipped).getByText("SKIPPED")).toBeTruthy();
    expect(skipped.textContent).toContain('trigger_rule all_success: "lookup" failed');
    expect(within(screen.getByRole("article", { name: "Step later cancelled" })).getByText("CANCELLED")).toBeTruthy();
  });

  it("ends with the outcome and the outputs, each missing one with its reason", () => {
    renderRun([
      {
        kind: "outcome", ...turnAbout(null),
        body: { status: "failed", reason: null, outputs: { greeting: "Hello", count: 2, summary: null }, output_errors: { summary: '"report" was skipped' } },
      },
    ]);
    expect(screen.getByText(/^Run failed/)).toBeTruthy();
    const outputs = screen.getByRole("article", { name: "Outputs" });
    expect(within(outputs).getByText("Hello")).toBeTruthy();
    expect(within(outputs).getByText("2")).toBeTruthy();
    expect(within(outputs).getByText('"report" was skipped')).toBeTruthy();
  });

  it("tells the run's cancellation with who cancelled it and why, then how it ended", () => {
    renderRun([{ kind: "outcome", ...turnAbout(null, { who: "Dana" }), body: { status: "cancelled", reason: "enough", outputs: null, output_errors: {} } }], stepRun({ status: "cancelled" }));
    const note = screen.getByRole("article", { name: "Run cancelled" });
    expect(note.textContent).toContain("Run cancelled by Dana");
    expect(note.textContent).toContain("Reason enough");
    expect(screen.getByText(/^Run ended: cancelled/)).toBeTruthy();
    expect(screen.queryByRole("article", { name: "Outputs" })).toBeNull();
  });
});

/** The tRPC hooks' providers (the fork's mutation); nothing is sent in these tests. */
/** A step that started and answered. */
const greeted = (): StepTurn[] => [
  { kind: "started", ...turnAbout("greet", { attempt: 1 }), body: { revising: false, feedback: null } },
  { kind: "output", ...turnAbout("greet", { attempt: 1 }), body: { value: "hi", text: "hi", attempts: 1 } },
];

describe("a forked step run", () => {
  const from = "33333333-3333-4333-8333-333333333333";
  const fork = "44444444-4444-4444-8444-444444444444";

  it("opens with the step and run it was forked from, linked, by whom, with its edited inputs", () => {
    renderRun([
      {
        kind: "system", ...turnAbout("shape", { who: "Rita Ramos" }),
        body: { event: "forked", from_run_id: from, feedback: null, value: { word: "rope" }, decided: {}, edited: true, version: "original" },
      },
    ]);
    const turn = screen.getByRole("article", { name: "Forked from shape" });
    expect(turn.textContent).toContain("Forked from shape of run 33333333");
    expect(within(turn).getByText("by Rita Ramos")).toBeTruthy();
    expect(within(turn).getByRole("link", { name: "run 33333333" }).getAttribute("href")).toBe(`/app/steps/runs/${from}`);
    expect(within(turn).getByText("rope")).toBeTruthy();
  });

  it("tells the parent each fork made of it, linked", () => {
    renderRun([{ kind: "system", ...turnAbout("shape", { who: "Rita Ramos" }), body: { event: "forked_into", fork_run_id: fork, version: "original" } }]);
    const line = screen.getByText(/Forked at shape into/);
    expect(line.textContent).toContain("by Rita Ramos");
    expect(screen.getByRole("link", { name: "run 44444444" }).getAttribute("href")).toBe(`/app/steps/runs/${fork}`);
  });

  it("offers Re-run from here under each step's turn, prefilled with the run's inputs, where the run offers forks", () => {
    const forkOf = vi.fn((stepId: string) => ({ runId: "RUN_1", nodeId: stepId, label: stepId, nodeType: "step", input: { inputs: { who: "Ada" } }, inputLabel: "The run's inputs (JSON)" }));
    render(
      <WithTrpc>
        <StepTurns turns={greeted()} run={stepRun({ status: "completed" })} actions={{ ...noRetry, forkOf }} />
      </WithTrpc>,
    );
    expect(forkOf).toHaveBeenCalledWith("greet");
    expect(screen.getByText("Re-run from here")).toBeTruthy();
    const input = screen.getByLabelText("The run's inputs (JSON)") as HTMLTextAreaElement;
    expect(JSON.parse(input.value)).toEqual({ inputs: { who: "Ada" } });
    expect(screen.getByRole("button", { name: "Start the fork" })).toBeTruthy();
  });

  it("offers no re-run where the run offers no forks", () => {
    renderRun(greeted());
    expect(screen.queryByText("Re-run from here")).toBeNull();
  });
});
