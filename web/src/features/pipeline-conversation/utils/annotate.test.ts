import { describe, expect, it } from "vitest";
import { agents, envelope, requirementsArtifact, runView, turns as m } from "../../../testing/fixtures";
import { annotateConversation } from "./annotate";

const [requirements, inception] = [agents[0]!, agents[1]!];

describe("annotateConversation", () => {
  it("marks a rejected version, its superseding revision awaiting review, and the live working indicator only while the agent works", () => {
    const list = [
      m.brief(),
      m.working("w1", requirements),
      m.artifact("a1", requirements, 1, envelope(requirementsArtifact)),
      m.rejection("r1", requirements, "Add PDF export"),
      m.working("w2", requirements, true),
      m.artifact("a2", requirements, 2, envelope(requirementsArtifact, { added: ["PDF export"] })),
    ];
    const notes = annotateConversation({ run: runView(), agents, turns: list });
    expect(notes.artifacts.get("a1")).toEqual({ review: "changes_requested", superseded: true, isRevision: false, decided: { decision: "request_changes", who: "dana", at: list[3]!.at } });
    expect(notes.artifacts.get("a2")).toEqual({ review: "awaiting_review", superseded: false, isRevision: true });
    expect(notes.awaitingArtifactId).toBe("a2");
    expect([...notes.working]).toEqual([]);
  });

  it("marks approved outputs and shows the next agent working", () => {
    const list = [m.brief(), m.working("w1", requirements), m.artifact("a1", requirements, 1, envelope({})), m.approval("p1", requirements), m.working("w2", inception)];
    const run = runView({ state: { phase: "in_progress", agent: "inception" }, current_agent: inception, is_waiting_for_user: false });
    const notes = annotateConversation({ run, agents, turns: list });
    expect(notes.artifacts.get("a1")!.review).toBe("approved");
    expect(notes.artifacts.get("a1")!.decided).toEqual({ decision: "approve", who: null, at: list[3]!.at });
    expect([...notes.working]).toEqual(["w2"]);
    expect(notes.awaitingArtifactId).toBeNull();
  });

  it("offers retry only on the last error of a failed run", () => {
    const list = [m.brief(), m.working("w1", requirements), m.error("e1", requirements, "agent unreachable")];
    const failed = runView({ state: { phase: "failed", agent: "requirements" }, is_waiting_for_user: false, failure: "agent unreachable" });
    expect([...annotateConversation({ run: failed, agents, turns: list }).retryable]).toEqual(["e1"]);
    const retried = [...list, m.working("w2", requirements)];
    const working = runView({ state: { phase: "in_progress", agent: "requirements" }, is_waiting_for_user: false });
    expect([...annotateConversation({ run: working, agents, turns: retried }).retryable]).toEqual([]);
  });
});
