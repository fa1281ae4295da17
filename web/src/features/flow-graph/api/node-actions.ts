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

/** A node that has started (running, waiting, finished): one that never ran cannot be forked at. */
const hasStarted = (status: string | undefined, input: unknown) => status !== undefined && status !== "pending" && status !== "split" && !(status === "skipped" && input === null);

/**
 * What "Re-run from here" on a node starts from: a plain flow run's node, its input (read from the run's conversation,
 * which its page reads already); a run a front door owns, that front door's input (a pipeline run's brief, a YAML
 * run's message, a step run's inputs), read from the front door's run. Null for a node that never ran.
 */
export function useNodeForkTarget(runId: string, owner: RunOwner | null, nodeKey: string, node: { label: string; type: string; status: string | undefined }): ForkTarget | null {
  const conversation = trpc.engine.runs.conversation.useQuery({ id: runId }, { enabled: owner === null });
  const ownerRunId = owner?.run_id ?? "";
  const pipelineRun = trpc.pipeline.getRun.useQuery({ runId: ownerRunId }, { enabled: owner?.front_door === "pipeline" });
  const yamlRun = trpc.workflows.run.useQuery({ runId: ownerRunId }, { enabled: owner?.front_door === "yaml" });
  const stepRun = trpc.steps.run.useQuery({ runId: ownerRunId }, { enabled: owner?.front_door === "steps" });
  if (owner === null) {
    const flowNode = conversation.data?.nodes[nodeKey];
    if (!flowNode || !hasStarted(flowNode.status, flowNode.input)) return null;
    return { runId, nodeId: nodeKey, label: flowNode.label, nodeType: flowNode.node_type, input: flowNode.input };
  }
  if (!hasStarted(node.status, undefined)) return null;
  const base = { runId, nodeId: nodeKey, label: node.label, nodeType: node.type };
  if (owner.front_door === "pipeline") {
    if (!pipelineRun.data) return null;
    return {
      ...base, input: null, inputLabel: "The brief the fork's agents read", latestLabel: "The pipeline in force now",
      text: { value: pipelineRun.data.brief, toInput: (brief) => ({ brief }) },
    };
  }
  if (owner.front_door === "yaml") {
    const run = yamlRun.data;
    return run && "message" in run ? { ...base, nodeType: "workflow", input: { message: run.message }, inputLabel: "The run's message (JSON)" } : null;
  }
  return stepRun.data ? { ...base, nodeType: "step", input: { inputs: stepRun.data.inputs }, inputLabel: "The run's inputs (JSON)" } : null;
}
