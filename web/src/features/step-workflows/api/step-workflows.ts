/** The step workflows' definitions: the list, one workflow, the tools, checking and registering a definition, starting a run. */
import { trpc } from "../../../lib/trpc";

/** Every step workflow's latest version; others register them too, so the list is refreshed now and then. */
export function useStepWorkflowList() {
  return trpc.steps.list.useQuery(undefined, { refetchInterval: 30_000 });
}

export function useStepWorkflow(name: string) {
  return trpc.steps.get.useQuery({ name });
}

/** The tools a step may name, with their params as JSON Schema; they change only with the server. */
export function useStepTools() {
  return trpc.steps.tools.useQuery(undefined, { staleTime: Infinity });
}

/** Checks a definition and stores nothing; a refusal carries every problem at its JSON path. */
export function useValidateStepWorkflow() {
  return trpc.steps.validate.useMutation();
}

/** Registers the definition as the next version of its `id`; the list and that workflow are read again. */
export function useRegisterStepWorkflow() {
  const utils = trpc.useUtils();
  return trpc.steps.register.useMutation({
    onSuccess: (workflow) => Promise.all([utils.steps.list.invalidate(), utils.steps.get.invalidate({ name: workflow.name })]),
  });
}

export function useStartStepRun() {
  const utils = trpc.useUtils();
  return trpc.steps.start.useMutation({ onSuccess: () => utils.steps.runs.invalidate() });
}
