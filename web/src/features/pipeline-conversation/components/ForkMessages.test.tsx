/** A fork of a pipeline run as both conversations tell it: where it came from, what it copied, and where it went. */
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { agents, envelope, requirementsArtifact, turns as m } from "../../../testing/fixtures";
import { ApprovalMessage, ArtifactMessage, ForkedIntoLine, ForkedMessage, type SystemTurnOf } from "./Messages";

afterEach(cleanup);
const [requirements, inception] = [agents[0]!, agents[1]!];

describe("a fork in a pipeline run's conversation", () => {
  it("opens with where it came from, who forked it and the first feedback she gave, linking the parent", () => {
    const forked: SystemTurnOf<"forked"> = {
      kind: "system", id: "e1", at: "2026-11-29T08:00:00.000Z", who: "Rita Ramos", node: { id: "agent_inception", label: "Inception", type: "agent" }, attempt: null,
      body: { event: "forked", from_run_id: "RUN_1", feedback: "try a mobile-first scope", value: null, decided: {} },
    };
    render(<ForkedMessage turn={forked} agent={inception} />);
    const turn = screen.getByRole("article", { name: "Forked from Inception of RUN_1" });
    expect(within(turn).getByRole("link", { name: "RUN_1" }).getAttribute("href")).toBe("/app/runs/RUN_1");
    expect(turn.textContent).toContain("by Rita Ramos");
    expect(turn.textContent).toContain("try a mobile-first scope");
  });

  it("says a copied output's origin and version, and a copied approval's run", () => {
    const given = m.artifact("e2", requirements, 2, envelope(requirementsArtifact));
    const copied = { ...given, body: { ...given.body, copied_from: { run_id: "RUN_1", version: 2 } } };
    render(<ArtifactMessage turn={copied} agent={requirements} note={{ review: "approved", superseded: false, isRevision: false, decided: undefined }} />);
    const output = screen.getByRole("article", { name: "Requirements output, version 2" });
    expect(output.textContent).toContain("Copied from RUN_1 v2");
    cleanup();
    const decided = m.approval("e3", requirements, "Rita Ramos", "good scope");
    const approval = { ...decided, body: { ...decided.body, decided_in: "RUN_1" } };
    render(<ApprovalMessage turn={approval} />);
    const turn = screen.getByRole("article", { name: "Approved Requirements" });
    expect(turn.textContent).toContain("decided in RUN_1");
    expect(within(turn).getByRole("link", { name: "RUN_1" }).getAttribute("href")).toBe("/app/runs/RUN_1");
  });

  it("tells the parent where a fork was made and links it", () => {
    const into: SystemTurnOf<"forked_into"> = {
      kind: "system", id: "fork-RUN_2", at: "2026-11-29T08:00:00.000Z", who: "Rita Ramos", node: { id: "review_inception", label: "Inception", type: "review" }, attempt: null,
      body: { event: "forked_into", fork_run_id: "RUN_2" },
    };
    render(<ForkedIntoLine runId="RUN_1" turn={into} agent={inception} />);
    expect(screen.getByText(/Forked at the review of Inception by Rita Ramos into/)).toBeTruthy();
    expect(screen.getByRole("link", { name: "RUN_2" }).getAttribute("href")).toBe("/app/runs/RUN_2");
    expect(screen.getByRole("link", { name: "Compare with RUN_2" }).getAttribute("href")).toBe("/app/runs/RUN_1/compare/RUN_2");
  });
});
