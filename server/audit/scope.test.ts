// The audit scope's async context (scope.ts): each request's work sees its own scope across awaits, concurrent scopes
// do not see each other's, and once no scope's work is under way the context is off, so what a scope left behind finds
// no scope (its entry was recorded when it ended), until the next scope turns it on again.
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import type { AuditSubject } from "./schemas";
import { currentAuditScope, inAuditScope, newAuditScope, withAuditScope } from "./scope";

const subject = (action: string): AuditSubject => ({
  actorKind: "account", accountId: null, actorName: "Ana", tokenId: null, action, targetKind: null, targetId: null, address: null, userAgent: null,
});

describe("audit scopes", () => {
  it("each scope's work sees its own scope across awaits, beside another scope's", async () => {
    const seen = await Promise.all(
      ["a", "b"].map((action) =>
        withAuditScope(subject(action), async (scope) => {
          const before = currentAuditScope();
          await sleep(action === "a" ? 20 : 5);
          await Promise.resolve();
          return { mine: scope, before, after: currentAuditScope() };
        }),
      ),
    );
    for (const { mine, before, after } of seen) {
      expect(before).toBe(mine);
      expect(after).toBe(mine);
    }
    expect(seen[0]!.mine).not.toBe(seen[1]!.mine);
    expect(currentAuditScope()).toBeUndefined();
  });

  it("work a scope left behind finds no scope once no scope is under way, and the next scope is seen again", async () => {
    let leftBehind: Promise<unknown> | undefined;
    const scope = newAuditScope(subject("left"));
    await inAuditScope(scope, async () => {
      leftBehind = sleep(20).then(() => currentAuditScope());
      expect(currentAuditScope()).toBe(scope);
    });
    expect(await leftBehind).toBeUndefined();

    const next = newAuditScope(subject("next"));
    await inAuditScope(next, async () => {
      await sleep(1);
      expect(currentAuditScope()).toBe(next);
    });
    expect(currentAuditScope()).toBeUndefined();
  });

  it("a scope whose work fails still ends: the context is off after it", async () => {
    const failing = newAuditScope(subject("fails"));
    await expect(inAuditScope(failing, async () => {
      await sleep(1);
      throw new Error("the command failed");
    })).rejects.toThrow("the command failed");
    expect(await sleep(1).then(() => currentAuditScope())).toBeUndefined();
  });
});
