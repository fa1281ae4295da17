/**
 * Each kind of flow turn as the conversation shows it: the run's input, a node starting (live while it works) and its
 * output, a failure with Retry or its automatic retry, a Splitter's paths, a gate waiting with its composer (a UX
 * node's input, a review gate's approval or request for changes; kept until sent) or, for anyone who may not decide,
 * who it waits for; the decisions signed; and which turns the run's current nodes make live, answerable or retryable.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SessionProvider } from "../../../lib/session";
import type { FlowConversation, FlowTurn, Role } from "../../../lib/trpc";
import { decision } from "../../../testing/decisions";
import { signedIn } from "../../../testing/people";
import { Conversation } from "../../../components/Conversation";
import type { TurnNode } from "../../../components/turns";
import { annotateFlowTurns } from "../utils/turns";
import type { FlowTurnActions } from "./FlowTurns";
import { flowTurnAdapter } from "./flowTurnAdapter";

afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

const at = "2026-01-15T10:02:00.000Z";
const worker = { node: { id: "draft", label: "Drafter", type: "Worker" } };
const ux = { node: { id: "ask", label: "Topic", type: "UX" } };
const gate = { node: { id: "check", label: "check", type: "UX" } };

/** The envelope's fields a turn sets: none but its kind's body are needed. */
type Envelope = { id?: string; who?: string | null; node?: TurnNode | null; attempt?: number | null };

function turn<K extends FlowTurn["kind"]>(kind: K, body: Extract<FlowTurn, { kind: K }>["body"], envelope: Envelope = {}): FlowTurn {
  // TypeScript cannot narrow a spread over a generic kind; the parameters' types are what check the fields.
  return { id: `t-${kind}`, at, kind, who: null, node: null, attempt: null, ...envelope, body } as unknown as FlowTurn;
}

function actions(overrides: Partial<FlowTurnActions> = {}): FlowTurnActions {
  return {
    runId: "run-1",
    pending: () => null,
    error: () => null,
    complete: vi.fn(async () => true),
    approve: vi.fn(async () => true),
    requestChanges: vi.fn(async () => true),
    retry: vi.fn(),
    decision: () => undefined,
    refused: () => null,
    forkOf: () => null,
    ...overrides,
  };
}

const noNotes = { working: new Set<string>(), awaiting: new Set<string>(), retryable: new Set<string>() };

function renderTurn(item: FlowTurn, options: { notes?: Partial<typeof noNotes>; actions?: FlowTurnActions; role?: Role } = {}) {
  const given = options.actions ?? actions();
  const content: ReactNode = (
    <div role="log">
      <Conversation turns={[item]} notes={{ ...noNotes, ...options.notes }} adapter={flowTurnAdapter(given)} />
    </div>
  );
  const view = render(options.role ? <SessionProvider value={signedIn(options.role)}>{content}</SessionProvider> : content);
  return { given, view };
}

