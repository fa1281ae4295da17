/** Coalescer: calls made together are written as one batch, each answered with its own item's answer, in order. */
import { describe, expect, it } from "vitest";
import { Coalescer } from "./coalesce";

describe("Coalescer", () => {
  it("writes the calls of one turn as one batch, and the calls made while it is written as the next", async () => {
    const batches: number[][] = [];
    let release: (() => void) | undefined;
    const coalescer = new Coalescer<number, string>(async (items) => {
      batches.push(items);
      if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
      return items.map((n) => `answer ${n}`);
    });
    const first = [1, 2, 3].map((n) => coalescer.add(n));
    await new Promise((resolve) => setImmediate(resolve));
    const second = [4, 5].map((n) => coalescer.add(n));
    release!();
    expect(await Promise.all([...first, ...second])).toEqual(["answer 1", "answer 2", "answer 3", "answer 4", "answer 5"]);
    expect(batches).toEqual([[1, 2, 3], [4, 5]]);
  });

  it("splits a batch larger than its limit, and a failed batch rejects only its own calls", async () => {
    const batches: number[][] = [];
    const coalescer = new Coalescer<number, number>(async (items) => {
      batches.push(items);
      if (items.includes(3)) throw new Error("batch with 3 failed");
      return items;
    }, 2);
    const settled = await Promise.allSettled([1, 2, 3, 4, 5].map((n) => coalescer.add(n)));
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
    expect(settled.map((s) => s.status)).toEqual(["fulfilled", "fulfilled", "rejected", "rejected", "fulfilled"]);
    expect((settled[2] as PromiseRejectedResult).reason).toEqual(new Error("batch with 3 failed"));
  });
});
