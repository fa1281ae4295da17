/**
 * Who deletes a delivered webhook's row (deliveredRows.ts): the callback's transaction when it commits in this process
 * within the grace, else the dispatcher at the end of the grace, all the rows left in one statement.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DeliveredRows } from "./deliveredRows";
import type { ClaimedDispatch } from "./outboxStore";

const GRACE_MS = 200;

const row = (id: string, node: string, runId = "run-1"): ClaimedDispatch => ({
  id, run_id: runId, node_id: node, node_attempt: 1, kind: "webhook", url: "https://worker.example.test/hook", payload: {}, deliveries: 1, redelivery: null,
});

describe("DeliveredRows", () => {
  let removed: string[][];
  let errors: unknown[];
  let rows: DeliveredRows;

  beforeEach(() => {
    vi.useFakeTimers();
    removed = [];
    errors = [];
    rows = new DeliveredRows(async (ids) => void removed.push(ids), GRACE_MS, (error) => errors.push(error));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("a row whose callback commits here after its delivery is left to that transaction: no statement of its own", async () => {
    rows.track(row("d1", "A"));
    rows.delivered("d1");
    expect(rows.waiting).toBe(1);
    rows.cleared([{ runId: "run-1", key: "A" }]);
    expect(rows.waiting).toBe(0);
    await vi.advanceTimersByTimeAsync(GRACE_MS * 2);
    expect(removed).toEqual([]);
  });

  it("a callback that commits before the delivery's answer is read clears the row all the same", async () => {
    rows.track(row("d1", "A"));
    rows.cleared([{ runId: "run-1", key: "A" }]);
    rows.delivered("d1");
    rows.settled("d1");
    await vi.advanceTimersByTimeAsync(GRACE_MS * 2);
    expect(removed).toEqual([]);
    expect(rows.waiting).toBe(0);
  });

  it("rows whose callbacks do not come here are deleted at the end of the grace, together", async () => {
    for (const [id, node] of [["d1", "A"], ["d2", "B"], ["d3", "C"]] as const) {
      rows.track(row(id, node));
      rows.delivered(id);
      rows.settled(id);
    }
    rows.cleared([{ runId: "run-1", key: "B" }]);
    await vi.advanceTimersByTimeAsync(GRACE_MS - 1);
    expect(removed).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(removed).toEqual([["d1", "d3"]]);
    expect(rows.waiting).toBe(0);
  });

  it("only the nodes cleared count: another run's node of the same name, or a row tracked after the clearing, is deleted by the dispatcher", async () => {
    rows.cleared([{ runId: "run-1", key: "A" }]);
    rows.track(row("retry", "A"));
    rows.track(row("other", "A", "run-2"));
    rows.delivered("retry");
    rows.delivered("other");
    await vi.advanceTimersByTimeAsync(GRACE_MS);
    expect(removed).toEqual([["retry", "other"]]);
  });

  it("a row that was not delivered (rescheduled, released, failed) is forgotten when its work ends, and never deleted here", async () => {
    rows.track(row("d1", "A"));
    rows.settled("d1");
    rows.cleared([{ runId: "run-1", key: "A" }]);
    await vi.advanceTimersByTimeAsync(GRACE_MS * 2);
    expect(removed).toEqual([]);
    expect(rows.waiting).toBe(0);
  });

  it("a delivered row it was not told of is deleted at once", async () => {
    rows.delivered("untracked");
    await vi.advanceTimersByTimeAsync(0);
    expect(removed).toEqual([["untracked"]]);
  });

  it("flush deletes every row still waiting at once (the dispatcher stopping), and a failure to delete is reported", async () => {
    rows.track(row("d1", "A"));
    rows.delivered("d1");
    await rows.flush();
    expect(removed).toEqual([["d1"]]);
    await vi.advanceTimersByTimeAsync(GRACE_MS * 2);
    expect(removed).toEqual([["d1"]]);

    const failing = new DeliveredRows(async () => Promise.reject(new Error("database away")), GRACE_MS, (error) => errors.push(error));
    failing.track(row("d2", "B"));
    failing.delivered("d2");
    await vi.advanceTimersByTimeAsync(GRACE_MS);
    expect(errors).toEqual([new Error("database away")]);
  });

  it("issue 40: a delivered row is let go (its lease no longer renewed) only once it is gone, never while its deletion waits", async () => {
    const gone: string[][] = [];
    let deleted: () => void = () => {};
    const slow = new DeliveredRows(() => new Promise<void>((resolve) => (deleted = resolve)), GRACE_MS, (error) => errors.push(error), (ids) => gone.push(ids));
    for (const [id, node] of [["d1", "A"], ["d2", "B"]] as const) {
      slow.track(row(id, node));
      slow.delivered(id);
      slow.settled(id);
    }
    expect(slow.isWaiting("d1")).toBe(true);
    // A callback's commit seen here deletes d1: gone at once.
    slow.cleared([{ runId: "run-1", key: "A" }]);
    expect(gone).toEqual([["d1"]]);
    // d2 waits out the grace, then its deletion: still held until that has committed.
    await vi.advanceTimersByTimeAsync(GRACE_MS * 5);
    expect(gone).toEqual([["d1"]]);
    deleted();
    await vi.advanceTimersByTimeAsync(0);
    expect(gone).toEqual([["d1"], ["d2"]]);
  });
});
