/**
 * The inbox lists each decision with what it asks, whose run it is and who may take it, links it to the page where it
 * is decided, and filters by view; an analyst starts on every decision (read-only), a reviewer on those for her role.
 */
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SessionProvider } from "../../../lib/session";
import type { Decision, Role } from "../../../lib/trpc";
import { signedIn } from "../../../testing/people";
import { InboxPage } from "./InboxPage";

const asked = vi.hoisted(() => ({ views: [] as string[], items: [] as unknown[], claimed: [] as unknown[], assigned: [] as unknown[], linked: undefined as unknown }));
vi.mock("../api/decisions", () => ({
  useDecision: (id: string | null) => ({ data: id === "d-linked" ? asked.linked : undefined }),
  useAssignableAccounts: () => ({
    data: [
      { id: "rita", name: "Rita Ramos", role: "reviewer", active: true },
      { id: "ana", name: "Ana Analyst", role: "analyst", active: true },
      { id: "gone", name: "Gone Reviewer", role: "reviewer", active: false },
    ],
  }),
  useAssignDecision: () => ({ mutate: (input: unknown) => asked.assigned.push(input), isPending: false, error: null }),
  useClaimDecision: () => ({
    claim: { mutate: (input: unknown) => asked.claimed.push(["claim", input]), isPending: false, error: null },
    release: { mutate: (input: unknown) => asked.claimed.push(["release", input]), isPending: false, error: null },
  }),
  useDecisions: (view: string) => {
    asked.views.push(view);
    return { isPending: false, isError: false, data: { items: asked.items, next_cursor: null, open_for_me: asked.items.length } };
  },
}));

afterEach(() => {
  cleanup();
  asked.views = [];
  asked.items = [];
  asked.claimed = [];
  asked.assigned = [];
});

const decision = (fields: Partial<Decision>): Decision => ({
  id: "d-1", kind: "review", state: "open", front_door: "pipeline", run_id: "RUN_1", engine_run_id: "e-1", node_id: "review_requirements",
  title: "Review Requirements v2 of tool-library", context: "tool-library", started_by: { id: null, name: "Ana Analyst" },
  waiting_since: new Date(Date.now() - 60_000).toISOString(), due_at: null, assignee: { kind: "role", id: null, name: null, role: "reviewer" },
  approvals_needed: 1, approvals: [], self_approval: false, decidable: true, undecidable: null, on_overdue: null, decided_by: null, decided_at: null, outcome: null, ...fields,
});

const renderAs = (role: Role) => render(<SessionProvider value={signedIn(role)}><InboxPage /></SessionProvider>);

