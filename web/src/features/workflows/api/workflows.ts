/** The YAML workflows' definitions: the list, one workflow with its text, registering a new version, starting a run. */
import { type RouterOutputs, type WorkflowDetail, trpc } from "../../../lib/trpc";

/** Every workflow's latest version; others register workflows too, so the list is refreshed now and then. */
export function useWorkflowList() {
  return trpc.workflows.list.useQuery(undefined, { refetchInterval: 30_000 });
}

/** A step workflow of that name is the step workflows' pages' to show: here it is an error. */
function yamlWorkflow(workflow: RouterOutputs["workflows"]["get"]): WorkflowDetail {
  if (workflow.format !== "yaml") throw new Error(`"${workflow.name}" is a step workflow; open it under Step workflows`);
  return workflow;
}

export function useWorkflow(name: string) {
  return trpc.workflows.get.useQuery({ name }, { select: yamlWorkflow });
}

/** Registers the text as the next version of the workflow it names; the list and that workflow are read again. */
export function useRegisterWorkflow() {
  const utils = trpc.useUtils();
  return trpc.workflows.register.useMutation({
    onSuccess: (workflow) => Promise.all([utils.workflows.list.invalidate(), utils.workflows.get.invalidate({ name: workflow.name })]),
  });
}

export function useStartWorkflowRun() {
  const utils = trpc.useUtils();
  return trpc.workflows.start.useMutation({ onSuccess: () => utils.workflows.runs.invalidate() });
}