describe("flow turns", () => {
  it("shows the run's input from whoever started it", () => {
    renderTurn(turn("input", { value: { audience: "neighbours" } }, { who: "Alan Analyst" }));
    const input = screen.getByRole("article", { name: "Input" });
    expect(input.textContent).toContain("from Alan Analyst");
    expect(within(input).getByLabelText("The run's input").textContent).toBe('{\n  "audience": "neighbours"\n}');
  });

  it("shows a node starting as a line, live while it works, and a revision after feedback", () => {
    const started = turn("started", { revising: false, feedback: null }, { ...worker, attempt: 2 });
    renderTurn(started);
    expect(screen.getByText(/Drafter started · attempt 2/)).toBeTruthy();
    cleanup();
    renderTurn(started, { notes: { working: new Set([started.id]) } });
    expect(screen.getByRole("article", { name: "Drafter is working" }).textContent).toContain("Drafter is working, attempt 2…");
    cleanup();
    const revision = turn("started", { revising: true, feedback: "Mention the deposit." }, { ...worker, attempt: 3 });
    renderTurn(revision, { notes: { working: new Set([revision.id]) } });
    expect(screen.getByRole("article", { name: "Drafter is revising after the feedback" })).toBeTruthy();
  });

  it("shows a worker's output, text as text and JSON pretty-printed", () => {
    renderTurn(turn("output", { value: { text: "Ladders" } }, { ...worker, attempt: 1 }));
    expect(within(screen.getByRole("article", { name: "Output of Drafter" })).getByLabelText("Output of Drafter").textContent).toBe('{\n  "text": "Ladders"\n}');
    cleanup();
    renderTurn(turn("output", { value: "Plain words" }, { ...worker, attempt: 2 }));
    const output = screen.getByRole("article", { name: "Output of Drafter" });
    expect(output.querySelector(".turn-text")!.textContent).toBe("Plain words");
    expect(within(output).getByText("attempt 2")).toBeTruthy();
  });

  it("shows a failure with Retry while it can be retried, and one that is retried by itself as such", () => {
    const failed = turn("failed", { error: "HTTP 500 from the worker", retrying: false }, { ...worker, attempt: 1 });
    const { given } = renderTurn(failed, { notes: { retryable: new Set([failed.id]) }, role: "operator" });
    const article = screen.getByRole("article", { name: "Drafter failed" });
    expect(article.textContent).toContain("HTTP 500 from the worker");
    fireEvent.click(within(article).getByRole("button", { name: "Retry" }));
    expect(given.retry).toHaveBeenCalledWith("draft");
    cleanup();
    renderTurn(turn("failed", { error: "attempt 1 failed: busy; attempt 2 of 2 in 0 ms", retrying: true }, { ...worker, attempt: 1 }));
    expect(screen.getByRole("article", { name: "Drafter failed" }).textContent).toContain("it is tried again automatically");
    expect(screen.queryByRole("button", { name: "Retry" })).toBeNull();
  });

  it("says how many paths a Splitter fanned out into", () => {
    renderTurn(turn("system", { event: "split", paths: 3 }, { node: { id: "S", label: "Split orders", type: "Splitter" } }));
    expect(screen.getByText(/Split orders split its input into 3 paths/)).toBeTruthy();
  });

  it("asks for a UX node's input with its prompt; the input is sent as JSON, kept until the server accepted it", async () => {
    const waiting = turn("waiting", { gate: "completion", prompt: "What should the draft be about?", reviewed: null, value: null }, ux);
    const complete = vi.fn(async () => false);
    const { given, view } = renderTurn(waiting, { notes: { awaiting: new Set([waiting.id]) }, actions: actions({ complete }), role: "reviewer" });
    expect(screen.getByRole("article", { name: "Topic asks for input" }).textContent).toContain("What should the draft be about?");
    expect(screen.getByText("Awaiting your input")).toBeTruthy();
    const composer = screen.getByRole("region", { name: "Complete Topic" });
    fireEvent.change(within(composer).getByRole("textbox", { name: "Output" }), { target: { value: '{"topic": "ladders"}' } });
    fireEvent.click(within(composer).getByRole("button", { name: "Complete" }));
    expect(given.complete).toHaveBeenCalledWith("ask", { topic: "ladders" });
    // Refused: the text stays, and stays when the page is left and opened again.
    await waitFor(() => expect(complete).toHaveBeenCalledTimes(1));
    view.unmount();
    const accepted = vi.fn(async () => true);
    renderTurn(waiting, { notes: { awaiting: new Set([waiting.id]) }, actions: actions({ complete: accepted }), role: "reviewer" });
    const box = screen.getByRole("textbox", { name: "Output" }) as HTMLTextAreaElement;
    expect(box.value).toBe('{"topic": "ladders"}');
    fireEvent.keyDown(box, { key: "Enter", ctrlKey: true });
    await waitFor(() => expect(box.value).toBe(""));
    expect(accepted).toHaveBeenCalledWith("ask", { topic: "ladders" });
  });

  it("asks for a review with the output under review; Approve approves, Request changes needs and sends feedback", async () => {
    const waiting = turn("waiting", { gate: "review", prompt: null, reviewed: { node_id: "draft", label: "Drafter", output: { text: "Ladders v1" } }, value: { text: "Ladders v1" } }, gate);
    const { given } = renderTurn(waiting, { notes: { awaiting: new Set([waiting.id]) }, role: "operator" });
    const article = screen.getByRole("article", { name: "check asks for a review" });
    expect(within(article).getByLabelText("Output of Drafter under review").textContent).toContain("Ladders v1");
    const review = screen.getByRole("region", { name: "Review check" });
    fireEvent.click(within(review).getByRole("button", { name: "Request changes" }));
    expect(given.requestChanges).not.toHaveBeenCalled();
    fireEvent.change(within(review).getByRole("textbox", { name: "Feedback" }), { target: { value: "Mention the deposit." } });
    fireEvent.click(within(review).getByRole("button", { name: "Request changes" }));
    expect(given.requestChanges).toHaveBeenCalledWith("check", "Mention the deposit.", waiting.id);
    fireEvent.click(within(review).getByRole("button", { name: "Approve" }));
    await waitFor(() => expect(given.approve).toHaveBeenCalledWith("check", waiting.id));
  });

  it("tells an analyst who the gate waits for, since when, in place of the composer, never \"your\"", () => {
    const waiting = turn("waiting", { gate: "completion", prompt: null, reviewed: null, value: null }, ux);
    const rita = decision({ front_door: "flow", node_id: "ask", assignee: { kind: "account", id: "id-rita", name: "Rita Ramos", role: "reviewer" } });
    renderTurn(waiting, { notes: { awaiting: new Set([waiting.id]) }, actions: actions({ decision: (nodeId) => (nodeId === "ask" ? rita : undefined) }), role: "analyst" });
    expect(screen.getByText("Awaiting a person's input")).toBeTruthy();
    expect(screen.getByRole("status", { name: "Waiting for Rita Ramos on Topic" }).textContent).toMatch(/^Waiting for Rita Ramos since /);
    expect(screen.queryByRole("region", { name: "Complete Topic" })).toBeNull();
    expect(document.body.textContent).not.toMatch(/your/i);
  });

  it("offers no composer once the gate was answered", () => {
    renderTurn(turn("waiting", { gate: "completion", prompt: null, reviewed: null, value: { a: 1 } }, ux));
    expect(screen.queryByRole("region", { name: "Complete Topic" })).toBeNull();
    expect(screen.queryByText(/Awaiting/)).toBeNull();
  });

  it("signs each decision, with the feedback or the input given", () => {
    renderTurn(turn("decided", { gate: "review", decision: "request_changes", text: "Mention the deposit.", value: null }, { ...gate, who: "Rita Ramos", id: "d1" }));
    renderTurn(turn("decided", { gate: "review", decision: "approve", text: null, value: null }, { ...gate, who: "Rita Ramos", id: "d2" }));
    renderTurn(turn("decided", { gate: "completion", decision: "complete", text: null, value: { topic: "ladders" } }, { ...ux, id: "d3" }));
    const changes = screen.getByRole("article", { name: "Requested changes to check" });
    expect(changes.querySelector("blockquote")!.textContent).toBe("Mention the deposit.");
    expect(changes.textContent).toContain("by Rita Ramos");
    expect(screen.getByRole("article", { name: "Approved check" }).textContent).toContain("by Rita Ramos");
    const completed = screen.getByRole("article", { name: "Completed Topic" });
    expect(within(completed).getByLabelText("Input given to Topic").textContent).toContain('"topic": "ladders"');
    expect(completed.textContent).not.toContain("by ");
  });
});

