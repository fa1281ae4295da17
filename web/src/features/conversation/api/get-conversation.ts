import { isPermanentError } from "../../../lib/errors";
import { isRunActive } from "../../../lib/runStatus";
import { trpc } from "../../../lib/trpc";

const conversationPollMs = 1500;

/**
 * A run as a conversation, polled while the run can still change and left alone once it is
 * COMPLETED or failed. Structural sharing keeps unchanged messages identical between polls,
 * so memoised messages do not re-render (and diagrams are not redrawn) on every poll.
 */
export function useConversation(runId: string) {
  return trpc.pipeline.conversation.useQuery(
    { runId },
    {
      refetchInterval: (query) => {
        if (query.state.error && isPermanentError(query.state.error)) return false;
        const status = query.state.data?.run.status;
        return status === undefined || isRunActive(status) ? conversationPollMs : false;
      },
    },
  );
}
