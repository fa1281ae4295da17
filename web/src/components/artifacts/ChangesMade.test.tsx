/** A revised version shows what the reviewer's feedback changed and why. */
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { readEnvelope } from "./shape";
import { ChangesMade } from "./ChangesMade";

afterEach(cleanup);

describe("ChangesMade", () => {
  it("lists added, modified and removed items and the justification", () => {
    const envelope = readEnvelope({
      artifact: {},
      changes_made: { added: ["Export trips as PDF"], removed: ["Cash payments"], modified: [{ from: "Book", to: "Book a trip" }] },
      justification: 'Revised in response to "add PDF export".',
    });
    render(<ChangesMade changes={envelope.changes} justification={envelope.justification} title="What changed in version 2" />);
    const region = screen.getByRole("region", { name: "What changed in version 2" });
    expect(region.textContent).toContain("Added");
    expect(screen.getByText("Export trips as PDF")).toBeTruthy();
    expect(screen.getByText("Cash payments")).toBeTruthy();
    expect(screen.getByText("Book a trip")).toBeTruthy();
    expect(screen.getByText('Revised in response to "add PDF export".')).toBeTruthy();
  });

  it("shows the field names agents report as words", () => {
    render(<ChangesMade changes={{ added: ['core_capabilities: CAP-002 "Export trip reports as PDF"'], removed: [], modified: ["problem_statement_refined"] }} justification={null} title="t" />);
    expect(screen.getByText('Core capabilities: CAP-002 "Export trip reports as PDF"')).toBeTruthy();
    expect(screen.getByText("Problem statement refined")).toBeTruthy();
  });

  it("renders nothing when there is nothing to say", () => {
    const { container } = render(<ChangesMade changes={{ added: [], removed: [], modified: [] }} justification={null} title="x" />);
    expect(container.innerHTML).toBe("");
  });

  it("reads content without an envelope as the artifact itself", () => {
    expect(readEnvelope({ epics: [] })).toEqual({ artifact: { epics: [] }, changes: null, justification: null });
  });
});
