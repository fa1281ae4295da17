/** The diff of a revision: what changed, word pieces as <ins>/<del>, unchanged runs folded, any two versions, the agent's claim and where it is wrong. */
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ReviewDiff, ReviewOutput } from "../../../lib/trpc";
import { DiffPanel } from "./DiffPanel";

const useDiff = vi.fn();
vi.mock("../api/review", () => ({ useDiff: (...args: unknown[]) => useDiff(...args) }));

afterEach(cleanup);

const author = { kind: "agent" as const, name: "Requirements", account_id: null };
const output = {
  decision_id: "d-1", format: "artifact", artifact_type: "requirements", output: {}, version: 2, author, claim: null, anchors: [], editable: false, fields: [],
  versions: [
    { version: 1, revises: null, author, created_at: "2026-01-01T10:00:00Z" },
    { version: 2, revises: 1, author, created_at: "2026-01-01T10:05:00Z" },
  ],
} satisfies ReviewOutput;

const longStart = "Riders book trips between two addresses in the city and pay for them with a stored card at the end of each ride";
const diff: ReviewDiff = {
  decision_id: "d-1", from_version: 1, to_version: 2, unchanged: 7, claim: null,
  changes: [
    {
      anchor: "core_capabilities[CAP-001]", label: "Core capabilities › CAP-001", kind: "changed",
      pieces: [{ op: "equal", text: `${longStart} ` }, { op: "delete", text: "weekly" }, { op: "insert", text: "within 3 days" }, { op: "equal", text: "." }],
    },
    { anchor: "core_capabilities[CAP-006]", label: "Core capabilities › CAP-006", kind: "added", pieces: [], after: { id: "CAP-006", name: "Export trip reports as PDF" } },
    { anchor: "assumptions[#2]", label: "Assumptions › item 2", kind: "removed", pieces: [], before: "Riders have a smartphone" },
  ],
  mismatches: [{ kind: "claimed_not_found", subject: "CAP-003", message: "The agent says it modified CAP-003, but CAP-003 is the same in both versions." }],
};

beforeEach(() => {
  useDiff.mockReset();
  useDiff.mockReturnValue({ data: diff, isPending: false, error: null });
});

describe("DiffPanel", () => {
  it("lists each change by its part with inserted and deleted words, folds unchanged text, and says where the agent's claim is wrong", () => {
    render(<DiffPanel decisionId="d-1" output={output} version={2} revises={1} claim={<p>The agent's account</p>} open />);
    const panel = screen.getByRole("region", { name: /^What changed since v1, compared in / });
    expect(within(panel).getByRole("button", { name: "What changed since v1" }).getAttribute("aria-expanded")).toBe("true");
    expect(useDiff).toHaveBeenLastCalledWith("d-1", { against: 1, version: 2 }, true);

    const changes = within(panel).getByRole("list", { name: "Changes from v1 to v2" });
    const [changed, added, removed] = within(changes).getAllByRole("listitem");
    expect(changed!.textContent).toContain("Core capabilities › CAP-001");
    expect(changed!.querySelector("del")!.textContent).toBe("weekly");
    expect(changed!.querySelector("ins")!.textContent).toBe("within 3 days");
    // The long unchanged start is folded to its end.
    expect(changed!.textContent).not.toContain("Riders book trips");
    expect(added!.textContent).toContain("Added");
    expect(added!.querySelector("ins")!.textContent).toBe("CAP-006: Export trip reports as PDF");
    expect(removed!.querySelector("del")!.textContent).toBe("Riders have a smartphone");

    expect(within(panel).getByRole("note").textContent).toBe("The agent says it modified CAP-003, but CAP-003 is the same in both versions.");
    expect(panel.textContent).toContain("The agent's account");

    fireEvent.click(within(panel).getByRole("button", { name: "Show unchanged (7)" }));
    expect(changed!.textContent).toContain("Riders book trips");
    expect(within(panel).getByRole("button", { name: "Hide unchanged" }).getAttribute("aria-pressed")).toBe("true");
  });

  it("compares any two versions, and starts folded on an older version", () => {
    render(<DiffPanel decisionId="d-1" output={{ ...output, version: 3, versions: [...output.versions, { version: 3, revises: 2, author, created_at: "2026-01-01T10:09:00Z" }] }} version={2} revises={1} claim={null} open={false} />);
    const toggle = screen.getByRole("button", { name: "What changed since v1" });
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    expect(useDiff).toHaveBeenLastCalledWith("d-1", { against: 1, version: 2 }, false);
    fireEvent.click(toggle);
    fireEvent.change(screen.getByRole("combobox", { name: "Newer version" }), { target: { value: "3" } });
    expect(useDiff).toHaveBeenLastCalledWith("d-1", { against: 1, version: 3 }, true);
    fireEvent.change(screen.getByRole("combobox", { name: "Older version" }), { target: { value: "3" } });
    expect(screen.getByText("Pick two different versions.")).toBeTruthy();
  });
});
