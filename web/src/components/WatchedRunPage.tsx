/**
 * A run's page read by one query and watched by the run's change marker: once read, `Conversation` renders it (with
 * the refresh's failure, if any), and the reads inside it leave their polling to the watcher.
 */
import type { ComponentType } from "react";
import { RunWatched } from "../lib/runChanges";
import { QueryPage } from "./QueryPage";

export function WatchedRunPage<T>({ query, Conversation }: {
  query: Parameters<typeof QueryPage<T>>[0]["query"];
  Conversation: ComponentType<{ conversation: T; refreshError: unknown }>;
}) {
  return (
    <QueryPage query={query} what="run">
      {(conversation, refreshError) => (
        <RunWatched.Provider value>
          <Conversation conversation={conversation} refreshError={refreshError} />
        </RunWatched.Provider>
      )}
    </QueryPage>
  );
}
