/**
 * One cheap "has anything changed?" read instead of many polls. A page that shows a run watched this way (the pipeline's
 * conversation: features/conversation/api/watch-run.ts) polls only the run's change marker, and reads everything else
 * it shows again when the marker moves. Inside it, the reads that would poll on their own (the run's decisions and
 * their activity, an output's comments) do not: `usePollInterval` answers false there.
 */
import { createContext, useContext } from "react";

/** True inside a page whose run is watched by its change marker. */
export const RunWatched = createContext(false);

/** A read's `refetchInterval`: its own, or none inside a watched run, whose watcher reads it again when the run changes. */
export function usePollInterval<T>(interval: T): T | false {
  return useContext(RunWatched) ? false : interval;
}
