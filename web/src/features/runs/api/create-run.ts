import { trpc } from "../../../lib/trpc";

export function useCreateRun() {
  const utils = trpc.useUtils();
  return trpc.pipeline.createRun.useMutation({
    // The list's marker moves with the new run, and the sidebar's runs are read again by it (useRunList).
    onSuccess: () => utils.pipeline.listChanges.invalidate(),
  });
}
