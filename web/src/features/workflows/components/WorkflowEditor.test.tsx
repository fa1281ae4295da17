/**
 * The editor's check and its problem list: the server is asked ~400 ms after the last keystroke, only the answer to
 * the latest text counts, problems and warnings are listed as "line L, column C: message" and handed to the editor
 * to mark at their lines, a problem in the list moves the cursor to it, and a refused save shows its problems the
 * same way. CodeMirror itself stands aside here (a textarea takes its place); its diagnostics' positions are checked
 * on a CodeMirror text.
 */
import { Text } from "@codemirror/state";
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { TRPCClientError } from "@trpc/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { WorkflowIssue } from "../../../lib/trpc";
import { describeIssue, locatedIssuesOf } from "../utils/issues";
import { CheckSummary, ProblemList } from "./ProblemList";
import { WorkflowEditor } from "./WorkflowEditor";
import { type FocusRequest, toDiagnostic } from "./YamlEditor";

const validate = vi.hoisted(() => ({ mutateAsync: vi.fn<(input: { yaml: string }) => Promise<{ valid: true; warnings: WorkflowIssue[] }>>() }));
const register = vi.hoisted(() => ({ mutate: vi.fn(), reset: vi.fn(), isPending: false, error: null as unknown }));
const editorProps = vi.hoisted(() => ({ problems: [] as readonly WorkflowIssue[], warnings: [] as readonly WorkflowIssue[], focusRequest: null as FocusRequest | null }));

vi.mock("../../../lib/trpc", () => ({ trpc: { workflows: { validate: { useMutation: () => validate } } } }));
vi.mock("../api/workflows", () => ({ useRegisterWorkflow: () => register }));
vi.mock("./LazyYamlEditor", () => ({
  LazyYamlEditor: (props: { value: string; onChange(value: string): void; problems: readonly WorkflowIssue[]; warnings: readonly WorkflowIssue[]; focusRequest: FocusRequest | null }) => {
    Object.assign(editorProps, { problems: props.problems, warnings: props.warnings, focusRequest: props.focusRequest });
    return <textarea aria-label="Workflow YAML" value={props.value} onChange={(event) => props.onChange(event.target.value)} />;
  },
}));

const unknownNode: WorkflowIssue = { path: "nodes[1].depends_on[0]", line: 9, column: 18, message: 'depends_on names unknown node "draftt"' };
const unusedKey: WorkflowIssue = { path: "nodes[0].foo", line: 7, column: 5, message: 'unknown key "foo" in node "draft"; it is ignored' };

function refusal(issues: WorkflowIssue[], warnings: WorkflowIssue[] = []) {
  return TRPCClientError.from({
    error: { code: -32600, message: `the workflow has ${issues.length} problem(s)`, data: { code: "BAD_REQUEST", httpStatus: 400, refusalCode: "invalid_workflow", refusalDetails: { issues, warnings } } },
  });
}

const yamlBox = () => screen.getByRole("textbox", { name: "Workflow YAML" });
const type = (text: string) => fireEvent.change(yamlBox(), { target: { value: text } });

beforeEach(() => {
  vi.useFakeTimers();
  Object.assign(register, { isPending: false, error: null });
});
afterEach(() => {
  cleanup();
  vi.clearAllMocks();
  vi.useRealTimers();
});