describe("InboxPage", () => {
  it("shows what waits, whose run it is and who may take it, linked to the run's conversation", () => {
    asked.items = [decision({}), decision({ id: "d-2", kind: "completion", front_door: "flow", engine_run_id: "e-2", title: 'Complete "ask" of flow run e-2' })];
    renderAs("reviewer");
    expect(asked.views[0]).toBe("role");
    const link = screen.getByRole("link", { name: "Review Requirements v2 of tool-library" });
    expect(link.getAttribute("href")).toBe("/app/runs/RUN_1");
    expect(screen.getByRole("link", { name: 'Complete "ask" of flow run e-2' }).getAttribute("href")).toBe("/app/flows/runs/e-2");
    expect(screen.getAllByText(/Started by Ana Analyst/)).toHaveLength(2);
    expect(screen.getAllByText(/for any reviewer/)).toHaveLength(2);
  });

  it("a reviewer claims a decision for her role, and releases the one she claimed; one claimed by someone else offers neither", () => {
    asked.items = [
      decision({}),
      decision({ id: "d-2", title: "Mine", assignee: { kind: "account", id: "id-reviewer", name: "Ada reviewer", role: "reviewer" } }),
      decision({ id: "d-3", title: "Theirs", assignee: { kind: "account", id: "someone", name: "Rita", role: "reviewer" } }),
    ];
    renderAs("reviewer");
    fireEvent.click(screen.getByRole("button", { name: "Claim it: Review Requirements v2 of tool-library" }));
    fireEvent.click(screen.getByRole("button", { name: "Release to the team: Mine" }));
    expect(asked.claimed).toEqual([["claim", { decisionId: "d-1" }], ["release", { decisionId: "d-2" }]]);
    expect(screen.queryByRole("button", { name: /Theirs/ })).toBeNull();
    expect(screen.getByText(/for Rita/)).toBeTruthy();
  });

  it("says how a closed decision ended and by whom", () => {
    asked.items = [decision({ state: "decided", outcome: "request_changes", decided_by: "Rita Reviewer", decided_at: new Date().toISOString() })];
    renderAs("reviewer");
    expect(screen.getByText(/Changes requested by Rita Reviewer/)).toBeTruthy();
  });

  it("switches views with pressed buttons, and an analyst starts on every decision", () => {
    renderAs("analyst");
    expect(asked.views[0]).toBe("all");
    fireEvent.click(screen.getByRole("button", { name: "Decided by me" }));
    expect(screen.getByRole("button", { name: "Decided by me" }).getAttribute("aria-pressed")).toBe("true");
    expect(asked.views.at(-1)).toBe("decided");
    expect(screen.getByText("Nothing decided yet")).toBeTruthy();
  });

  it("an operator hands a decision to an active person whose role covers it, or to a role; the button says to whom", () => {
    asked.items = [decision({ due_at: new Date(Date.now() - 60_000).toISOString() })];
    renderAs("operator");
    const select = screen.getByLabelText('Assign "Review Requirements v2 of tool-library" to') as HTMLSelectElement;
    expect([...select.options].map((o) => o.text)).toEqual(["Choose someone…", "Rita Ramos (reviewer)", "Every operator"]);
    expect(screen.getByRole("button", { name: "Assign" }).hasAttribute("disabled")).toBe(true);
    fireEvent.change(select, { target: { value: "account:rita" } });
    fireEvent.click(screen.getByRole("button", { name: "Assign to Rita Ramos" }));
    expect(asked.assigned).toEqual([{ decisionId: "d-1", to: { account_id: "rita" } }]);
    expect(screen.getByText("overdue since")).toBeTruthy();
  });

  it("a decision that needs two approvers says how many it has and offers only roles to assign", () => {
    asked.items = [decision({ approvals_needed: 2, approvals: [{ by: "Rita Ramos", at: new Date().toISOString() }] })];
    renderAs("operator");
    expect(screen.getByText(/1 of 2 approvals: approved by Rita Ramos/)).toBeTruthy();
    const select = screen.getByLabelText('Assign "Review Requirements v2 of tool-library" to') as HTMLSelectElement;
    expect([...select.options].map((o) => o.text)).toEqual(["Choose someone…", "Every operator"]);
  });

  it("a reviewer is offered no assignment", () => {
    asked.items = [decision({})];
    renderAs("reviewer");
    expect(screen.queryByLabelText(/Assign/)).toBeNull();
  });

  it("offers a reviewer \"Turn on notifications\", asking the browser only when clicked; an analyst, and a browser without notifications, get none", async () => {
    let permission: NotificationPermission = "default";
    const requestPermission = vi.fn(async () => (permission = "granted"));
    vi.stubGlobal("Notification", Object.defineProperty(Object.assign(vi.fn(), { requestPermission }), "permission", { get: () => permission }));
    try {
      renderAs("reviewer");
      expect(requestPermission).not.toHaveBeenCalled();
      fireEvent.click(screen.getByRole("button", { name: "Turn on notifications" }));
      await waitFor(() => expect(screen.getByRole("button", { name: "Turn off notifications" })).toBeTruthy());
      expect(requestPermission).toHaveBeenCalledTimes(1);
      fireEvent.click(screen.getByRole("button", { name: "Turn off notifications" }));
      expect(screen.getByRole("button", { name: "Turn on notifications" })).toBeTruthy();
      cleanup();
      renderAs("analyst");
      expect(screen.queryByRole("button", { name: "Turn on notifications" })).toBeNull();
    } finally {
      vi.unstubAllGlobals();
      localStorage.clear();
    }
    cleanup();
    renderAs("reviewer");
    expect(screen.queryByRole("button", { name: "Turn on notifications" })).toBeNull();
  });

  it("a notification's link (?decision=<id>) opens the page where that decision is taken", () => {
    asked.linked = decision({ id: "d-linked", front_door: "yaml", run_id: "wf-run-1" });
    window.history.replaceState(null, "", "/app/reviews?decision=d-linked");
    renderAs("reviewer");
    expect(window.location.pathname).toBe("/app/workflows/runs/wf-run-1");
    window.history.replaceState(null, "", "/");
  });
});
