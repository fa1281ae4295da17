/**
 * A review form with inline review behind it: a request for changes may go with no feedback when open comments go
 * with it (the button says how many), and the feedback kept on the server fills an empty box, follows what is typed,
 * and is erased once the decision is accepted.
 */
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { decision } from "../../testing/decisions";
import { ReviewForm } from "../ReviewForm";
import { type ComposerReview, InlineReviewProvider } from "./InlineReview";

afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

function renderForm(review: Partial<ComposerReview>, onReject = vi.fn(async () => true)) {
  const composer: ComposerReview = { openComments: 0, savedDraft: "", saveDraft: vi.fn(), clearDraft: vi.fn(), ...review };
  const useComposer = vi.fn(() => composer);
  render(
    <InlineReviewProvider implementation={{ Output: ({ children }) => <>{children}</>, useComposer }}>
      <ReviewForm
        subject="Requirements"
        title="Your review"
        consequence="Approving hands the output on."
        placeholder="What should change?"
        hint="Feedback goes back to the agent."
        pending={null}
        error={null}
        decision={decision({ id: "d-7" })}
        draftKey="pipeline:RUN_1:requirements:v1"
        onApprove={vi.fn()}
        onReject={onReject}
      />
    </InlineReviewProvider>,
  );
  return { composer, useComposer, onReject, feedback: () => screen.getByRole("textbox", { name: "Feedback" }) as HTMLTextAreaElement };
}

describe("a review form with inline review", () => {
  it("requests changes with no feedback when open comments go with it, and says how many", async () => {
    const { onReject, useComposer } = renderForm({ openComments: 2 });
    expect(useComposer).toHaveBeenCalledWith("d-7");
    const button = screen.getByRole("button", { name: "Request changes" });
    expect(button.getAttribute("aria-describedby")).toBeTruthy();
    expect(document.getElementById(button.getAttribute("aria-describedby")!)!.textContent).toBe("2 open comments will be sent");
    fireEvent.click(button);
    await waitFor(() => expect(onReject).toHaveBeenCalledWith(""));
  });

  it("still asks for feedback when no comment is open", () => {
    const { onReject } = renderForm({ openComments: 0 });
    fireEvent.click(screen.getByRole("button", { name: "Request changes" }));
    expect(screen.getByRole("alert").textContent).toBe("Describe what should change before requesting changes.");
    expect(onReject).not.toHaveBeenCalled();
  });

  it("fills an empty box with the draft kept on the server, saves what is typed, and erases it once accepted", async () => {
    const { composer, feedback, onReject } = renderForm({ savedDraft: "CAP-001 is too va" });
    expect(feedback().value).toBe("CAP-001 is too va");
    fireEvent.change(feedback(), { target: { value: "CAP-001 is too vague." } });
    expect(composer.saveDraft).toHaveBeenLastCalledWith("CAP-001 is too vague.");
    fireEvent.click(screen.getByRole("button", { name: "Request changes" }));
    await waitFor(() => expect(onReject).toHaveBeenCalledWith("CAP-001 is too vague."));
    await waitFor(() => expect(composer.clearDraft).toHaveBeenCalled());
    expect(feedback().value).toBe("");
  });

  it("keeps what the tab has over the server's copy", () => {
    sessionStorage.setItem("stitch:draft:pipeline:RUN_1:requirements:v1", "typed here");
    const { feedback } = renderForm({ savedDraft: "older, elsewhere" });
    expect(feedback().value).toBe("typed here");
  });
});