describe("what a flow run allows now", () => {
  const conversation = (status: FlowConversation["run"]["status"], nodes: FlowConversation["nodes"], turns: FlowTurn[]): FlowConversation => ({
    run: { id: "run-1", flow_id: "flow-1", flow_name: "drafts", flow_version: 1, status, started_by: null, forked_from: null, forks: [], created_at: at, updated_at: at },
    nodes,
    turns,
  });
  const node = (node_type: "Worker" | "UX" | "Collector", status: FlowConversation["nodes"][string]["status"]) => ({ node_type, label: "x", status, gate: node_type === "UX" ? ("review" as const) : null, input: null });

  it("marks the live start, the answerable wait and the retryable failure from the nodes as they are now", () => {
    const turns = [
      turn("started", { revising: false, feedback: null }, { ...worker, attempt: 1, id: "s1" }),
      turn("waiting", { gate: "review", prompt: null, reviewed: null, value: null }, { ...gate, id: "w1" }),
      turn("decided", { gate: "review", decision: "request_changes", text: "x", value: null }, { ...gate, id: "r1" }),
      turn("waiting", { gate: "review", prompt: null, reviewed: null, value: null }, { ...gate, id: "w2" }),
      turn("started", { revising: false, feedback: null }, { node: { id: "other", label: "Other", type: "Worker" }, attempt: 1, id: "s2" }),
      turn("failed", { error: "x", retrying: false }, { node: { id: "other", label: "Other", type: "Worker" }, attempt: 1, id: "f1" }),
      turn("failed", { error: 'path "T_1" failed', retrying: false }, { node: { id: "C", label: "C", type: "Collector" }, id: "f2" }),
    ];
    const nodes = { draft: node("Worker", "running"), check: node("UX", "waiting_for_user"), other: node("Worker", "failed"), C: node("Collector", "failed") };
    const notes = annotateFlowTurns(conversation("running", nodes, turns));
    expect([...notes.working]).toEqual(["s1"]);
    expect([...notes.awaiting]).toEqual(["w2"]);
    // A collector fails with its path: the path is what is retried.
    expect([...notes.retryable]).toEqual(["f1"]);
    const over = annotateFlowTurns(conversation("cancelled", nodes, turns));
    expect([over.awaiting.size, over.retryable.size]).toEqual([0, 0]);
  });
});

