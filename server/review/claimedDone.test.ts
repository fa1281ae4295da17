/**
 * A comment shows "changed" only where the agent reports it done and the part differs: what the agent said of the
 * comment is read from the version that answered it (its `comment_outcomes`).
 */
import { describe, expect, it } from "vitest";
import type { StoredVersion } from "./sources";
import { claimedDone } from "./queries";

const version = (n: number, commentOutcomes?: { anchor: string; done: boolean }[]): StoredVersion => ({
  version: n, revises: n > 1 ? n - 1 : null, created_at: "2026-03-01T10:00:00Z", author: { kind: "agent", name: "Requirements", account_id: null }, output: {}, claim: null,
  ...(commentOutcomes ? { commentOutcomes } : {}),
});

describe("what the agent says of a comment", () => {
  it("is not done when the answering version reports it not done, even if another version between says nothing", () => {
    const versions = [version(1), version(2, [{ anchor: "core_capabilities[CAP-007]", done: false }]), version(3)];
    expect(claimedDone(versions, "core_capabilities[CAP-007]", 1, 3)).toBe(false);
  });

  it("is done when the answering version reports it done; the latest answer counts", () => {
    const versions = [version(1), version(2, [{ anchor: "a", done: false }]), version(3, [{ anchor: "a", done: true }])];
    expect(claimedDone(versions, "a", 1, 3)).toBe(true);
    expect(claimedDone(versions, "a", 1, 2)).toBe(false);
  });

  it("is unknown when no version after the comment answers it (an agent that reads only the feedback text): the diff alone decides", () => {
    expect(claimedDone([version(1), version(2)], "a", 1, 2)).toBeUndefined();
    expect(claimedDone([version(1), version(2, [{ anchor: "b", done: true }])], "a", 1, 2)).toBeUndefined();
  });
});
