/**
 * Where a conversation puts its reader. Arriving (from the inbox, a notification or the sidebar, or a reload), at the
 * output that waits for this person, opened, scrolled to and focused. After a decision, at what comes next: the run's
 * status while the agent works, then the next output that waits for them if focus is still there; never the page's
 * body, which is where focus falls when the composer that held it goes. And at any output the step bar names.
 */
import { useCallback, useEffect, useRef, useState } from "react";

export interface RevealRequest {
  turnId: string;
  /** A new number for each request, so the same output can be asked for twice. */
  seq: number;
}

export function useConversationFocus({ runId, awaitingId, decidable }: { runId: string; awaitingId: string | null; decidable: boolean }) {
  const [request, setRequest] = useState<RevealRequest | null>(null);
  const statusRef = useRef<HTMLSpanElement>(null);
  const reveal = useCallback((turnId: string) => setRequest((before) => ({ turnId, seq: (before?.seq ?? 0) + 1 })), []);

  // Once per run opened: the page shows the run's latest state when this runs, so what waits is known.
  const arrivedAt = useRef<string | null>(null);
  useEffect(() => {
    if (arrivedAt.current === runId) return;
    arrivedAt.current = runId;
    if (awaitingId && decidable) reveal(awaitingId);
  }, [runId, awaitingId, decidable, reveal]);

  // After a decision: the next output waiting for this person takes focus from the status, unless they moved on.
  const followNext = useRef<string | null>(null);
  useEffect(() => {
    const decided = followNext.current;
    if (decided === null || !awaitingId || awaitingId === decided || !decidable) return;
    followNext.current = null;
    const active = document.activeElement;
    if (active === statusRef.current || active === document.body || active === null) reveal(awaitingId);
  }, [awaitingId, decidable, reveal]);

  /** Called once a decision on `decidedId` was accepted. */
  const afterDecision = useCallback((decidedId: string) => {
    followNext.current = decidedId;
    statusRef.current?.focus();
  }, []);

  return { request, reveal, statusRef, afterDecision };
}
