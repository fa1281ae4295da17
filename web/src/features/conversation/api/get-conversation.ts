import { useEffect, useRef } from "react";
import { isPermanentError } from "../../../lib/errors";
import { trpc } from "../../../lib/trpc";

/** How often an active run's change marker is read. */
const changesPollMs = 1500;

/**
 * A run as a conversation. It is not polled itself: `pipeline.changes`, one small read, is polled every 1.5 s while
 * the run can still change (never once it has completed, failed or was cancelled), and when its marker moves the
 * conversation, the run's decisions and their activity, the comments and reviewed outputs on screen and the sidebar's
 * runs are read again, in one batched request. Structural sharing keeps unchanged messages identical between reads,
 * so memoised messages do not re-render (and diagrams are not redrawn).
 */
export function useConversation(runId: string) {
  const changesError = useRunChanges(runId);
  const conversation = trpc.pipeline.conversation.useQuery({ runId });
  /** Why the page is not up to date: its last read failed, or the change marker could not be read (updates paused). */
  const refreshError: unknown = conversation.error ?? changesError;
  return { ...conversation, refreshError };
}

function useRunChanges(runId: string) {
  const utils = trpc.useUtils();
  const changes = trpc.pipeline.changes.useQuery(
    { runId },
    {
      refetchInterval: (query) => {
        if (query.state.error && isPermanentError(query.state.error)) return false;
        return query.state.data?.active === false ? false : changesPollMs;
      },
      refetchIntervalInBackground: false,
    },
  );
  const last = useRef<{ runId: string; marker: string } | null>(null);
  const data = changes.data;
  useEffect(() => {
    if (!data || data.run_id !== runId) return;
    const before = last.current?.runId === runId ? last.current.marker : null;
    last.current = { runId, marker: data.marker };
    // The first marker is read after the page's first reads went out, which may have missed what moved in between:
    // an active run is read again once; an ended one moves no more.
    if (before === data.marker || (before === null && !data.active)) return;
    void Promise.all([
      utils.pipeline.conversation.invalidate({ runId }),
      utils.pipeline.listRuns.invalidate(),
      utils.decisions.list.invalidate(),
      utils.decisions.activity.invalidate({ runId }),
      utils.review.output.invalidate(),
      utils.review.comments.invalidate(),
      utils.review.diff.invalidate(),
    ]);
  }, [data, runId, utils]);
  return changes.error;
}
