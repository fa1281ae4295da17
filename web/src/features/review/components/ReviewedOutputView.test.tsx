/**
 * An output under review in a conversation: each part's comment button opens a comment box kept while typing and
 * stored at once; threads show under their part with author, state and the versions they concern; who may resolve
 * does; edit is offered only to whoever may decide; an older version is shown as it is.
 */
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ArtifactView } from "../../../components/artifacts/ArtifactView";
import { SessionProvider } from "../../../lib/session";
import type { Me, ReviewComment, ReviewOutput } from "../../../lib/trpc";
import { decision } from "../../../testing/decisions";
import { requirementsArtifact } from "../../../testing/fixtures";
import { ReviewedOutputView } from "./ReviewedOutputView";

const add = { mutateAsync: vi.fn(), isPending: false, error: null };
const resolve = { mutate: vi.fn(), isPending: false, error: null };
const state: { output: ReviewOutput; comments: ReviewComment[] } = { output: undefined as never, comments: [] };
vi.mock("../api/review", () => ({
  useTargetDecision: () => ({ decision: decision({ id: "d-1" }), refresh: vi.fn() }),
  useReviewOutput: () => ({ data: state.output, refetch: vi.fn() }),
  useComments: () => ({ data: { items: state.comments } }),
  useAddComment: () => add,
  useResolveComment: () => resolve,
  useReopenComment: () => resolve,
  useDiff: () => ({ data: undefined, isPending: true, error: null }),
  useEditOutput: () => ({ mutateAsync: vi.fn(), isPending: false, error: null }),
  useEditCheck: () => null,
}));

afterEach(() => {
  cleanup();
  window.sessionStorage.clear();
});

const author = { kind: "agent" as const, name: "Requirements", account_id: null };
const part = (anchor: string, label: string, quote = "") => ({ anchor, label, quote });
function reviewOutput(fields: Partial<ReviewOutput> = {}): ReviewOutput {
  return {
    decision_id: "d-1", format: "artifact", artifact_type: "requirements", output: requirementsArtifact, version: 1, author, claim: null, editable: false, fields: [],
    versions: [{ version: 1, revises: null, author, created_at: "2026-01-01T10:00:00Z" }],
    anchors: [
      part("problem_statement_refined", "Problem statement refined", requirementsArtifact.problem_statement_refined),
      part("core_capabilities", "Core capabilities"),
      part("core_capabilities[CAP-001]", "Core capabilities › CAP-001", "CAP-001: Book a trip"),
      part("core_capabilities[CAP-002]", "Core capabilities › CAP-002", "CAP-002: Pay in app"),
    ],
    ...fields,
  };
}
function comment(fields: Partial<ReviewComment>): ReviewComment {
  return {
    id: "c-1", decision_id: "d-1", version: 1, anchor: "core_capabilities[CAP-001]", label: "Core capabilities › CAP-001", quote: "CAP-001: Book a trip", text: "Limit it to 3 days.",
    reply_to: null, author: { id: "a-rita", name: "Rita Ramos" }, created_at: "2026-01-01T10:01:00Z", resolved: false, resolved_by: null, outdated: false, changed: false,
    current_anchor: "core_capabilities[CAP-001]", sent_with_version: null, ...fields,
  };
}
const me = (fields: Partial<Me>): Me => ({ id: "a-ana", name: "Ana Analyst", email: "ana@example.com", role: "analyst", ...fields }) as Me;

function renderOutput(props: { version?: number; signedIn?: Me } = {}) {
  const view = (
    <ReviewedOutputView target={{ runId: "RUN_1", nodeId: "review_requirements", version: props.version ?? 1 }}>
      <ArtifactView artifactType="requirements" artifact={requirementsArtifact} />
    </ReviewedOutputView>
  );
  return render(props.signedIn ? <SessionProvider value={props.signedIn}>{view}</SessionProvider> : view);
}

beforeEach(() => {
  state.output = reviewOutput();
  state.comments = [];
  add.mutateAsync.mockReset();
  resolve.mutate.mockReset();
});

