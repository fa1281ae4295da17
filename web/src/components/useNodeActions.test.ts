import { act, renderHook } from "@testing-library/react";
import { TRPCClientError } from "@trpc/client";
import { describe, expect, it, vi } from "vitest";
import type { CommonTurn } from "./turns";
import { type NodeMutation, type RunWaits, accepted, changeAfter, useNodeActions } from "./useNodeActions";

type T = CommonTurn;
const waits: RunWaits<T> = { nodeOf: (t) => t.node?.id ?? null, decided: (t) => (t.kind === "decided" ? `approved ${t.node?.label}` : null) };
const node = (id: string) => ({ id, label: id, type: "approval" });
const waiting = (id: string, on: string): T => ({ id, at: "2026-11-29T10:00:00Z", kind: "waiting", who: null, node: node(on), attempt: null, body: { gate: "approval", prompt: null, value: null } });
const approved = (id: string, on: string, who: string | null): T => ({ id, at: "2026-11-29T10:01:00Z", kind: "decided", who, node: node(on), attempt: null, body: { decision: "approve", text: null, value: null } });
const ended = (id: string, status: "completed" | "cancelled", who: string | null = null): T => ({ id, at: "2026-11-29T10:02:00Z", kind: "outcome", who, node: null, attempt: null, body: { status, reason: null } });

describe("changeAfter", () => {
  it("names who decided the same node's wait after it", () => {
    const turns = [waiting("w1", "legal"), approved("a0", "other", "Sam"), approved("a1", "legal", "Rita Ramos")];
    expect(changeAfter(turns, "w1", waits)).toBe("Rita Ramos approved legal.");
  });

  it("says the run was cancelled, by whom, or by someone when no one is named", () => {
    expect(changeAfter([waiting("w1", "legal"), ended("c", "cancelled")], "w1", waits)).toBe("Someone cancelled the run.");
    expect(changeAfter([waiting("w1", "legal"), ended("c", "cancelled", "Dana")], "w1", waits)).toBe("Dana cancelled the run.");
  });

  it("is null while nothing decided the wait, and for a run that ended otherwise", () => {
    const output: T = { id: "o", at: "2026-11-29T10:01:00Z", kind: "output", who: null, node: node("legal"), attempt: 1, body: { value: "text" } };
    expect(changeAfter([waiting("w1", "legal"), output], "w1", waits)).toBeNull();
    expect(changeAfter([waiting("w1", "legal"), ended("d", "completed")], "w1", waits)).toBeNull();
  });
});

describe("accepted", () => {
  it("answers whether the server accepted", async () => {
    expect(await accepted(Promise.resolve(1))).toBe(true);
    expect(await accepted(Promise.reject(new Error("no")))).toBe(false);
  });
});

describe("useNodeActions", () => {
  const mutation = (nodeId: string | null, state: { isPending?: boolean; error?: unknown } = {}): NodeMutation => ({
    variables: nodeId ? { nodeId } : undefined,
    isPending: state.isPending ?? false,
    error: state.error ?? null,
    reset: vi.fn(),
  });
  const conflict = new TRPCClientError("Someone decided first", { result: { error: { message: "Someone decided first", code: -32600, data: { httpStatus: 409 } } } });

  it("answers per node what is under way and what was refused, and keeps a 409 for the card under its wait with the resend", async () => {
    window.sessionStorage.clear();
    const approve = mutation("legal", { isPending: true });
    const retry = mutation("fetch", { error: new Error("busy") });
    const send = vi.fn(() => Promise.reject(conflict));
    const refresh = vi.fn();
    const turns = [waiting("w1", "legal"), approved("a1", "legal", "Rita Ramos"), waiting("w2", "legal")];
    const { result } = renderHook(() =>
      useNodeActions({
        scope: "test:run",
        mutations: [
          ["approve", approve],
          ["retry", retry],
        ],
        deciders: [approve],
        send,
        draftKey: (_nodeId, waitId) => `draft:${waitId}`,
        refresh,
        turns,
        awaiting: new Set(["w2"]),
        waits,
      }),
    );
    expect(result.current.pending("legal")).toBe("approve");
    expect(result.current.pending("fetch")).toBeNull();
    expect((result.current.error("fetch") as Error).message).toBe("busy");

    let sent: boolean | undefined;
    await act(async () => {
      sent = await result.current.decide("legal", "reject", "Shorter, please.", "w1");
    });
    expect(sent).toBe(false);
    expect(send).toHaveBeenCalledWith("legal", "reject", "Shorter, please.");
    expect(refresh).toHaveBeenCalled();
    expect(approve.reset).toHaveBeenCalled();
    const card = result.current.refused("w1");
    expect(card?.refused.text).toBe("Shorter, please.");
    expect(card?.change).toBe("Rita Ramos approved legal.");
    expect(card?.resend?.consequence).toBe("Sends this request for changes on legal as it waits now.");
    expect(card?.resend?.pending).toBe(true);
    expect(result.current.refused("w2")).toBeNull();
  });
});
