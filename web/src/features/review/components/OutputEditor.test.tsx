/** Editing an output before approving it: field by field or as JSON, checked as typed, saved as the next version, refusals shown, edits not lost by accident. */
import { TRPCClientError } from "@trpc/client";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ReviewOutput } from "../../../lib/trpc";
import { requirementsArtifact } from "../../../testing/fixtures";
import { OutputEditor } from "./OutputEditor";

const edit = { mutateAsync: vi.fn(), isPending: false, error: null as unknown };
/** What the server's check of the edit as typed answers (null: not known yet). */
const check = { problems: null as { path: string; message: string }[] | null, enabled: [] as boolean[] };
vi.mock("../api/review", () => ({
  useEditOutput: () => edit,
  useEditCheck: (_decisionId: string, _value: unknown, enabled: boolean) => {
    check.enabled.push(enabled);
    return enabled ? check.problems : null;
  },
}));

afterEach(cleanup);
beforeEach(() => {
  edit.mutateAsync.mockReset();
  edit.error = null;
  check.problems = null;
  check.enabled = [];
});

const author = { kind: "agent" as const, name: "Requirements", account_id: null };
const output = {
  decision_id: "d-1", format: "artifact", artifact_type: "requirements", output: requirementsArtifact, version: 2, author, claim: null, anchors: [], editable: true, fields: [],
  versions: [
    { version: 1, revises: null, author, created_at: "2026-01-01T10:00:00Z" },
    { version: 2, revises: 1, author, created_at: "2026-01-01T10:05:00Z" },
  ],
} satisfies ReviewOutput;

