/** Each turn of the conversation as its own message: decisions, revisions with their changes, errors with retry, the cancellation. */
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TurnView } from "../../../components/Conversation";
import type { ConversationTurn } from "../../../lib/trpc";
import { agents, envelope, requirementsArtifact, runView, turns as m } from "../../../testing/fixtures";
import { formatTime } from "../../../lib/time";
import { annotateConversation } from "../utils/annotate";
import { ApprovalMessage, ArtifactMessage, ErrorMessage, WorkingMessage } from "./Messages";
import { pipelineTurnAdapter } from "./pipelineTurnAdapter";

afterEach(cleanup);
const requirements = agents[0]!;

/** A turn as the pipeline's conversation draws it (its own way, or as every door does). */
function Turn({ turn }: { turn: ConversationTurn }) {
  const notes = annotateConversation({ run: runView(), agents, turns: [turn] });
  const retry = { pending: false, error: null, onRetry: () => undefined };
  const adapter = pipelineTurnAdapter({
    runId: "RUN_1", agents, notes, decidable: true, reveal: null, onSkipToDecision: () => undefined, retry, stuck: false, editBrief: null,
    forkAt: () => { throw new Error("no fork offered here"); },
  });
  return <TurnView turn={turn} notes={notes} adapter={adapter} />;
}

describe("conversation messages", () => {
  it("shows an output with agent name, version and time, and a revision's changes above its content", () => {
    const revision = m.artifact("a2", requirements, 2, envelope(requirementsArtifact, { added: ["Export trip reports as PDF"] }, "Added the PDF export the reviewer asked for."));
    render(<ArtifactMessage turn={revision} agent={requirements} note={{ review: "awaiting_review", superseded: false, isRevision: true }} />);
    const article = screen.getByRole("article", { name: "Requirements output, version 2" });
    expect(within(article).getByRole("heading", { name: "Requirements" })).toBeTruthy();
    expect(within(article).getByText("v2")).toBeTruthy();
    expect(within(article).getByText("Awaiting your review")).toBeTruthy();
    expect(article.querySelector("time")!.getAttribute("datetime")).toBe(revision.at);
    const changes = within(article).getByRole("region", { name: /^What changed in version 2, as .+ tells it$/ });
    expect(changes.textContent).toContain("Export trip reports as PDF");
    expect(changes.textContent).toContain("Added the PDF export the reviewer asked for.");
  });

  it("says \"Awaiting review\", not \"your review\", to someone who may not take the review", () => {
    const first = m.artifact("a1", requirements, 1, envelope(requirementsArtifact));
    render(<ArtifactMessage turn={first} agent={requirements} note={{ review: "awaiting_review", superseded: false, isRevision: false }} decidable={false} />);
    expect(screen.getByText("Awaiting review")).toBeTruthy();
    expect(screen.queryByText(/your review/)).toBeNull();
  });

  it("starts a superseded version collapsed, one click from its content", () => {
    const first = m.artifact("a1", requirements, 1, envelope(requirementsArtifact));
    render(<ArtifactMessage turn={first} agent={requirements} note={{ review: "changes_requested", superseded: true, isRevision: false }} />);
    const toggle = screen.getByRole("button", { name: "Expand Requirements version 1" });
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    expect(screen.queryByRole("heading", { name: "Problem statement" })).toBeNull();
    fireEvent.click(toggle);
    expect(screen.getByRole("heading", { name: "Problem statement" })).toBeTruthy();
  });

  it("shows approvals and rejections with the reviewer's feedback and name as their own turns", () => {
    render(
      <>
        <Turn turn={m.rejection("r1", requirements, "Add PDF export.")} />
        <ApprovalMessage turn={m.approval("p1", requirements, "grace", "Keep the payment section short.")} />
        <ApprovalMessage turn={m.approval("p2", agents[1]!)} />
      </>,
    );
    expect(screen.getByRole("article", { name: "Requested changes to Requirements" }).textContent).toContain("Add PDF export.");
    expect(screen.getByRole("article", { name: "Requested changes to Requirements" }).textContent).toContain("by dana");
    expect(screen.getByRole("article", { name: "Approved Requirements" }).textContent).toContain("by grace");
    // The approval's comment is quoted under it; an approval without one shows none.
    expect(within(screen.getByRole("article", { name: "Approved Requirements" })).getByText("Keep the payment section short.").tagName).toBe("BLOCKQUOTE");
    expect(screen.getByRole("article", { name: "Approved Inception" }).querySelector("blockquote")).toBeNull();
    // An approval recorded without a name says nothing about who gave it.
    expect(screen.getByRole("article", { name: "Approved Inception" }).textContent).not.toContain("by ");
  });

  it("shows a failed agent as an error with a retry action, and no action once it is not the current failure", () => {
    const onRetry = vi.fn();
    const error = m.error("e1", requirements, "the agent at http://agents.local did not answer within 30 s");
    const { rerender } = render(<ErrorMessage turn={error} retry={{ pending: false, error: null, onRetry }} />);
    const alert = screen.getByRole("alert");
    expect(alert.textContent).toContain("Requirements agent failed");
    expect(alert.textContent).toContain("did not answer within 30 s");
    fireEvent.click(screen.getByRole("button", { name: "Retry" }));
    expect(onRetry).toHaveBeenCalledTimes(1);
    rerender(<ErrorMessage turn={error} retry={null} />);
    expect(screen.queryByRole("button", { name: "Retry" })).toBeNull();
  });

  it("shows a working indicator while the agent runs, and a quiet line once it has answered", () => {
    const working = m.working("w1", requirements, true);
    const { rerender } = render(<WorkingMessage turn={working} agent={requirements} live />);
    expect(screen.getByRole("status").textContent).toContain("Requirements is revising after your feedback");
    rerender(<WorkingMessage turn={working} agent={requirements} live={false} />);
    expect(screen.queryByRole("status")).toBeNull();
    expect(screen.getByText(/Requirements agent started a revision/)).toBeTruthy();
  });

  it("ends a cancelled run with a line saying who stopped it and when, and the reason under it", () => {
    const cancelled = m.cancelled("c1", "The client withdrew the brief.", "Ada");
    render(<Turn turn={cancelled} />);
    const note = screen.getByRole("article", { name: "Run cancelled" });
    expect(note.textContent).toContain(`Run cancelled by Ada · ${formatTime(cancelled.at)}`);
    expect(note.querySelector("time")!.getAttribute("datetime")).toBe(cancelled.at);
    expect(within(note).getByText("The client withdrew the brief.")).toBeTruthy();
    expect(within(note).getByText("Reason")).toBeTruthy();
  });

  it("says nothing about who or why when the cancellation was recorded without a name or a reason", () => {
    const cancelled = m.cancelled("c1");
    render(<Turn turn={cancelled} />);
    const note = screen.getByRole("article", { name: "Run cancelled" });
    expect(note.textContent).toBe(`Run cancelled · ${formatTime(cancelled.at)}`);
    expect(within(note).queryByText("Reason")).toBeNull();
  });
});