describe("forks in the conversation", () => {
  const parent = "11111111-1111-4111-8111-111111111111";
  const child = "22222222-2222-4222-8222-222222222222";

  it("tells where a fork came from, with the edited input and first feedback, and who forked it", () => {
    renderTurn(turn("system", { event: "forked", from_run_id: parent, value: { facts: ["short"] }, feedback: "a friendlier tone", decided: {} }, { ...worker, who: "Rita Ramos" }));
    const forked = screen.getByRole("article", { name: "Forked from Drafter" });
    expect(forked.textContent).toContain("by Rita Ramos");
    expect(forked.textContent).toContain("a friendlier tone");
    expect(within(forked).getByRole("link", { name: "run 11111111" }).getAttribute("href")).toBe(`/app/flows/runs/${parent}`);
    expect(within(forked).getByLabelText("The edited input of Drafter").textContent).toContain('"short"');
  });

  it("tells a copied node collapsed, its output as the parent had it", () => {
    renderTurn(turn("system", { event: "copied", status: "completed", output: "Ladders are tall.", from_run_id: parent, decided: null }, worker));
    const copied = screen.getByText(/copied ·/).closest("details")!;
    expect(copied.open).toBe(false);
    expect(copied.textContent).toContain("Ladders are tall.");
    // The link to the parent is inside, not in the summary (a link in a summary is an interactive element in another).
    expect(copied.querySelector("summary a")).toBeNull();
    expect(within(copied).getByRole("link", { name: "run 11111111" }).getAttribute("href")).toBe(`/app/flows/runs/${parent}`);
  });

  it("keeps a copied gate decided, saying who decided it, and in which run", () => {
    renderTurn(turn("system", { event: "copied", status: "completed", output: null, from_run_id: parent, decided: { by: "Rita Ramos", decision: "approve", at: "2026-11-29T08:00:00.000Z", run_id: parent } }, { node: { ...worker.node, type: "UX" } }));
    const copied = screen.getByText(/copied ·/).closest("details")!;
    expect(copied.querySelector(".copied-decision")!.textContent).toMatch(/^Approved by Rita Ramos · .+ · decided in run 11111111$/);
  });

  it("tells each fork of the run with links to it and to the comparison", () => {
    renderTurn(turn("system", { event: "forked_into", fork_run_id: child }, { ...worker, who: "Alan Analyst" }));
    expect(screen.getByText(/Forked at Drafter into/).textContent).toContain("by Alan Analyst");
    expect(screen.getByRole("link", { name: "run 22222222" }).getAttribute("href")).toBe(`/app/flows/runs/${child}`);
    // Read "compare"; named for the run it compares with, as in every door's conversation.
    const compare = screen.getByRole("link", { name: "Compare with run 22222222" });
    expect(compare.textContent).toBe("compare");
    expect(compare.getAttribute("href")).toBe(`/app/flows/runs/run-1/compare/${child}`);
  });

  it("offers no re-run on a node where no fork can start", () => {
    renderTurn(turn("output", { value: "x" }, { ...worker, attempt: 1 }), { actions: actions({ forkOf: () => null }) });
    expect(screen.queryByText("Re-run from here")).toBeNull();
  });
});
