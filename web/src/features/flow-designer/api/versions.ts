/** A flow's versions: the list, one version's graph, saving the next one (409 on a stale base), restoring, the diff. */
import { trpc } from "../../../lib/trpc";

export function useVersions(flowId: string, enabled = true) {
  return trpc.engine.flows.versions.useQuery({ flowId }, { enabled });
}

/** A version never changes once saved. */
export function useVersion(flowId: string, version: number | null) {
  return trpc.engine.flows.version.useQuery({ flowId, version: version ?? 1 }, { enabled: version !== null && flowId !== "", staleTime: Number.POSITIVE_INFINITY });
}

export function useDiff(flowId: string, range: { from: number; to: number } | null) {
  return trpc.engine.flows.diff.useQuery({ flowId, from: range?.from ?? 0, to: range?.to ?? 1 }, { enabled: range !== null, staleTime: Number.POSITIVE_INFINITY });
}

function useRefreshFlow() {
  const utils = trpc.useUtils();
  return () => utils.engine.flows.invalidate();
}

export function useSaveVersion() {
  const refresh = useRefreshFlow();
  return trpc.engine.flows.saveVersion.useMutation({ onSuccess: refresh });
}

export function useRestoreVersion() {
  const refresh = useRefreshFlow();
  return trpc.engine.flows.restoreVersion.useMutation({ onSuccess: refresh });
}
