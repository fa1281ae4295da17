/**
 * The composer's side of inline review (components/review/InlineReview's `useComposer`): how many open comments a
 * request for changes sends, and the person's feedback kept on the server as typed (600 ms after the last key).
 */
import { useCallback, useEffect, useMemo, useRef } from "react";
import type { ComposerReview } from "../../../components/review/InlineReview";
import { trpc } from "../../../lib/trpc";
import { threadsOf } from "../utils/threads";
import { useComments, useSaveDraft, useServerDraft } from "./review";

const saveAfterMs = 600;

export function useComposer(decisionId: string | undefined): ComposerReview {
  const comments = useComments(decisionId, true);
  const draft = useServerDraft(decisionId);
  const save = useSaveDraft();
  const utils = trpc.useUtils();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const { mutate } = save;

  const write = useCallback(
    (text: string) => {
      if (decisionId === undefined) return;
      utils.review.draft.setData({ decisionId }, (before) => (before ? { ...before, text } : before));
      mutate({ decisionId, text });
    },
    [decisionId, mutate, utils],
  );
  const saveDraft = useCallback(
    (text: string) => {
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => write(text), saveAfterMs);
    },
    [write],
  );
  const clearDraft = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    write("");
  }, [write]);
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);

  const openComments = useMemo(() => threadsOf(comments.data?.items ?? []).toSend, [comments.data]);
  return { openComments, savedDraft: draft.data?.text ?? null, saveDraft, clearDraft };
}
