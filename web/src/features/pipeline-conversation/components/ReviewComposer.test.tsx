/** The reviewer's composer in each of its states: idle, invalid, sending, refused, accepted. */
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TRPCClientError } from "@trpc/client";
import { ReviewComposer, type ReviewComposerProps } from "./ReviewComposer";

afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

function renderComposer(overrides: Partial<ReviewComposerProps> = {}) {
  const props: ReviewComposerProps = {
    agentName: "Requirements",
    version: 1,
    nextAgentName: "Inception",
    pending: null,
    error: null,
    draftKey: null,
    onApprove: vi.fn(),
    onReject: vi.fn(async () => true),
    ...overrides,
  };
  const view = render(<ReviewComposer {...props} />);
  return { props, view, feedback: () => screen.getByRole("textbox", { name: "Feedback" }) as HTMLTextAreaElement };
}

describe("ReviewComposer", () => {
  it("offers Approve and Request changes with a Feedback box, and says what approving starts", () => {
    const { props } = renderComposer();
    expect(screen.getByRole("region", { name: "Review Requirements" })).toBeTruthy();
    expect(screen.getByText(/hands the output to the Inception agent/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Approve" }));
    expect(props.onApprove).toHaveBeenCalledTimes(1);
  });

  it("says the last approval completes the run", () => {
    renderComposer({ agentName: "QA", nextAgentName: null });
    expect(screen.getByText(/approving completes the run/)).toBeTruthy();
  });

  it("refuses to send empty feedback and says why, without calling the server", () => {
    const { props, feedback } = renderComposer();
    fireEvent.change(feedback(), { target: { value: "   " } });
    fireEvent.click(screen.getByRole("button", { name: "Request changes" }));
    expect(props.onReject).not.toHaveBeenCalled();
    expect(screen.getByRole("alert").textContent).toBe("Describe what should change before requesting changes.");
    expect(feedback().getAttribute("aria-invalid")).toBe("true");
  });

  it("sends trimmed feedback and clears the box once the server accepted it", async () => {
    const { props, feedback } = renderComposer();
    fireEvent.change(feedback(), { target: { value: "  Add PDF export.  " } });
    fireEvent.click(screen.getByRole("button", { name: "Request changes" }));
    expect(props.onReject).toHaveBeenCalledWith("Add PDF export.");
    await waitFor(() => expect(feedback().value).toBe(""));
  });

  it("keeps the feedback when the server refused it", async () => {
    const { feedback } = renderComposer({ onReject: vi.fn(async () => false) });
    fireEvent.change(feedback(), { target: { value: "Add PDF export." } });
    fireEvent.keyDown(feedback(), { key: "Enter", ctrlKey: true });
    await waitFor(() => expect(feedback().value).toBe("Add PDF export."));
  });

  it("disables every control while a decision is being sent, keeping the buttons' names", () => {
    const { props, feedback } = renderComposer({ pending: "approve" });
    const approve = screen.getByRole("button", { name: "Approve" }) as HTMLButtonElement;
    expect(approve.disabled).toBe(true);
    expect(approve.getAttribute("aria-busy")).toBe("true");
    expect((screen.getByRole("button", { name: "Request changes" }) as HTMLButtonElement).disabled).toBe(true);
    expect(feedback().disabled).toBe(true);
    fireEvent.click(approve);
    expect(props.onApprove).not.toHaveBeenCalled();
  });

  it("shows the server's refusal as an alert", () => {
    const error = TRPCClientError.from({ error: { code: -32603, message: 'run RUN_1 is not waiting for review (status IN_PROGRESS_INCEPTION)', data: { code: "CONFLICT", httpStatus: 409 } } });
    renderComposer({ error });
    expect(screen.getByRole("alert").textContent).toContain("Your decision was not recorded");
    expect(screen.getByRole("alert").textContent).toContain("is not waiting for review");
  });

  it("keeps what was typed when the composer goes and comes back (the page re-read, the graph looked at), until it is sent", async () => {
    const draftKey = "pipeline:RUN_1:requirements:v1";
    const first = renderComposer({ draftKey });
    fireEvent.change(first.feedback(), { target: { value: "Add a waiting list." } });
    first.view.unmount();
    const again = renderComposer({ draftKey });
    expect(again.feedback().value).toBe("Add a waiting list.");
    // Another output's review starts from its own (empty) box.
    again.view.unmount();
    expect(renderComposer({ draftKey: "pipeline:RUN_1:requirements:v2" }).feedback().value).toBe("");
    cleanup();
    const sent = renderComposer({ draftKey });
    fireEvent.click(screen.getByRole("button", { name: "Request changes" }));
    await waitFor(() => expect(sent.feedback().value).toBe(""));
    sent.view.unmount();
    expect(renderComposer({ draftKey }).feedback().value).toBe("");
  });
});