describe("OutputEditor", () => {
  it("shows what the artifact type's schema says of the edit as she types, and keeps Save off until it fits", () => {
    check.problems = [{ path: "core_capabilities.0.name", message: "Too small: expected string to have >=1 characters" }];
    render(<OutputEditor output={output} onClose={vi.fn()} />);
    // Unchanged: nothing to check.
    expect(check.enabled.at(-1)).toBe(false);
    fireEvent.change(screen.getByRole("textbox", { name: "Problem statement refined" }), { target: { value: "Riders book trips." } });
    expect(check.enabled.at(-1)).toBe(true);
    expect(screen.getByRole("status").textContent).toBe("Not saved like this: core_capabilities.0.name: Too small: expected string to have >=1 characters.");
    expect(screen.getByRole("button", { name: "Save as v3" }).hasAttribute("disabled")).toBe(true);
  });

  it("edits a field and a list, refuses an emptied text as it is typed, and saves the edit as the next version", async () => {
    edit.mutateAsync.mockResolvedValue({});
    const onClose = vi.fn();
    render(<OutputEditor output={output} onClose={onClose} />);
    const save = screen.getByRole("button", { name: "Save as v3" });
    expect(save.hasAttribute("disabled")).toBe(true);

    const statement = screen.getByRole("textbox", { name: "Problem statement refined" });
    fireEvent.change(statement, { target: { value: "" } });
    expect(screen.getByText("Write this text, or remove its item.")).toBeTruthy();
    expect(save.hasAttribute("disabled")).toBe(true);
    fireEvent.change(statement, { target: { value: "Riders book and pay for trips." } });

    // CAP-002 moves up, a new capability gets the next id, an assumption goes.
    fireEvent.click(screen.getByRole("button", { name: "Move CAP-002 up" }));
    const capabilities = screen.getByRole("group", { name: "Core capabilities" });
    fireEvent.click(within(capabilities).getByRole("button", { name: "Add to Core capabilities" }));
    const added = screen.getByRole("group", { name: "CAP-003" });
    fireEvent.change(within(added).getByRole("textbox", { name: "Name" }), { target: { value: "Rate a driver" } });
    fireEvent.change(within(added).getByRole("textbox", { name: "Description" }), { target: { value: "A rider rates the driver after a trip." } });
    fireEvent.change(within(added).getByRole("textbox", { name: "Actor" }), { target: { value: "rider" } });
    fireEvent.click(screen.getByRole("button", { name: "Remove Assumptions, item 1" }));

    expect(save.hasAttribute("disabled")).toBe(false);
    fireEvent.click(save);
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    const sent = edit.mutateAsync.mock.calls[0]![0] as { decisionId: string; body: { output: typeof requirementsArtifact } };
    expect(sent.decisionId).toBe("d-1");
    expect(sent.body.output.problem_statement_refined).toBe("Riders book and pay for trips.");
    expect(sent.body.output.core_capabilities.map((c) => c.id)).toEqual(["CAP-002", "CAP-001", "CAP-003"]);
    expect(sent.body.output.assumptions).toEqual([]);
  });

  it("edits as JSON with parse errors as typed, and shows the server's reason when it refuses the version", async () => {
    edit.mutateAsync.mockImplementation(() => {
      edit.error = new TRPCClientError("artifact.core_capabilities: must list at least one capability");
      return Promise.reject(edit.error as Error);
    });
    const { rerender } = render(<OutputEditor output={output} onClose={vi.fn()} />);
    fireEvent.click(screen.getByRole("button", { name: "Edit as JSON" }));
    const json = screen.getByRole("textbox", { name: "Output as JSON" });
    fireEvent.change(json, { target: { value: '{"core_capabilities": [' } });
    expect(json.getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByText(/The JSON does not parse/)).toBeTruthy();
    expect(screen.getByRole("button", { name: "Edit field by field" }).hasAttribute("disabled")).toBe(true);

    fireEvent.change(json, { target: { value: JSON.stringify({ ...requirementsArtifact, core_capabilities: [] }) } });
    expect(json.getAttribute("aria-invalid")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Save as v3" }));
    await vi.waitFor(() => expect(edit.mutateAsync).toHaveBeenCalled());
    rerender(<OutputEditor output={output} onClose={vi.fn()} />);
    expect(screen.getByRole("alert").textContent).toContain("must list at least one capability");
    // The edits stay.
    expect((screen.getByRole("textbox", { name: "Output as JSON" }) as HTMLTextAreaElement).value).toContain('"core_capabilities":[]');
  });

  it("asks before discarding edits, and closes at once when nothing changed", () => {
    const onClose = vi.fn();
    const { unmount } = render(<OutputEditor output={output} onClose={onClose} />);
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(onClose).toHaveBeenCalledTimes(1);
    unmount();

    render(<OutputEditor output={output} onClose={onClose} />);
    fireEvent.change(screen.getByRole("textbox", { name: "Problem statement refined" }), { target: { value: "Changed." } });
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    const confirm = screen.getByRole("alertdialog", { name: "Discard your edits?" });
    fireEvent.click(within(confirm).getByRole("button", { name: "Keep editing" }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect((screen.getByRole("textbox", { name: "Problem statement refined" }) as HTMLTextAreaElement).value).toBe("Changed.");
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    fireEvent.click(screen.getByRole("button", { name: "Discard edits" }));
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it("edits a text output (a review gate's) in a text box: an emptied text is not saved, the edit is saved as the next version", async () => {
    edit.mutateAsync.mockResolvedValue({});
    const onClose = vi.fn();
    const person = { kind: "system" as const, name: "the run's previous step", account_id: null };
    const text = { ...output, format: "text", artifact_type: null, output: "Courts open at 8.", version: 1, author: person, versions: [{ version: 1, revises: null, author: person, created_at: "2026-01-01T10:00:00Z" }] } satisfies ReviewOutput;
    render(<OutputEditor output={text} onClose={onClose} />);
    expect(screen.queryByRole("button", { name: "Edit as JSON" })).toBeNull();
    const box = screen.getByRole("textbox", { name: "Edited text" });
    const save = screen.getByRole("button", { name: "Save as v2" });
    expect(save.hasAttribute("disabled")).toBe(true);
    fireEvent.change(box, { target: { value: "  " } });
    expect(box.getAttribute("aria-invalid")).toBe("true");
    expect(save.hasAttribute("disabled")).toBe(true);
    fireEvent.change(box, { target: { value: "Courts open at 9." } });
    fireEvent.change(screen.getByRole("textbox", { name: "What you changed (optional)" }), { target: { value: "the hour" } });
    fireEvent.click(save);
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(edit.mutateAsync).toHaveBeenCalledWith({ decisionId: "d-1", body: { output: "Courts open at 9.", note: "the hour" } });
  });

  it("edits a JSON output as JSON from the start", async () => {
    edit.mutateAsync.mockResolvedValue({});
    const json = { ...output, format: "json", artifact_type: null, output: { limit: 1, note: "" } } satisfies ReviewOutput;
    render(<OutputEditor output={json} onClose={vi.fn()} />);
    const box = screen.getByRole("textbox", { name: "Output as JSON" });
    fireEvent.change(box, { target: { value: '{"limit": 2, "note": ""}' } });
    fireEvent.click(screen.getByRole("button", { name: "Save as v3" }));
    await vi.waitFor(() => expect(edit.mutateAsync).toHaveBeenCalledWith({ decisionId: "d-1", body: { output: { limit: 2, note: "" } } }));
  });

  it("shows the fields in the page's order, and offers a field an item lacks empty: typed, it is added; emptied again, it is left out", async () => {
    edit.mutateAsync.mockResolvedValue({});
    // Stored in another order than the page reads, and CAP-002 without the domain CAP-001 has.
    const { problem_statement_refined, core_capabilities, ...rest } = requirementsArtifact;
    const shuffled = {
      ...rest,
      core_capabilities: [{ ...core_capabilities[0]!, domain: "mobility" }, core_capabilities[1]!],
      problem_statement_refined,
    };
    render(<OutputEditor output={{ ...output, output: shuffled }} onClose={vi.fn()} />);
    const topLevel = [...document.querySelectorAll(".edit-fields > .edit-field > label, .edit-fields > fieldset > legend")].map((label) => label.textContent);
    expect(topLevel).toEqual(["Problem statement refined", "Identified domains", "Core capabilities", "External dependencies", "Assumptions"]);

    const cap2 = screen.getByRole("group", { name: "CAP-002" });
    const domain = within(cap2).getByRole("textbox", { name: "Domain" });
    expect((domain as HTMLTextAreaElement).value).toBe("");
    // Offered, not required: left empty it is no problem and not saved.
    expect(screen.queryByRole("status")).toBeNull();
    fireEvent.change(domain, { target: { value: "payments" } });
    fireEvent.change(domain, { target: { value: "" } });
    expect(screen.getByRole("button", { name: "Save as v3" }).hasAttribute("disabled")).toBe(true);
    fireEvent.change(domain, { target: { value: "payments" } });
    fireEvent.click(screen.getByRole("button", { name: "Save as v3" }));
    await vi.waitFor(() => expect(edit.mutateAsync).toHaveBeenCalled());
    const saved = (edit.mutateAsync.mock.calls[0]![0] as { body: { output: typeof shuffled } }).body.output;
    expect(saved.core_capabilities[1]).toEqual({ ...core_capabilities[1], domain: "payments" });
  });

  it("offers every field the artifact's schema names, even one no item has, empty and left out unless typed", async () => {
    edit.mutateAsync.mockResolvedValue({});
    // No capability has an actor: the schema names it, so each is offered one.
    const capabilities = requirementsArtifact.core_capabilities.map(({ actor: _actor, ...rest }) => rest);
    const schema = [
      { path: "", key: "problem_statement_refined", kind: "text" },
      { path: "", key: "core_capabilities", kind: "list" },
      { path: "core_capabilities.*", key: "id", kind: "text" },
      { path: "core_capabilities.*", key: "name", kind: "text" },
      { path: "core_capabilities.*", key: "description", kind: "text" },
      { path: "core_capabilities.*", key: "actor", kind: "text" },
      { path: "", key: "open_questions", kind: "list" },
    ] as const;
    render(<OutputEditor output={{ ...output, output: { ...requirementsArtifact, core_capabilities: capabilities }, fields: [...schema] }} onClose={vi.fn()} />);
    const cap1 = screen.getByRole("group", { name: "CAP-001" });
    const actor = within(cap1).getByRole("textbox", { name: "Actor" });
    expect((actor as HTMLTextAreaElement).value).toBe("");
    // A list the schema names and the output lacks is offered empty, to add to.
    expect(screen.getByRole("button", { name: "Add to Open questions" })).toBeTruthy();
    expect(screen.queryByRole("status")).toBeNull();

    fireEvent.change(actor, { target: { value: "Rider" } });
    fireEvent.click(screen.getByRole("button", { name: "Save as v3" }));
    await vi.waitFor(() => expect(edit.mutateAsync).toHaveBeenCalled());
    const saved = (edit.mutateAsync.mock.calls[0]![0] as { body: { output: { core_capabilities: unknown[] } & Record<string, unknown> } }).body.output;
    expect(saved.core_capabilities[0]).toEqual({ ...capabilities[0], actor: "Rider" });
    expect(saved.core_capabilities[1]).toEqual(capabilities[1]);
    expect(saved).not.toHaveProperty("open_questions");
  });
});
