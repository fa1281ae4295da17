import { isPermanentError } from "../../../lib/errors";
import { isRunActive } from "../../../lib/runStatus";
import { trpc } from "../../../lib/trpc";

const conversationPollMs = 1500;

/**
 * A run as a conversation, polled while the run can still change and left alone once it has completed,
 * failed or was cancelled. Structural sharing keeps unchanged messages identical between polls, so
 * memoised messages do not re-render (and diagrams are not redrawn) on every poll.
 */
export function useConversation(runId: string) {
  return trpc.pipeline.conversation.useQuery(
    { runId },
    {
      refetchInterval: (query) => {
        if (query.state.error && isPermanentError(query.state.error)) return false;
        const run = query.state.data?.run;
        return run === undefined || isRunActive(run.state) ? conversationPollMs : false;
      },
    },
  );
}
