/**
 * A person's draft of a flow, kept server-side as it changes (a reload, another device, a crash keep it): read once
 * when the designer opens, written a moment after each change, deleted by "Discard draft" and by a save.
 */
import { useEffect, useRef } from "react";
import { type FlowGraph, trpc } from "../../../lib/trpc";

/** How long the drawing must stay unchanged before the draft is written. */
const SAVE_DRAFT_AFTER_MS = 600;

export function useDraftOf(flowId: string) {
  return trpc.engine.flows.draft.useQuery({ flowId }, { staleTime: Number.POSITIVE_INFINITY, refetchOnWindowFocus: false });
}

/** Writes the draft a moment after the drawing changes, while `keep` says it differs from what is saved. */
export function useKeepDraft(flowId: string, draft: { graph: FlowGraph; base_version: number; name?: string }, keep: boolean) {
  const put = trpc.engine.flows.saveDraft.useMutation();
  const last = useRef<string | null>(null);
  const text = JSON.stringify(draft);
  useEffect(() => {
    if (!keep || text === last.current) return;
    const timer = window.setTimeout(() => {
      last.current = text;
      put.mutate({ flowId, ...draft });
    }, SAVE_DRAFT_AFTER_MS);
    return () => window.clearTimeout(timer);
    // `text` stands for `draft`: a new object with the same content is not a change.
  }, [flowId, text, keep]);
  return { saving: put.isPending, error: put.error, forget: () => (last.current = null) };
}

export function useDiscardDraft() {
  const utils = trpc.useUtils();
  return trpc.engine.flows.discardDraft.useMutation({ onSuccess: (_, input) => utils.engine.flows.draft.invalidate({ flowId: input.flowId }) });
}
