/**
 * The change marker every run page polls (lib/runChanges.ts): the page's other reads are read again only when the
 * marker moves (and once after the first marker of an active run, which may postdate the page's first reads); the
 * marker is polled often while machines work on the run, now and then while it waits for people, and never once it is
 * over or refused for good; its error is the page's.
 */
import { renderHook } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { TRPCClientError } from "@trpc/client";
import { type RunChanges, changesPolling, useMarkerMoves, useRunChanges } from "./runChanges";

const changes = (marker: string, active = true, runId = "RUN_1", busy = active): RunChanges => ({ run_id: runId, marker, active, busy });

function watch(first: { data?: RunChanges; error: unknown }, runId = "RUN_1") {
  const refresh = vi.fn(async () => undefined);
  const hook = renderHook(({ query, id }) => useRunChanges(id, query, refresh), { initialProps: { query: first, id: runId } });
  return { refresh, rerender: (query: { data?: RunChanges; error: unknown }, id = runId) => hook.rerender({ query, id }), result: hook.result };
}

describe("useRunChanges", () => {
  it("reads the page again once after the first marker of an active run, then only when the marker moves", () => {
    const page = watch({ data: undefined, error: null });
    expect(page.refresh).not.toHaveBeenCalled();
    page.rerender({ data: changes("a"), error: null });
    expect(page.refresh).toHaveBeenCalledTimes(1);
    // The same marker read again (a new object, as each poll answers): nothing is read.
    page.rerender({ data: changes("a"), error: null });
    page.rerender({ data: changes("a"), error: null });
    expect(page.refresh).toHaveBeenCalledTimes(1);
    page.rerender({ data: changes("b"), error: null });
    expect(page.refresh).toHaveBeenCalledTimes(2);
    page.rerender({ data: changes("c", false), error: null });
    expect(page.refresh).toHaveBeenCalledTimes(3);
  });

  it("reads nothing again for the first marker of a run that is over, and ignores another run's marker", () => {
    const page = watch({ data: changes("done", false), error: null });
    expect(page.refresh).not.toHaveBeenCalled();
    page.rerender({ data: changes("other", true, "RUN_2"), error: null });
    expect(page.refresh).not.toHaveBeenCalled();
  });

  it("answers the marker's error: the page says its updates paused", () => {
    const error = new Error("network down");
    const page = watch({ data: changes("a"), error: null });
    expect(page.result.current).toBeNull();
    page.rerender({ data: changes("a"), error });
    expect(page.result.current).toBe(error);
  });
});

describe("useMarkerMoves (a list's marker)", () => {
  it("reads the list again when its marker moves, and once after the first marker while a run can still change", () => {
    const refresh = vi.fn(async () => undefined);
    const hook = renderHook(({ current }) => useMarkerMoves("runs", current, refresh), { initialProps: { current: { marker: "1/a", active: true } } });
    expect(refresh).toHaveBeenCalledTimes(1);
    hook.rerender({ current: { marker: "1/a", active: true } });
    expect(refresh).toHaveBeenCalledTimes(1);
    hook.rerender({ current: { marker: "2/b", active: false } });
    expect(refresh).toHaveBeenCalledTimes(2);
  });
});

describe("changesPolling", () => {
  const interval = (data: RunChanges | undefined, error: unknown = null) => changesPolling.refetchInterval({ state: { data, error } });

  it("polls often while machines work on the run, now and then while it waits for people, in the foreground only", () => {
    expect(interval(undefined)).toBe(1500);
    expect(interval(changes("a"))).toBe(1500);
    expect(interval(changes("a", true, "RUN_1", false))).toBe(5000);
    expect(changesPolling.refetchIntervalInBackground).toBe(false);
  });

  it("stops once the run is over, or its marker was refused for good", () => {
    expect(interval(changes("a", false))).toBe(false);
    const notFound = new TRPCClientError("no workflow run", { result: { error: { code: -32004, message: "no workflow run", data: { code: "NOT_FOUND", httpStatus: 404 } } } });
    expect(interval(undefined, notFound)).toBe(false);
  });
});
