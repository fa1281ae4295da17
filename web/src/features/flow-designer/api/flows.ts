/** The plain flows the designer draws: the list, one flow, creating one. */
import { trpc } from "../../../lib/trpc";

export function useFlowList() {
  return trpc.engine.flows.list.useQuery();
}

export function useDesignedFlow(flowId: string | null) {
  return trpc.engine.flows.get.useQuery({ id: flowId ?? "" }, { enabled: flowId !== null });
}

export function useCreateFlow() {
  const utils = trpc.useUtils();
  return trpc.engine.flows.create.useMutation({ onSuccess: () => utils.engine.flows.list.invalidate() });
}
