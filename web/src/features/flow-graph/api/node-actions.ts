/**
 * What a person can do to one node of an engine run (complete a UX node, review a gate, retry a failure)
 * and to the run as a whole (cancel it).
 */
import type { ForkTarget } from "../../../components/RerunFromHere";
import { useOpenDecisions } from "../../../lib/decisions";
import { trpc } from "../../../lib/trpc";
import type { RunOwner } from "../utils/owner";

function useRefreshEngineRun() {
  const utils = trpc.useUtils();
  return (result: { runId: string }) =>
    Promise.all([
      utils.engine.runs.get.invalidate({ id: result.runId }),
      utils.engine.runs.list.invalidate(),
      utils.engine.runs.conversation.invalidate({ id: result.runId }),
      utils.pipeline.invalidate(),
      utils.decisions.invalidate(),
    ]);
}

/**
 * The open decision a waiting node is, once read: the decisions are listed by the front door's id of the run (an owned
 * run's owner id; a plain flow's run is its own), and matched by node and engine run.
 */
export function useNodeDecision(engineRunId: string, owner: RunOwner | null, nodeKey: string, waiting: boolean) {
  return useOpenDecisions(owner?.run_id ?? engineRunId, waiting).of(nodeKey, engineRunId);
}

export function useCompleteNode() {
  const refresh = useRefreshEngineRun();
  return trpc.engine.runs.completeNode.useMutation({ onSuccess: refresh });
}

export function useRetryNode() {
  const refresh = useRefreshEngineRun();
  return trpc.engine.runs.retryNode.useMutation({ onSuccess: refresh });
}

export function useReviewNode() {
  const refresh = useRefreshEngineRun();
  return trpc.engine.runs.reviewNode.useMutation({ onSuccess: refresh });
}

export function useCancelEngineRun() {
  const refresh = useRefreshEngineRun();
  return trpc.engine.runs.cancel.useMutation({ onSuccess: refresh });
}

/**
 * Retries a failed node of an owned run through its owner's own retry (the generic retry refuses owned runs):
 * the pipeline's run retry, a YAML workflow's node retry, a step workflow's step retry.
 */
export function useOwnerRetry(owner: RunOwner, engineRunId: string) {
  const utils = trpc.useUtils();
  const refresh = () => Promise.all([utils.engine.runs.get.invalidate({ id: engineRunId }), utils.pipeline.invalidate(), utils.workflows.invalidate(), utils.steps.invalidate()]);
  const pipeline = trpc.pipeline.retry.useMutation({ onSuccess: refresh });
  const workflow = trpc.workflows.retry.useMutation({ onSuccess: refresh });
  const steps = trpc.steps.retry.useMutation({ onSuccess: refresh });
  const runId = owner.run_id;
  if (owner.front_door === "pipeline") return { retry: () => pipeline.mutate({ runId }), isPending: pipeline.isPending, error: pipeline.error };
  if (owner.front_door === "yaml") return { retry: (nodeId: string) => workflow.mutate({ runId, nodeId }), isPending: workflow.isPending, error: workflow.error };
  return { retry: (stepId: string) => steps.mutate({ runId, stepId }), isPending: steps.isPending, error: steps.error };
}

/**
 * What "Re-run from here" on a node of a plain flow run starts from (its input, read from the run's conversation, which
 * its page reads already); null for a run a front door owns (its forks are that front door's) and for a node that
 * never ran.
 */
export function useNodeForkTarget(runId: string, owner: RunOwner | null, nodeKey: string): ForkTarget | null {
  const conversation = trpc.engine.runs.conversation.useQuery({ id: runId }, { enabled: owner === null });
  const node = owner === null ? conversation.data?.nodes[nodeKey] : undefined;
  if (!node || node.status === "pending" || node.status === "split" || (node.status === "skipped" && node.input === null)) return null;
  return { runId, nodeId: nodeKey, label: node.label, nodeType: node.node_type, input: node.input };
}
