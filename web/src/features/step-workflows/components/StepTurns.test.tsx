/**
 * The items of a step run's conversation as they render: a step's tool, params, attempts and result (text fields as
 * text, the rest as JSON, never markup), a failure with Retry, skipped and cancelled steps, the outputs at the end.
 */
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { conversation, runStep, stepRun, stepTurn } from "../testing/runs";
import type { StepTurn } from "../../../lib/trpc";
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
