/** The audit trail: entries newest first with who, what, target and outcome; filters sent as typed; older pages on request. */
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AuditFilter } from "../../../lib/trpc";
import { auditEntry } from "../../../testing/people";
import { AuditPage, filterOf, runLink } from "./AuditPage";

const trail = vi.hoisted(() => ({
  filters: [] as unknown[],
  isPending: false,
  isRefetchError: false,
  isFetchNextPageError: false,
  isFetchingNextPage: false,
  hasNextPage: true,
  error: null,
  fetchNextPage: vi.fn(),
  data: { pages: [] as { entries: unknown[]; next_before: number | null }[] },
}));
vi.mock("../api/audit", () => ({
  useAuditTrail: (filter: AuditFilter) => {
    trail.filters.push(filter);
    return trail;
  },
}));

beforeEach(() => {
  trail.filters = [];
  trail.fetchNextPage.mockReset();
  trail.data.pages = [
    {
      entries: [
        auditEntry({ id: 3, action: "pipeline.approve", actor_name: "Anna Analyst", outcome: "refused", status: 403, message: "this needs the reviewer role; you are signed in as an analyst" }),
        auditEntry({ id: 2, action: "pipeline.approve" }),
      ],
      next_before: 2,
    },
  ];
});
afterEach(cleanup);

const people = [
  { id: "a1", name: "Anna Analyst" },
  { id: "r1", name: "Rita Reviewer" },
];

describe("AuditPage", () => {
  it("shows each entry's who, action, target and outcome with its status and message", () => {
    render(<AuditPage people={people} />);
    const rows = within(screen.getByRole("region", { name: "Audit entries" })).getAllByRole("row");
    expect(rows[1]!.textContent).toContain("Anna Analyst");
    expect(rows[1]!.textContent).toContain("Refused · 403");
    expect(rows[1]!.textContent).toContain("this needs the reviewer role");
    expect(rows[2]!.textContent).toContain("Accepted · 200");
    expect(within(rows[2]!).getByRole("link", { name: "RUN_1" }).getAttribute("href")).toBe("/app/runs/RUN_1");
  });

  it("asks with the filters typed, and for older entries on request", () => {
    render(<AuditPage people={people} />);
    fireEvent.change(screen.getByLabelText("Run or target"), { target: { value: " RUN_1 " } });
    fireEvent.change(screen.getByLabelText("Person"), { target: { value: "a1" } });
    fireEvent.change(screen.getByLabelText("Outcome"), { target: { value: "refused" } });
    fireEvent.click(screen.getByRole("button", { name: "Filter" }));
    expect(trail.filters.at(-1)).toEqual({ target: "RUN_1", accountId: "a1", outcome: "refused" });
    fireEvent.click(screen.getByRole("button", { name: "Clear" }));
    expect(trail.filters.at(-1)).toEqual({});
    fireEvent.click(screen.getByRole("button", { name: "Load older entries" }));
    expect(trail.fetchNextPage).toHaveBeenCalledTimes(1);
  });
});

describe("filterOf and runLink", () => {
  it("leaves out what is empty", () => {
    expect(filterOf({ target: " ", accountId: "", action: " pipeline. ", outcome: "" })).toEqual({ action: "pipeline." });
  });

  it("links a run to the page of its front door", () => {
    expect(runLink({ action: "workflows.approve", target_kind: "run", target_id: "W1" })).toBe("/app/workflows/runs/W1");
    expect(runLink({ action: "engine.runs.cancel", target_kind: "run", target_id: "E1" })).toBe("/app/engine/runs/E1");
    expect(runLink({ action: "accounts.invite", target_kind: "account", target_id: "a1" })).toBeNull();
  });
});
