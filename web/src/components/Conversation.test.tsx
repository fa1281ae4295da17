/** The one conversation: "Re-run from here" goes under a node's output, failure and wait, not under a person's decision. */
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WithTrpc } from "../testing/WithTrpc";
import { type ConversationAdapter, Conversation } from "./Conversation";
import type { CommonTurn } from "./turns";

afterEach(cleanup);

const node = { id: "legal", label: "legal", type: "approval" };
const at = "2026-11-29T10:00:00.000Z";
const notes = { working: new Set<string>(), awaiting: new Set<string>(), retryable: new Set<string>() };

function adapter(): ConversationAdapter<CommonTurn> {
  return {
    runId: "run-1",
    avatar: () => null,
    runPath: (id) => `/app/runs/${id}`,
    runName: (id) => `run ${id}`,
    forkOf: vi.fn((nodeId: string) => ({ runId: "run-1", nodeId, label: nodeId, nodeType: "approval", input: null })),
  };
}

describe("Conversation", () => {
  it("offers Re-run from here under a node's output, not under the person's decision on it", () => {
    const output: CommonTurn = { id: "o", at, kind: "output", who: null, node, attempt: 1, body: { value: "Cleared." } };
    const decided: CommonTurn = { id: "d", at, kind: "decided", who: "Rita Ramos", node, attempt: null, body: { decision: "approve", text: "Fine.", value: null } };
    render(
      <WithTrpc>
        <Conversation turns={[output, decided]} notes={notes} adapter={adapter()} />
      </WithTrpc>,
    );
    expect(screen.getAllByText("Re-run from here")).toHaveLength(1);
    expect(screen.getByRole("article", { name: "Output of legal" }).closest(".flow-turn-with-fork")).not.toBeNull();
    expect(screen.getByRole("article", { name: "Approved legal" }).closest(".flow-turn-with-fork")).toBeNull();
  });
});
