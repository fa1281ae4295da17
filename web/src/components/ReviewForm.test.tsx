/** The review form where rejecting cancels the run: the button says so, and an alertdialog confirms it first. */
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ReviewForm, type ReviewFormProps } from "./ReviewForm";

afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

function renderForm(overrides: Partial<ReviewFormProps> = {}) {
  const props: ReviewFormProps = {
    subject: "review", title: "Your review · review", consequence: "Rejecting cancels the run.", placeholder: "", hint: "",
    pending: null, error: null, draftKey: "test:review", rejectCancels: true,
    onApprove: vi.fn(async () => true), onReject: vi.fn(async () => true), ...overrides,
  };
  render(<ReviewForm {...props} />);
  const feedback = () => screen.getByRole("textbox", { name: "Feedback" }) as HTMLTextAreaElement;
  fireEvent.change(feedback(), { target: { value: "Too risky to ship." } });
  return { props, feedback };
}

describe("a rejection that cancels the run", () => {
  it("is labelled for what it does and asks first; Escape and Keep the run change nothing and keep the text", () => {
    const { props, feedback } = renderForm();
    expect(screen.queryByRole("button", { name: "Request changes" })).toBeNull();
    const trigger = screen.getByRole("button", { name: "Reject and cancel run" });
    fireEvent.click(trigger);
    const dialog = screen.getByRole("alertdialog", { name: "Reject and cancel this run?" });
    // Focus moves into the dialog, on the choice that keeps everything.
    expect(document.activeElement).toBe(within(dialog).getByRole("button", { name: "Keep the run" }));
    fireEvent.keyDown(dialog, { key: "Escape" });
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(document.activeElement).toBe(trigger);
    fireEvent.click(trigger);
    fireEvent.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Keep the run" }));
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(props.onReject).not.toHaveBeenCalled();
    expect(feedback().value).toBe("Too risky to ship.");
    expect(sessionStorage.getItem("stitch:draft:test:review")).toBe("Too risky to ship.");
  });

  it("is sent with the reason once confirmed, and Ctrl+Enter asks first too", async () => {
    const { props, feedback } = renderForm();
    fireEvent.keyDown(feedback(), { key: "Enter", ctrlKey: true });
    const dialog = screen.getByRole("alertdialog");
    expect(props.onReject).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole("button", { name: "Reject and cancel run" }));
    expect(props.onReject).toHaveBeenCalledWith("Too risky to ship.");
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
  });

  it("with a revision step left, Request changes sends at once", () => {
    const { props } = renderForm({ rejectCancels: false });
    fireEvent.click(screen.getByRole("button", { name: "Request changes" }));
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(props.onReject).toHaveBeenCalledWith("Too risky to ship.");
  });
});