describe("ReviewedOutputView", () => {
  it("comments on a part: the box is focused, keeps its text while typing, and is stored at once", async () => {
    add.mutateAsync.mockResolvedValue({});
    renderOutput();
    fireEvent.click(screen.getByRole("button", { name: "Comment on CAP-001" }));
    const box = screen.getByRole("textbox", { name: "Comment on CAP-001" });
    expect(document.activeElement).toBe(box);
    fireEvent.change(box, { target: { value: "Limit it to 3 days." } });
    expect(Object.values({ ...window.sessionStorage })).toContain("Limit it to 3 days.");

    fireEvent.click(screen.getByRole("button", { name: "Add comment" }));
    await vi.waitFor(() => expect(screen.queryByRole("textbox", { name: "Comment on CAP-001" })).toBeNull());
    expect(add.mutateAsync).toHaveBeenCalledWith({ decisionId: "d-1", body: { anchor: "core_capabilities[CAP-001]", text: "Limit it to 3 days." } });
    expect(window.sessionStorage.length).toBe(0);
  });

  it("keeps the text when the server refuses it, and refuses an empty comment without asking", async () => {
    add.mutateAsync.mockRejectedValue(new Error("the decision is closed"));
    renderOutput();
    fireEvent.click(screen.getByRole("button", { name: "Comment on Problem statement" }));
    fireEvent.click(screen.getByRole("button", { name: "Add comment" }));
    expect(screen.getByRole("alert").textContent).toBe("Write the comment first.");
    expect(add.mutateAsync).not.toHaveBeenCalled();
    fireEvent.change(screen.getByRole("textbox", { name: "Comment on Problem statement" }), { target: { value: "Name the city." } });
    fireEvent.click(screen.getByRole("button", { name: "Add comment" }));
    await vi.waitFor(() => expect(add.mutateAsync).toHaveBeenCalled());
    expect((screen.getByRole("textbox", { name: "Comment on Problem statement" }) as HTMLTextAreaElement).value).toBe("Name the city.");
  });

  it("shows threads under their part with their replies and state; an analyst who did not write it may not resolve it", () => {
    state.output = reviewOutput({ version: 2, versions: [...reviewOutput().versions, { version: 2, revises: 1, author, created_at: "2026-01-01T10:05:00Z" }] });
    state.comments = [
      comment({ sent_with_version: 1, changed: true }),
      comment({ id: "c-2", reply_to: "c-1", text: "Agreed.", author: { id: "a-ana", name: "Ana Analyst" } }),
      comment({ id: "c-3", anchor: "assumptions[#3]", label: "Assumptions › item 3", current_anchor: null, outdated: true, resolved: true, resolved_by: "Rita Ramos", text: "Gone now." }),
    ];
    renderOutput({ version: 2, signedIn: me({}) });
    const thread = screen.getByRole("article", { name: "Comment by Rita Ramos on Core capabilities › CAP-001" });
    expect(thread.textContent).toContain("Limit it to 3 days.");
    expect(thread.textContent).toContain("Agreed.");
    expect(thread.textContent).toContain("Sent with v1");
    expect(thread.textContent).toContain("Changed in v2");
    expect(thread.textContent).toContain("On v1");
    expect(within(thread).queryByRole("button", { name: /^Resolve/ })).toBeNull();
    expect(within(thread).getByRole("button", { name: "Reply to Rita Ramos on Core capabilities › CAP-001" })).toBeTruthy();

    const gone = screen.getByRole("region", { name: "Comments on parts that are gone" });
    expect(gone.textContent).toContain("Outdated");
    expect(gone.textContent).toContain("Resolved by Rita Ramos");
    expect(screen.getByText("1 open comment")).toBeTruthy();
  });

  it("lets a reviewer resolve a thread, and offers Edit only when the output is hers to edit", () => {
    state.comments = [comment({})];
    state.output = reviewOutput({ editable: true });
    renderOutput({ signedIn: me({ id: "a-rex", name: "Rex Reviewer", role: "reviewer" }) });
    fireEvent.click(screen.getByRole("button", { name: "Resolve Rita Ramos's comment on Core capabilities › CAP-001" }));
    expect(resolve.mutate).toHaveBeenCalledWith({ commentId: "c-1" });
    fireEvent.click(screen.getByRole("button", { name: "Edit v1" }));
    expect(screen.getByRole("region", { name: "Edit version 1" })).toBeTruthy();
    cleanup();

    state.output = reviewOutput({ editable: false });
    renderOutput();
    expect(screen.queryByRole("button", { name: /^Edit/ })).toBeNull();
  });

  it("shows an older version as it is: no comment buttons, no threads", () => {
    state.output = reviewOutput({ version: 2, versions: [...reviewOutput().versions, { version: 2, revises: 1, author, created_at: "2026-01-01T10:05:00Z" }] });
    state.comments = [comment({})];
    renderOutput({ version: 1 });
    expect(screen.queryAllByRole("button", { name: /^Comment on/ })).toEqual([]);
    expect(screen.queryByRole("article")).toBeNull();
  });
});
