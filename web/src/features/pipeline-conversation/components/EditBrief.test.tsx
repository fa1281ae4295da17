/** "Edit brief": the text kept until sent, a confirmation before the first agent's draft is discarded, then `pipeline.editBrief`. */
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { EditBrief } from "./EditBrief";

const mutation = vi.hoisted(() => ({ mutateAsync: vi.fn(async (_input: { runId: string; brief: string }) => ({})), reset: vi.fn(), isPending: false, error: null }));
vi.mock("../api/review-run", () => ({ useEditBrief: () => mutation }));

const NEW = "A tool library for neighbours: members lend drills, book them for a day and get reminders.";

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
  window.sessionStorage.clear();
});

describe("EditBrief", () => {
  it("starts from the brief, keeps the text when closed, and restarts only once confirmed", async () => {
    render(<EditBrief runId="RUN_1" brief="Tool library app for neighbours" firstAgentName="Requirements" />);
    fireEvent.click(screen.getByRole("button", { name: "Edit brief" }));
    const box = screen.getByRole("textbox", { name: "New brief" }) as HTMLTextAreaElement;
    expect(box.value).toBe("Tool library app for neighbours");
    fireEvent.change(box, { target: { value: NEW } });
    fireEvent.click(screen.getByRole("button", { name: "Close (keeps your text)" }));
    fireEvent.click(screen.getByRole("button", { name: "Edit brief" }));
    expect((screen.getByRole("textbox", { name: "New brief" }) as HTMLTextAreaElement).value).toBe(NEW);

    fireEvent.click(screen.getByRole("button", { name: "Restart with this brief" }));
    const confirm = screen.getByRole("alertdialog", { name: "Restart with the new brief?" });
    expect(confirm.textContent).toContain("The Requirements agent's draft in progress (or its output waiting for review) is discarded");
    fireEvent.click(screen.getByRole("button", { name: "Keep editing" }));
    expect(mutation.mutateAsync).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole("button", { name: "Restart with this brief" }));
    fireEvent.click(screen.getByRole("button", { name: "Discard and restart" }));
    expect(mutation.mutateAsync).toHaveBeenCalledWith({ runId: "RUN_1", brief: NEW });
    await waitFor(() => expect(screen.getByRole("button", { name: "Edit brief" })).toBeTruthy());
    expect(window.sessionStorage.length).toBe(0);
  });

  it("says what is wrong with a short or unchanged brief instead of asking", () => {
    render(<EditBrief runId="RUN_1" brief="Tool library app for neighbours" firstAgentName="Requirements" />);
    fireEvent.click(screen.getByRole("button", { name: "Edit brief" }));
    fireEvent.click(screen.getByRole("button", { name: "Restart with this brief" }));
    expect(screen.getByRole("alert").textContent).toContain("This is the brief the run already has");
    fireEvent.change(screen.getByRole("textbox", { name: "New brief" }), { target: { value: "too short" } });
    fireEvent.click(screen.getByRole("button", { name: "Restart with this brief" }));
    expect(screen.getByRole("alert").textContent).toContain("Write at least 30 characters");
    expect(screen.queryByRole("alertdialog")).toBeNull();
  });
});
