/**
 * The items of a step run's conversation as they render: a step's tool, params, attempts and result (text fields as
 * text, the rest as JSON, never markup), a failure with Retry, skipped and cancelled steps, the outputs at the end.
 */
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { conversation, runStep, stepRun, stepTurn } from "../testing/runs";
import { type StepTurn, trpc } from "../../../lib/trpc";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { httpBatchLink } from "@trpc/client";
import type { ReactNode } from "react";
import { stepItems } from "../utils/turns";
import { type StepActions, StepItemView } from "./StepTurns";

afterEach(cleanup);

function renderRun(turns: StepTurn[], run = stepRun({ status: "completed" }), actions: StepActions = { retry: () => ({ pending: false, error: null, onRetry: vi.fn() }) }) {
  render(
    <div role="log">
      {stepItems(conversation(run, turns)).map((item) => (
        <StepItemView key={item.id} item={item} actions={actions} />
      ))}
    </div>,
  );
}

describe("step run turns", () => {
  it("shows the inputs the run was started with", () => {
    renderRun([stepTurn("inputs", null, { actor: "Dana", data: { inputs: { who: "Ada", limit: 3, tags: ["x"] } } })]);
    const inputs = screen.getByRole("article", { name: "Inputs" });
    expect(within(inputs).getByText("by Dana")).toBeTruthy();
    expect(within(inputs).getByText("Ada")).toBeTruthy();
    expect(within(inputs).getByText("3")).toBeTruthy();
    expect(within(inputs).getByLabelText("Inputs: tags").textContent).toBe('[\n  "x"\n]');
  });

  it("shows a step's tool, params, attempts and its result's text, with the whole result as JSON", () => {
    const output = { results: [{ title: "ACME" }], text: "1. ACME" };
    renderRun([
      stepTurn("started", "search", { tool: "search.google", data: { attempt: 1 } }),
      stepTurn("params", "search", { tool: "search.google", data: { attempt: 1, input: { query: "ACME" } } }),
      stepTurn("output", "search", { tool: "search.google", text: "1. ACME", data: { attempt: 1, output } }),
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
    renderRun([stepTurn("started", "echo", { data: { attempt: 1 } }), stepTurn("output", "echo", { data: { attempt: 1, output: { text: html, note: html } } })]);
    const step = screen.getByRole("article", { name: "Step echo" });
    expect(step.querySelector("img")).toBeNull();
    expect(step.querySelector("b")).toBeNull();
    expect(step.querySelector(".step-text")!.textContent).toBe(html);
  });

  it("shows a failure with its error and Retry, and the attempts tried again", () => {
    const onRetry = vi.fn();
    renderRun(
      [
        stepTurn("started", "fetch", { data: { attempt: 1 } }),
        stepTurn("retrying", "fetch", { text: "HTTP 503", data: { attempt: 1 } }),
        stepTurn("failed", "fetch", { text: "HTTP 500", data: { attempt: 2 } }),
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
      [stepTurn("skipped", "report", { text: 'trigger_rule all_success: "lookup" failed' }), stepTurn("cancelled", "later", { text: "cancelled: enough" })],
      stepRun({ status: "cancelled" }),
    );
    const skipped = screen.getByRole("article", { name: "Step report skipped" });
    expect(within(skipped).getByText("SKIPPED")).toBeTruthy();
    expect(skipped.textContent).toContain('trigger_rule all_success: "lookup" failed');
    expect(within(screen.getByRole("article", { name: "Step later cancelled" })).getByText("CANCELLED")).toBeTruthy();
  });

  it("ends with the outcome and the outputs, each missing one with its reason", () => {
    renderRun([
      stepTurn("outcome", null, { text: "failed", data: { status: "failed", outputs: { greeting: "Hello", count: 2, summary: null }, output_errors: { summary: '"report" was skipped' } } }),
    ]);
    expect(screen.getByText(/^Run failed/)).toBeTruthy();
    const outputs = screen.getByRole("article", { name: "Outputs" });
    expect(within(outputs).getByText("Hello")).toBeTruthy();
    expect(within(outputs).getByText("2")).toBeTruthy();
    expect(within(outputs).getByText('"report" was skipped')).toBeTruthy();
  });
});

/** The tRPC hooks' providers (the fork's mutation); nothing is sent in these tests. */
function WithTrpc({ children }: { children: ReactNode }) {
  const queryClient = new QueryClient();
  return (
    <trpc.Provider client={trpc.createClient({ links: [httpBatchLink({ url: "/trpc" })] })} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </trpc.Provider>
  );
}

describe("a forked step run", () => {
  const from = "33333333-3333-4333-8333-333333333333";
  const fork = "44444444-4444-4444-8444-444444444444";

  it("opens with the step and run it was forked from, linked, by whom, with its edited inputs", () => {
    renderRun([stepTurn("forked", "shape", { actor: "Rita Ramos", data: { from_run_id: from, version: "original", inputs: { word: "rope" }, edited: true } })]);
    const turn = screen.getByRole("article", { name: "Forked from shape" });
    expect(turn.textContent).toContain("Forked from shape of run 33333333");
    expect(within(turn).getByText("by Rita Ramos")).toBeTruthy();
    expect(within(turn).getByRole("link", { name: "run 33333333" }).getAttribute("href")).toBe(`/app/steps/runs/${from}`);
    expect(within(turn).getByText("rope")).toBeTruthy();
  });

  it("tells the parent each fork made of it, linked", () => {
    renderRun([stepTurn("forked_into", "shape", { actor: "Rita Ramos", data: { fork_run_id: fork, version: "original" } })]);
    const line = screen.getByText(/Forked at shape into/);
    expect(line.textContent).toContain("by Rita Ramos");
    expect(screen.getByRole("link", { name: "run 44444444" }).getAttribute("href")).toBe(`/app/steps/runs/${fork}`);
  });

  it("offers Re-run from here under each step's turn, prefilled with the run's inputs, where the run offers forks", () => {
    const forkOf = vi.fn((stepId: string) => ({ runId: "RUN_1", nodeId: stepId, label: stepId, nodeType: "step", input: { inputs: { who: "Ada" } }, inputLabel: "The run's inputs (JSON)" }));
    render(
      <WithTrpc>
        {stepItems(conversation(stepRun({ status: "completed" }), [stepTurn("started", "greet"), stepTurn("output", "greet", { text: "hi" })])).map((item) => (
          <StepItemView key={item.id} item={item} actions={{ retry: () => ({ pending: false, error: null, onRetry: vi.fn() }), forkOf }} />
        ))}
      </WithTrpc>,
    );
    expect(forkOf).toHaveBeenCalledWith("greet");
    expect(screen.getByText("Re-run from here")).toBeTruthy();
    const input = screen.getByLabelText("The run's inputs (JSON)") as HTMLTextAreaElement;
    expect(JSON.parse(input.value)).toEqual({ inputs: { who: "Ada" } });
    expect(screen.getByRole("button", { name: "Start the fork" })).toBeTruthy();
  });

  it("offers no re-run where the run offers no forks", () => {
    renderRun([stepTurn("started", "greet"), stepTurn("output", "greet", { text: "hi" })]);
    expect(screen.queryByText("Re-run from here")).toBeNull();
  });
});
