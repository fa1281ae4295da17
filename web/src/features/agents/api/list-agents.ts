import { trpc } from "../../../lib/trpc";

/** The pipeline's agents in order; they change only when the server is redeployed. */
export function useAgents() {
  return trpc.pipeline.agents.useQuery(undefined, { staleTime: Number.POSITIVE_INFINITY });
}
