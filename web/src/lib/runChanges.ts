/**
 * One cheap "has anything changed?" read instead of many polls. A page that shows a run (the pipeline's conversation,
 * a YAML or step workflow run's, a plain flow run's, and the graphs of the last three) polls only the run's change
 * marker, its front door's `changes` query, and reads everything else it shows again when the marker moves:
 * `useRunChanges` does both for every page alike. Inside such a page, the reads that would poll on their own (the
 * run's decisions and their activity, an output's comments, the engine run of the graph) do not: `usePollInterval`
 * answers false there.
 */
import { createContext, useContext, useEffect, useRef } from "react";
import { isPermanentError } from "./errors";
import { type Liveliness, pollEvery } from "./runPolling";
import { trpc } from "./trpc";

/** True inside a page whose run is watched by its change marker. */
export const RunWatched = createContext(false);

/** A read's `refetchInterval`: its own, or none inside a watched run, whose watcher reads it again when the run changes. */
export function usePollInterval<T>(interval: T): T | false {
  return useContext(RunWatched) ? false : interval;
}

/** What every front door's `changes` query answers (server/lib/runChanges.ts). */
export interface RunChanges {
  run_id: string;
  marker: string;
  active: boolean;
  busy: boolean;
}

/** What a run is doing, as its change marker says, for how often to read it again (lib/runPolling.ts). */
export function livelinessOf(changes: Pick<RunChanges, "active" | "busy">): Liveliness {
  return !changes.active ? "ended" : changes.busy ? "busy" : "waiting";
}

/**
 * The options of a `changes` query, read while the tab is in the foreground: often while machines work on the run,
 * now and then while it waits for people (lib/runPolling.ts); never again once it has completed, failed or was
 * cancelled, or once its read failed for good. Before its first answer, as for a busy run.
 */
export const changesPolling = {
  refetchInterval: (query: { state: { data?: RunChanges; error: unknown } }): number | false => {
    if (query.state.error && isPermanentError(query.state.error)) return false;
    return pollEvery[query.state.data ? livelinessOf(query.state.data) : "busy"];
  },
  refetchIntervalInBackground: false,
};

/**
 * Calls `refresh` (which invalidates what the page shows of the run) whenever the run's marker moves. Answers why the
 * page is not up to date any more: the marker could not be read (updates paused), or nothing (null).
 */
export function useRunChanges(runId: string, changes: { data?: RunChanges; error: unknown }, refresh: () => Promise<unknown>): unknown {
  useMarkerMoves(runId, changes.data?.run_id === runId ? changes.data : undefined, refresh);
  return changes.error ?? null;
}

/**
 * Calls `refresh` whenever the marker of what `key` names (a run, a list) moves. The first marker is read after the
 * page's first reads went out, which may have missed what moved in between: while what it watches can still change,
 * it is read again once; once nothing moves it by itself, not.
 */
export function useMarkerMoves(key: string, current: { marker: string; active: boolean } | undefined, refresh: () => Promise<unknown>): void {
  const last = useRef<{ key: string; marker: string } | null>(null);
  useEffect(() => {
    if (!current) return;
    const before = last.current?.key === key ? last.current.marker : null;
    last.current = { key, marker: current.marker };
    if (before === current.marker || (before === null && !current.active)) return;
    void refresh();
    // A new `refresh` alone (each render makes one) reads nothing again: the marker it last saw is the same.
  }, [current, key, refresh]);
}

/**
 * What every run page shows besides its front door's own reads, read again when the run's marker moves: the run's open
 * decisions and their activity (by the front door's id of the run), and the outputs under review with their comments.
 */
export function invalidateDecisionsAndReviews(utils: ReturnType<typeof trpc.useUtils>, runId: string) {
  return Promise.all([
    utils.decisions.list.invalidate(),
    utils.decisions.activity.invalidate({ runId }),
    utils.review.output.invalidate(),
    utils.review.comments.invalidate(),
    utils.review.diff.invalidate(),
  ]);
}
