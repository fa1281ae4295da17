import { act, renderHook } from "@testing-library/react";
import { TRPCClientError } from "@trpc/client";
import { describe, expect, it, vi } from "vitest";
import { type NodeMutation, type RunWaits, accepted, changeAfter, useNodeActions } from "./useNodeActions";

type T = { id: string; kind: string; node: string | null; actor?: string | null };
const waits: RunWaits<T> = { nodeOf: (t) => t.node, decided: (t) => (t.kind === "approved" ? `approved ${t.node}` : null) };
const at = (id: string, kind: string, node: string | null, actor: string | null = null): T => ({ id, kind, node, actor });

describe("changeAfter", () => {
  it("names who decided the same node's wait after it", () => {
    const turns = [at("w1", "waiting", "legal"), at("a0", "approved", "other", "Sam"), at("a1", "approved", "legal", "Rita Ramos")];
    expect(changeAfter(turns, "w1", waits)).toBe("Rita Ramos approved legal.");
  });

  it("says the run was cancelled, by someone when no one is named", () => {
    expect(changeAfter([at("w1", "waiting", "legal"), at("c", "cancelled", null)], "w1", waits)).toBe("Someone cancelled the run.");
  });

  it("reads the one turn vocabulary: who did it, and a cancelled outcome", () => {
    const turns = [{ id: "w1", kind: "waiting", node: "legal" }, { id: "o", kind: "outcome", node: null, who: "Dana", body: { status: "cancelled", reason: null } }];
    expect(changeAfter(turns, "w1", { nodeOf: (t) => t.node, decided: () => null })).toBe("Dana cancelled the run.");
    expect(changeAfter([turns[0]!, { ...turns[1]!, body: { status: "completed", reason: null } }], "w1", { nodeOf: (t) => t.node, decided: () => null })).toBeNull();
  });

  it("is null while nothing decided the wait", () => {
    expect(changeAfter([at("w1", "waiting", "legal"), at("o", "output", "legal")], "w1", waits)).toBeNull();
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
    const turns = [at("w1", "waiting", "legal"), at("a1", "approved", "legal", "Rita Ramos"), at("w2", "waiting", "legal")];
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
