import { changesPolling, invalidateDecisionsAndReviews, useRunChanges } from "../../../lib/runChanges";
import { trpc } from "../../../lib/trpc";

/**
 * A run as a conversation. It is not polled itself: `pipeline.changes`, one small read, is polled every 1.5 s while
 * the run can still change (never once it has completed, failed or was cancelled), and when its marker moves the
 * conversation, the run's decisions and their activity, the comments and reviewed outputs on screen and the sidebar's
 * list marker (which has the runs read again when it moved) are read again, in one batched request. Structural sharing keeps unchanged messages identical between reads,
 * so memoised messages do not re-render (and diagrams are not redrawn).
 */
export function useConversation(runId: string) {
  const utils = trpc.useUtils();
  const changes = trpc.pipeline.changes.useQuery({ runId }, changesPolling);
  const changesError = useRunChanges(runId, changes, () =>
    Promise.all([
      utils.pipeline.conversation.invalidate({ runId }),
      utils.pipeline.listChanges.invalidate(),
      invalidateDecisionsAndReviews(utils, runId),
    ]),
  );
  const conversation = trpc.pipeline.conversation.useQuery({ runId });
  /** Why the page is not up to date: its last read failed, or the change marker could not be read (updates paused). */
  const refreshError: unknown = conversation.error ?? changesError;
  return { ...conversation, refreshError };
}
