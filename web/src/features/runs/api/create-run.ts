import { trpc } from "../../../lib/trpc";

export function useCreateRun() {
  const utils = trpc.useUtils();
  return trpc.pipeline.createRun.useMutation({
    onSuccess: () => utils.pipeline.listRuns.invalidate(),
  });
}
