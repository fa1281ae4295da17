/**
 * Forks of a flow run from the app: "Re-run from here" starts one (the server's rules decide who may) and opens the new
 * run; the comparison of two runs is read once (a page the person opened to read, not a live view).
 */
import { navigate } from "../../../lib/router";
import { trpc } from "../../../lib/trpc";

export function useForkRun() {
  const utils = trpc.useUtils();
  return trpc.engine.runs.fork.useMutation({
    onSuccess: async (forked, sent) => {
      await Promise.all([utils.engine.runs.conversation.invalidate({ id: sent.runId }), utils.engine.runs.list.invalidate()]);
      navigate(forked.path);
    },
  });
}

export function useRunComparison(a: string, b: string) {
  return trpc.engine.runs.compare.useQuery({ a, b });
}
