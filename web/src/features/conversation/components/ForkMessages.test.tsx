/** A fork of a pipeline run as both conversations tell it: where it came from, what it copied, and where it went. */
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { ConversationMessage } from "../../../lib/trpc";
import { agents, envelope, messages as m, requirementsArtifact } from "../../../testing/fixtures";
import { ApprovalMessage, ArtifactMessage, ForkedIntoLine, ForkedMessage } from "./Messages";

afterEach(cleanup);
const [requirements, inception] = [agents[0]!, agents[1]!];
type Of<K extends ConversationMessage["kind"]> = Extract<ConversationMessage, { kind: K }>;

describe("a fork in a pipeline run's conversation", () => {
  it("opens with where it came from, who forked it and the first feedback she gave, linking the parent", () => {
    const forked: Of<"forked"> = {
      kind: "forked", id: "e1", at: "2026-11-29T08:00:00.000Z", agent: inception, node_id: "agent_inception", from_run_id: "RUN_1", actor: "Rita Ramos", feedback: "try a mobile-first scope",
    };
    render(<ForkedMessage message={forked} />);
    const turn = screen.getByRole("article", { name: "Forked from Inception of RUN_1" });
    expect(within(turn).getByRole("link", { name: "RUN_1" }).getAttribute("href")).toBe("/app/runs/RUN_1");
    expect(turn.textContent).toContain("by Rita Ramos");
    expect(turn.textContent).toContain("try a mobile-first scope");
  });

  it("says a copied output's origin and version, and a copied approval's run", () => {
    const copied = { ...(m.artifact("e2", requirements, 2, envelope(requirementsArtifact)) as Of<"artifact">), copied_from: { run_id: "RUN_1", version: 2 } };
    render(<ArtifactMessage message={copied} note={{ review: "approved", superseded: false, isRevision: false, decided: undefined }} />);
    const output = screen.getByRole("article", { name: "Requirements output, version 2" });
    expect(output.textContent).toContain("Copied from RUN_1 v2");
    cleanup();
    const approval = { ...(m.approval("e3", requirements, "Rita Ramos", "good scope") as Of<"approval">), decided_in: "RUN_1" };
    render(<ApprovalMessage message={approval} />);
    const turn = screen.getByRole("article", { name: "Approved Requirements" });
    expect(turn.textContent).toContain("decided in RUN_1");
    expect(within(turn).getByRole("link", { name: "RUN_1" }).getAttribute("href")).toBe("/app/runs/RUN_1");
  });

  it("tells the parent where a fork was made and links it", () => {
    render(<ForkedIntoLine runId="RUN_1" message={{ kind: "forked_into", id: "fork-RUN_2", at: "2026-11-29T08:00:00.000Z", agent: inception, node_id: "review_inception", fork_run_id: "RUN_2", actor: "Rita Ramos" }} />);
    expect(screen.getByText(/Forked at the review of Inception by Rita Ramos into/)).toBeTruthy();
    expect(screen.getByRole("link", { name: "RUN_2" }).getAttribute("href")).toBe("/app/runs/RUN_2");
    expect(screen.getByRole("link", { name: "Compare with RUN_2" }).getAttribute("href")).toBe("/app/runs/RUN_1/compare/RUN_2");
  });
});