describe("WorkflowEditor", () => {
  it("asks the server ~400 ms after the last keystroke, and lists the problems at their lines", async () => {
    validate.mutateAsync.mockRejectedValue(refusal([unknownNode], [unusedKey]));
    render(<WorkflowEditor initialYaml="name: a" saveLabel="Save workflow" onSaved={vi.fn()} />);
    type("name: ab");
    await act(() => vi.advanceTimersByTimeAsync(200));
    type("name: abc");
    await act(() => vi.advanceTimersByTimeAsync(399));
    // Each keystroke put off the check of the text before it; the last text's is not due yet.
    expect(validate.mutateAsync).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(validate.mutateAsync).toHaveBeenCalledTimes(1);
    expect(validate.mutateAsync).toHaveBeenCalledWith({ yaml: "name: abc" });

    const problems = screen.getByRole("region", { name: "Problems (1)" });
    expect(within(problems).getByRole("listitem").textContent).toBe('line 9, column 18: depends_on names unknown node "draftt"nodes[1].depends_on[0]');
    expect(screen.getByRole("region", { name: "Warnings (1)" }).textContent).toContain("line 7, column 5: unknown key");
    expect(screen.getByRole("status").textContent).toBe("1 problem and 1 warning, each marked at its line.");
    // The editor marks the same problems at their lines.
    expect(editorProps.problems).toEqual([unknownNode]);
    expect(editorProps.warnings).toEqual([unusedKey]);
  });

  it("drops an answer that arrives after the text changed, and says when the text is clean", async () => {
    let answerFirst: (value: { valid: true; warnings: WorkflowIssue[] }) => void = () => undefined;
    validate.mutateAsync.mockImplementationOnce(() => new Promise((resolve) => (answerFirst = resolve))).mockRejectedValueOnce(refusal([unknownNode]));
    render(<WorkflowEditor initialYaml="name: first" saveLabel="Save workflow" onSaved={vi.fn()} />);
    await act(() => vi.advanceTimersByTimeAsync(400));
    type("name: second");
    await act(() => vi.advanceTimersByTimeAsync(400));
    await act(async () => answerFirst({ valid: true, warnings: [] }));
    expect(screen.getByRole("region", { name: "Problems (1)" })).toBeTruthy();

    validate.mutateAsync.mockResolvedValueOnce({ valid: true, warnings: [] });
    type("name: third");
    expect(screen.getByRole("status").textContent).toContain("Checking");
    await act(() => vi.advanceTimersByTimeAsync(400));
    expect(screen.getByRole("status").textContent).toBe("No problems: the workflow can be saved.");
    expect(screen.queryByRole("region", { name: /Problems/ })).toBeNull();
    expect(editorProps.problems).toEqual([]);
  });

  it("moves the editor's cursor to a problem picked in the list", async () => {
    validate.mutateAsync.mockRejectedValue(refusal([unknownNode]));
    render(<WorkflowEditor initialYaml="name: a" saveLabel="Save workflow" onSaved={vi.fn()} />);
    await act(() => vi.advanceTimersByTimeAsync(400));
    fireEvent.click(screen.getByRole("button", { name: describeIssue(unknownNode) }));
    expect(editorProps.focusRequest).toMatchObject({ line: 9, column: 18 });
  });

  it("saves the text, and shows a refused save's problems like the check's", async () => {
    validate.mutateAsync.mockResolvedValue({ valid: true, warnings: [] });
    const view = render(<WorkflowEditor initialYaml="name: a" saveLabel="Save workflow" onSaved={vi.fn()} />);
    await act(() => vi.advanceTimersByTimeAsync(400));
    fireEvent.click(screen.getByRole("button", { name: "Save workflow" }));
    expect(register.mutate).toHaveBeenCalledWith({ yaml: "name: a" }, expect.objectContaining({ onSuccess: expect.any(Function) }));

    register.error = refusal([unknownNode]);
    view.rerender(<WorkflowEditor initialYaml="name: a" saveLabel="Save workflow" onSaved={vi.fn()} />);
    expect(screen.getByRole("region", { name: "Problems (1)" }).textContent).toContain("line 9, column 18");
    expect(screen.getAllByRole("alert").some((alert) => alert.textContent?.includes("The workflow was not saved"))).toBe(true);
    expect(editorProps.problems).toEqual([unknownNode]);
    // Editing forgets the refusal; the live check takes over again.
    type("name: b");
    expect(register.reset).toHaveBeenCalled();
  });
});

describe("the problem list", () => {
  it("lists problems and warnings apart, each with its place and path, and nothing when there are none", () => {
    const onSelect = vi.fn();
    const view = render(<ProblemList problems={[unknownNode]} warnings={[unusedKey]} onSelect={onSelect} />);
    fireEvent.click(screen.getByRole("button", { name: 'line 9, column 18: depends_on names unknown node "draftt"' }));
    expect(onSelect).toHaveBeenCalledWith(unknownNode);
    expect(within(screen.getByRole("region", { name: "Warnings (1)" })).getByText("nodes[0].foo")).toBeTruthy();
    view.rerender(<ProblemList problems={[]} warnings={[]} />);
    expect(view.container.textContent).toBe("");
  });

  it("says where the check stands", () => {
    const view = render(<CheckSummary status="checking" problems={0} warnings={0} error={null} />);
    expect(screen.getByRole("status").textContent).toContain("Checking…");
    view.rerender(<CheckSummary status="invalid" problems={2} warnings={0} error={null} />);
    expect(screen.getByRole("status").textContent).toBe("2 problems, each marked at its line.");
    view.rerender(<CheckSummary status="unchecked" problems={0} warnings={0} error={new Error("The server could not be reached.")} />);
    expect(screen.getByRole("status").textContent).toBe("The definition could not be checked: The server could not be reached.");
  });

  it("reads located issues only from a refused definition", () => {
    expect(locatedIssuesOf(refusal([unknownNode], [unusedKey]))).toEqual({ problems: [unknownNode], warnings: [unusedKey] });
    expect(locatedIssuesOf(new Error("network down"))).toBeNull();
    const conflict = TRPCClientError.from({ error: { code: -32603, message: "run is cancelled", data: { code: "CONFLICT", httpStatus: 409, refusalDetails: null } } });
    expect(locatedIssuesOf(conflict)).toBeNull();
  });
});

describe("diagnostics in the editor", () => {
  it("spans from the issue's column to the end of the value there, kept inside the text", () => {
    const doc = Text.of(["name: x", "nodes:", "  - id: a", "    depends_on: [draftt]", ""]);
    const at = toDiagnostic(doc, { ...unknownNode, line: 4, column: 18 }, "error");
    expect(doc.sliceString(at.from, at.to)).toBe("draftt");
    expect(at).toMatchObject({ severity: "error", message: unknownNode.message, source: unknownNode.path });
    // A place past the end of its line or of the text stays in the text.
    const beyond = toDiagnostic(doc, { path: "", line: 40, column: 99, message: "x" }, "warning");
    expect([beyond.from, beyond.to]).toEqual([doc.length, doc.length]);
    const name = toDiagnostic(doc, { path: "name", line: 1, column: 1, message: "x" }, "error");
    expect(doc.sliceString(name.from, name.to)).toBe("name:");
  });
});
