/**
 * A review composer's feedback, kept twice until it is sent: in the tab (useDraft, per output version) and on the
 * server (per person and decision, through inline review), so it comes back after a reload, in another run's tab or on
 * another device. The server's copy fills an empty box once; each change is saved there too (debounced). Also what a
 * request for changes sends besides the feedback: the decision's open comments.
 */
import { useCallback, useEffect, useRef } from "react";
import { useDraft } from "../../lib/useDraft";
import { useComposerReview } from "./InlineReview";

export function useReviewDraft(draftKey: string | null, decisionId: string | undefined) {
  const [text, setLocal, clearLocal] = useDraft(draftKey);
  const review = useComposerReview(decisionId);
  const restoredFor = useRef<string | null>(null);
  const { savedDraft, saveDraft, clearDraft } = review;

  useEffect(() => {
    if (decisionId === undefined || savedDraft === null || restoredFor.current === decisionId) return;
    restoredFor.current = decisionId;
    if (text === "" && savedDraft !== "") setLocal(savedDraft);
  }, [decisionId, savedDraft, text, setLocal]);

  const setText = useCallback(
    (next: string) => {
      setLocal(next);
      saveDraft(next);
    },
    [setLocal, saveDraft],
  );
  const clear = useCallback(() => {
    clearLocal();
    clearDraft();
  }, [clearLocal, clearDraft]);
  return { text, setText, clear, openComments: review.openComments };
}
