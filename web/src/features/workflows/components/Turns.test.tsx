/**
 * Each kind of workflow turn as the conversation shows it: outputs (text, JSON, code) with their label and the
 * offline responder's badge, a skipped node folded with its reason, a failure with Retry, an approval waiting with
 * Approve and Request changes, an interactive loop's reply box, the person's decisions, the cancellation and the outcome.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SessionProvider } from "../../../lib/session";
import { decision } from "../../../testing/decisions";
import { signedIn } from "../../../testing/people";
import { decidedBody, node, nodeRun, outputBody, turn } from "../../../testing/workflows";
import type { WorkflowTurn } from "../../../lib/trpc";
import { Conversation } from "../../../components/Conversation";
import { annotateTurns } from "../../../components/turns";
import { isResumable, isWorkflowRunOver } from "../utils/turns";
import type { TurnActions } from "./Turns";
import { yamlTurnAdapter } from "./yamlTurnAdapter";

afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

function actions(overrides: Partial<TurnActions> = {}): TurnActions {
  return {
    pending: () => null,
    error: () => null,
    approve: vi.fn(async () => true),
    reject: vi.fn(async () => true),
    reply: vi.fn(async () => true),
    retry: vi.fn(),
    decision: () => undefined,
    refused: () => null,
    ...overrides,
  };
}

const noNotes = { working: new Set<string>(), awaiting: new Set<string>(), retryable: new Set<string>() };

const drawn = (item: WorkflowTurn, notes: Partial<typeof noNotes>, given: TurnActions) => (
  <Conversation turns={[item]} notes={{ ...noNotes, ...notes }} adapter={yamlTurnAdapter("RUN_1", given)} />
);

function renderTurn(item: WorkflowTurn, options: { notes?: Partial<typeof noNotes>; actions?: TurnActions } = {}) {
  const given = options.actions ?? actions();
  render(<div role="log">{drawn(item, options.notes ?? {}, given)}</div>);
  return given;
}

const waitingFor = (id: string, type: "approval" | "loop", prompt: string, fields: { on_reject?: "revise" | "cancel" | null; value?: string | null } = {}) =>
  turn({ kind: "waiting", node: node(id, type), body: { gate: type === "approval" ? "approval" : "reply", prompt, value: null, on_reject: type === "approval" ? "revise" : null, ...fields } });

describe("workflow turns", () => {
  it("shows an output under its node, kind and output_type, with the offline responder's badge", () => {
    renderTurn(turn({ kind: "output", node: node("draft", "prompt"), body: outputBody("Release notes\n\n- Faster booking", { responder: "offline", output_type: "release-notes" }) }));
    const output = screen.getByRole("article", { name: "Output of draft" });
    expect(within(output).getByRole("heading", { name: "draft" })).toBeTruthy();
    expect(within(output).getByText("prompt")).toBeTruthy();
    expect(within(output).getByText("release-notes")).toBeTruthy();
    expect(within(output).getByText("offline responder")).toBeTruthy();
    // Markdown-ish text keeps its lines.
    expect(output.querySelector(".turn-text")!.textContent).toBe("Release notes\n\n- Faster booking");
  });

  it("names the model instead of the badge when an LLM answered", () => {
    renderTurn(turn({ kind: "output", node: node("draft", "prompt"), body: outputBody("Notes", { responder: "llm", model: "gpt-test" }) }));
    expect(screen.queryByText("offline responder")).toBeNull();
    expect(screen.getByText("gpt-test")).toBeTruthy();
  });

  it("pretty-prints an output that is JSON, and shows fenced code and a bash node's output in monospace", () => {
    renderTurn(turn({ kind: "output", node: node("score", "prompt"), body: outputBody('{"severity":"high","owners":["ops"]}') }));
    expect(screen.getByRole("article", { name: "Output of score" }).querySelector("pre.turn-json code")!.textContent).toBe(
      '{\n  "severity": "high",\n  "owners": [\n    "ops"\n  ]\n}',
    );
    cleanup();
    renderTurn(turn({ kind: "output", node: node("plan", "prompt"), body: outputBody("Run this:\n```sh\nnpm test\n```\nThen ship.") }));
    const plan = screen.getByRole("article", { name: "Output of plan" });
    expect(within(plan).getByLabelText("Output of plan, code").textContent).toBe("npm test");
    expect([...plan.querySelectorAll(".turn-text")].map((p) => p.textContent)).toEqual(["Run this:", "Then ship."]);
    cleanup();
    renderTurn(turn({ kind: "output", node: node("ls", "bash"), body: outputBody("a.txt\nb.txt") }));
    expect(screen.getByRole("article", { name: "Output of ls" }).querySelector("pre.turn-code code")!.textContent).toBe("a.txt\nb.txt");
  });

  it("labels a loop iteration and a revision after feedback", () => {
    renderTurn(turn({ kind: "output", node: node("refine", "loop"), attempt: 2, body: outputBody("Better.", { iteration: 2, prompt: "Refine it", responder: "offline" }) }));
    expect(within(screen.getByRole("article", { name: "refine, iteration 2" })).getByText("iteration 2")).toBeTruthy();
    cleanup();
    renderTurn(turn({ kind: "output", node: node("style", "approval"), body: outputBody("Shorter notes.", { feedback: "Shorter, please" }) }));
    expect(screen.getByRole("article", { name: "Output of style" }).textContent).toContain("Revised after the feedback");
  });

  it("shows a node starting as a line, or as a live turn while it is at work", () => {
    const started = turn({ kind: "started", node: node("draft", "prompt"), attempt: 2, body: { revising: false, feedback: null } });
    renderTurn(started);
    expect(screen.getByText(/draft \(prompt\) started · attempt 2/)).toBeTruthy();
    cleanup();
    renderTurn(started, { notes: { working: new Set([started.id]) } });
    expect(screen.getByRole("article", { name: "draft is running" }).textContent).toContain("draft (prompt) is running, attempt 2…");
  });

  it("folds a skipped node, its reason one click away", () => {
    renderTurn(turn({ kind: "skipped", node: node("translate", "prompt"), body: { reason: "when: $draft.output == 'never' was false" } }));
    const details = screen.getByText(/translate \(prompt\) skipped/).closest("details")!;
    expect(details.open).toBe(false);
    fireEvent.click(details.querySelector("summary")!);
    expect(details.open).toBe(true);
    expect(details.textContent).toContain("when: $draft.output == 'never' was false");
  });

  it("shows a failure with its error, and Retry only while the node can be retried", () => {
    const failed = turn({ kind: "failed", node: node("publish", "command"), body: { error: 'command "publish": no file commands/publish.md', retrying: false } });
    const given = renderTurn(failed, { notes: { retryable: new Set([failed.id]) } });
    const article = screen.getByRole("article", { name: "publish failed" });
    expect(article.textContent).toContain('command "publish": no file commands/publish.md');
    fireEvent.click(within(article).getByRole("button", { name: "Retry" }));
    expect(given.retry).toHaveBeenCalledWith("publish");
    cleanup();
    renderTurn(failed);
    expect(screen.queryByRole("button", { name: "Retry" })).toBeNull();
  });

  it("says why a retry was refused", () => {
    const failed = turn({ kind: "failed", node: node("publish", "command"), body: { error: "boom", retrying: false } });
    renderTurn(failed, { notes: { retryable: new Set([failed.id]) }, actions: actions({ error: () => new Error("run RUN_1 is cancelled") }) });
    expect(screen.getAllByRole("alert").map((alert) => alert.textContent)).toContain("run RUN_1 is cancelled");
  });

  it("asks for approval with the node's message; Approve sends the feedback as a comment, Request changes as the reason", async () => {
    const waiting = waitingFor("legal", "approval", "Legal sign-off for: the notes");
    const given = renderTurn(waiting, { notes: { awaiting: new Set([waiting.id]) } });
    expect(screen.getByRole("article", { name: "legal asks for approval" }).textContent).toContain("Legal sign-off for: the notes");
    const review = screen.getByRole("region", { name: "Review legal" });
    const feedback = within(review).getByRole("textbox", { name: "Feedback" }) as HTMLTextAreaElement;
    fireEvent.change(feedback, { target: { value: "  Cleared.  " } });
    fireEvent.click(within(review).getByRole("button", { name: "Approve" }));
    expect(given.approve).toHaveBeenCalledWith("legal", "Cleared.", waiting.id);
    fireEvent.change(feedback, { target: { value: "Remove the pricing line." } });
    fireEvent.click(within(review).getByRole("button", { name: "Request changes" }));
    expect(given.reject).toHaveBeenCalledWith("legal", "Remove the pricing line.", waiting.id);
    await waitFor(() => expect(feedback.value).toBe(""));
  });

  it("where rejecting cancels the run, says so on the button and confirms first", () => {
    const waiting = waitingFor("legal", "approval", "Sign off?", { on_reject: "cancel" });
    const given = renderTurn(waiting, { notes: { awaiting: new Set([waiting.id]) } });
    const review = screen.getByRole("region", { name: "Review legal" });
    fireEvent.change(within(review).getByRole("textbox", { name: "Feedback" }), { target: { value: "Not cleared." } });
    fireEvent.click(within(review).getByRole("button", { name: "Reject and cancel run" }));
    expect(given.reject).not.toHaveBeenCalled();
    fireEvent.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Reject and cancel run" }));
    expect(given.reject).toHaveBeenCalledWith("legal", "Not cleared.", waiting.id);
  });

  it("keeps a decision refused because someone decided first on a card under the wait, with the text", () => {
    const waiting = waitingFor("legal", "approval", "Sign off?");
    const refused = { action: "reject" as const, text: "Not cleared.", message: 'node "legal" is completed; it is not waiting for approval', target: waiting.id, draftKey: null };
    renderTurn(waiting, { actions: actions({ refused: (id) => (id === waiting.id ? { refused, change: "Rita Ramos approved legal.", onDiscard: vi.fn(), resend: null } : null) }) });
    const card = screen.getByRole("region", { name: "Your request for changes on legal was not sent" });
    expect(card.textContent).toContain("Rita Ramos approved legal.");
    expect((within(card).getByRole("textbox", { name: "Your text, kept" }) as HTMLTextAreaElement).value).toBe("Not cleared.");
    expect(within(card).queryByRole("button", { name: "Send against the new version" })).toBeNull();
  });

  it("offers to send a refused decision against the node's new version once it waits again", () => {
    const waiting = waitingFor("legal", "approval", "Sign off?");
    const refused = { action: "reject" as const, text: "Name the clause.", message: 'node "legal" is running; it is not waiting for approval', target: waiting.id, draftKey: null };
    const onSend = vi.fn();
    const resend = { label: "Send against the new version", consequence: "Sends this request for changes on legal as it waits now.", pending: false, error: null, onSend };
    renderTurn(waiting, { actions: actions({ refused: (id) => (id === waiting.id ? { refused, change: "Rita Ramos rejected legal.", onDiscard: vi.fn(), resend } : null) }) });
    const card = screen.getByRole("region", { name: "Your request for changes on legal was not sent" });
    expect(card.textContent).toContain("Sends this request for changes on legal as it waits now.");
    fireEvent.click(within(card).getByRole("button", { name: "Send against the new version" }));
    expect(onSend).toHaveBeenCalledOnce();
  });

  it("tells an analyst who the approval waits for, in place of the composer, and never \"your review\"", () => {
    const waiting = waitingFor("legal", "approval", "Sign off?");
    const rita = decision({ front_door: "yaml", node_id: "legal", assignee: { kind: "account", id: "id-rita", name: "Rita Ramos", role: "reviewer" } });
    render(
      <SessionProvider value={signedIn("analyst")}>
        {drawn(waiting, { awaiting: new Set([waiting.id]) }, actions({ decision: () => rita }))}
      </SessionProvider>,
    );
    expect(screen.getByText("Awaiting review")).toBeTruthy();
    expect(screen.getByRole("status", { name: "Waiting for Rita Ramos on legal" }).textContent).toMatch(/^Waiting for Rita Ramos since /);
    expect(screen.queryByRole("region", { name: "Review legal" })).toBeNull();
  });

  it("offers no composer once the approval was answered, and shows a refused decision", () => {
    const waiting = waitingFor("legal", "approval", "Sign off?");
    renderTurn(waiting);
    expect(screen.queryByRole("region", { name: "Review legal" })).toBeNull();
    cleanup();
    renderTurn(waiting, { notes: { awaiting: new Set([waiting.id]) }, actions: actions({ error: () => new Error('node "legal" is completed; it is not waiting for approval') }) });
    expect(screen.getByRole("alert").textContent).toContain("Your decision was not recorded");
  });

  it("asks an interactive loop's question with a reply box", async () => {
    const waiting = waitingFor("interview", "loop", "Anything to add?", { value: "Draft 1" });
    const given = renderTurn(waiting, { notes: { awaiting: new Set([waiting.id]) } });
    expect(screen.getByRole("article", { name: "interview asks for a reply" }).textContent).toContain("Anything to add?");
    const composer = screen.getByRole("region", { name: "Reply to interview" });
    fireEvent.click(within(composer).getByRole("button", { name: "Send reply" }));
    expect(given.reply).not.toHaveBeenCalled();
    expect(within(composer).getByRole("alert").textContent).toBe("Write a reply before sending it.");
    fireEvent.change(within(composer).getByRole("textbox", { name: "Reply" }), { target: { value: "Add the pricing table." } });
    fireEvent.click(within(composer).getByRole("button", { name: "Send reply" }));
    expect(given.reply).toHaveBeenCalledWith("interview", "Add the pricing table.");
  });

  it("shows the person's decisions and replies, signed, with their words", () => {
    renderTurn(turn({ kind: "decided", node: node("legal", "approval"), who: "Dana", body: decidedBody("approve", "Cleared.") }));
    renderTurn(turn({ kind: "decided", node: node("style", "approval"), who: "Dana", body: decidedBody("request_changes", "Shorter, please.") }));
    renderTurn(turn({ kind: "decided", node: node("interview", "loop"), body: decidedBody("answer", "Add pricing.") }));
    expect(screen.getByRole("article", { name: "Approved legal" }).textContent).toContain("by Dana");
    expect(screen.getByRole("article", { name: "Requested changes to style" }).textContent).toContain("Shorter, please.");
    expect(screen.getByRole("article", { name: "Replied to interview" }).textContent).not.toContain("by ");
  });

  it("names an approval that passed on the reviewer's edits", () => {
    renderTurn(turn({ kind: "decided", node: node("legal", "approval"), who: "Dana", body: decidedBody("approve", null, { edited: true }) }));
    expect(screen.getByRole("article", { name: "Approved legal with the reviewer's edits" }).textContent).toContain("by Dana");
  });

  it("ends with the cancellation's reason, and the outcome", () => {
    renderTurn(turn({ kind: "outcome", who: "Dana", body: { status: "cancelled", reason: "rejected at style: too long" } }));
    const cancelled = screen.getByRole("article", { name: "Run cancelled" });
    expect(cancelled.textContent).toContain("Run cancelled by Dana");
    expect(cancelled.textContent).toContain("rejected at style: too long");
    renderTurn(turn({ kind: "outcome", body: { status: "failed", reason: null } }));
    expect(screen.getByText(/Run failed/).closest("p")!.className).toContain("system-line-failed");
  });
});

describe("what a run allows now", () => {
  it("marks the live start, the answerable wait and the retryable failure from the nodes as they are now", () => {
    const turns = [
      turn({ kind: "started", id: "s1", node: node("draft", "prompt"), body: { revising: false, feedback: null } }),
      turn({ kind: "failed", id: "f1", node: node("draft", "prompt"), body: { error: "timeout", retrying: true } }),
      { ...waitingFor("style", "approval", "Sign off?"), id: "w1" },
      turn({ kind: "decided", id: "r1", node: node("style", "approval"), body: decidedBody("request_changes", "Shorter.") }),
      { ...waitingFor("style", "approval", "Sign off?"), id: "w2" },
      turn({ kind: "started", id: "s2", node: node("publish", "command"), body: { revising: false, feedback: null } }),
      turn({ kind: "failed", id: "f2", node: node("publish", "command"), body: { error: "no file", retrying: false } }),
    ];
    const nodes = { draft: nodeRun({ status: "running" }), style: nodeRun({ kind: "approval", status: "waiting_for_user" }), publish: nodeRun({ kind: "command", status: "failed" }) };
    const notes = annotateTurns(turns, nodes, isWorkflowRunOver("waiting_for_user"));
    expect([...notes.working]).toEqual(["s1"]);
    expect([...notes.awaiting]).toEqual(["w2"]);
    expect([...notes.retryable]).toEqual(["f2"]);
    // Nothing can be answered or retried once the run is cancelled.
    const over = annotateTurns([...turns, turn({ kind: "outcome", id: "o1", body: { status: "cancelled", reason: null } })], nodes, isWorkflowRunOver("cancelled"));
    expect([over.awaiting.size, over.retryable.size]).toEqual([0, 0]);
  });

  it("offers Resume on a failed run and on one a rejected approval cancelled, and on no other", () => {
    expect(isResumable({ status: "failed", cancel_reason: null })).toBe(true);
    expect(isResumable({ status: "cancelled", cancel_reason: "rejected at style: too long" })).toBe(true);
    expect(isResumable({ status: "cancelled", cancel_reason: "The client withdrew" })).toBe(false);
    expect(isResumable({ status: "waiting_for_user", cancel_reason: null })).toBe(false);
  });
});

describe("a forked workflow run", () => {
  it("opens with where it was forked from, linked, and says what was copied", () => {
    const from = "33333333-3333-4333-8333-333333333333";
    renderTurn(turn({ kind: "system", node: node("review", "approval"), who: "Rita Ramos", body: { event: "forked", from_run_id: from, feedback: null, value: null, decided: {}, copied: ["draft"] } }));
    const line = screen.getByText(/Forked at review/);
    expect(line.textContent).toContain("the nodes before it were copied from it, not run again");
    expect(line.textContent).toContain("by Rita Ramos");
    expect(screen.getByRole("link", { name: "run 33333333" }).getAttribute("href")).toBe(`/app/workflows/runs/${from}`);
  });

  it("names the decisions the fork kept, each linked to the run it was taken in", () => {
    const first = "11111111-1111-4111-8111-111111111111";
    const decided = { legal: { by: "Rita Ramos", decision: "approve" as const, at: "2026-05-04T09:00:00.000Z", run_id: first }, style: { by: null, decision: "request_changes" as const, at: "2026-05-04T09:00:00.000Z", run_id: first } };
    renderTurn(turn({ kind: "system", node: node("publish", "command"), body: { event: "forked", from_run_id: first, feedback: null, value: null, decided, copied: ["legal", "style"] } }));
    expect([...document.querySelectorAll(".copied-decision")].map((span) => span.textContent)).toEqual([
      " · legal approved by Rita Ramos, decided in run 11111111",
      " · style request changes, decided in run 11111111",
    ]);
  });

  it("offers no re-run where the run offers no forks", () => {
    renderTurn(turn({ kind: "output", node: node("draft", "bash"), body: outputBody("plan") }));
    expect(screen.queryByText("Re-run from here")).toBeNull();
  });
});
