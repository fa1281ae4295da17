import { describe, expect, it } from "vitest";
import { type RunWaits, accepted, changeAfter } from "./useNodeActions";

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
