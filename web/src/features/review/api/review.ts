/**
 * Inline review's reads and writes: the decision a run's node waits (or waited) for, the output it reviews with its
 * parts, the comments on them (polled while the decision is open, so everyone sees each other's), the diff between two
 * versions, the person's draft of feedback, and her edit. Each write refreshes what it changed. In a conversation that
 * watches its run's changes (lib/runChanges.ts), the comments are read again when the run changes instead.
 */
import { useCallback, useEffect, useState } from "react";
import { usePollInterval } from "../../../lib/runChanges";
import { trpc, type Decision } from "../../../lib/trpc";
import type { ReviewTarget } from "../../../components/review/InlineReview";

const pollMs = 4000;

/**
 * The node's decision: the open one, else the latest taken (its output and comments stay readable). Read once and
 * again whenever a decision is taken here (mutations invalidate decisions) or `refresh` is asked for: a conversation
 * that shows a version newer than the decision's asks (ReviewedOutputView).
 */
export function useTargetDecision(target: ReviewTarget): { decision: Decision | undefined; refresh(): void } {
  const list = trpc.decisions.list.useQuery({ view: "all", state: "all", run_id: target.runId, limit: 50 });
  const ofNode = (list.data?.items ?? []).filter((d) => d.node_id === target.nodeId && (target.engineRunId === undefined || d.engine_run_id === target.engineRunId));
  const decision = ofNode.find((d) => d.state === "open") ?? [...ofNode].sort((a, b) => b.waiting_since.localeCompare(a.waiting_since))[0];
  const { refetch } = list;
  const refresh = useCallback(() => void refetch(), [refetch]);
  return { decision, refresh };
}

export function useReviewOutput(decisionId: string | undefined) {
  return trpc.review.output.useQuery({ decisionId: decisionId ?? "" }, { enabled: decisionId !== undefined });
}

export function useComments(decisionId: string | undefined, open: boolean) {
  const interval = usePollInterval(pollMs);
  return trpc.review.comments.useQuery({ decisionId: decisionId ?? "" }, { enabled: decisionId !== undefined, refetchInterval: open ? interval : false });
}

export function useDiff(decisionId: string | undefined, versions: { against?: number; version?: number }, enabled: boolean) {
  return trpc.review.diff.useQuery({ decisionId: decisionId ?? "", ...versions }, { enabled: enabled && decisionId !== undefined });
}

function useRefreshComments() {
  const utils = trpc.useUtils();
  return () => utils.review.comments.invalidate();
}

export function useAddComment() {
  const refresh = useRefreshComments();
  return trpc.review.comment.useMutation({ onSuccess: refresh });
}

export function useResolveComment() {
  const refresh = useRefreshComments();
  return trpc.review.resolve.useMutation({ onSuccess: refresh });
}

export function useReopenComment() {
  const refresh = useRefreshComments();
  return trpc.review.reopen.useMutation({ onSuccess: refresh });
}

/** Saves a person's edit as the version under review: the conversations show it, and the composer approves it. */
export function useEditOutput() {
  const utils = trpc.useUtils();
  return trpc.review.edit.useMutation({
    onSuccess: (output) => {
      utils.review.output.setData({ decisionId: output.decision_id }, output);
      return Promise.all([utils.review.invalidate(), utils.pipeline.conversation.invalidate(), utils.decisions.invalidate()]);
    },
  });
}

export function useServerDraft(decisionId: string | undefined) {
  return trpc.review.draft.useQuery({ decisionId: decisionId ?? "" }, { enabled: decisionId !== undefined, staleTime: Infinity, refetchOnWindowFocus: false });
}

export function useSaveDraft() {
  return trpc.review.saveDraft.useMutation();
}

/** How long typing pauses before an edit is checked. */
const checkAfterMs = 400;

export interface EditProblem {
  path: string;
  message: string;
}

/**
 * What the server's rules (the artifact type's schema, a text not emptied) say of `value` as she types: checked once
 * typing pauses, only while `enabled` (the value parses and differs from the version); an answer for an older value
 * is dropped. Null while unknown; a failed check says nothing (saving checks again).
 */
export function useEditCheck(decisionId: string, value: unknown, enabled: boolean): EditProblem[] | null {
  const { mutateAsync } = trpc.review.checkEdit.useMutation();
  const [answer, setAnswer] = useState<{ for: string; problems: EditProblem[] } | null>(null);
  // The value as text: a value parsed anew on each render (the JSON box's) is still the same value.
  const key = enabled ? JSON.stringify(value) : "";
  useEffect(() => {
    if (!enabled) return;
    let current = true;
    const timer = setTimeout(() => {
      mutateAsync({ decisionId, body: { output: JSON.parse(key) as unknown } }).then(
        (checked) => current && setAnswer({ for: key, problems: checked.problems }),
        () => undefined,
      );
    }, checkAfterMs);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [decisionId, key, enabled, mutateAsync]);
  return enabled && answer !== null && answer.for === key ? answer.problems : null;
}
