/**
 * A decision the server refused because someone else decided first (409: the output moved on, the node no longer
 * waits). Its composer is gone by then (the run moved), so the text the person wrote is kept here, per run, in the
 * tab's sessionStorage (a reload keeps it), and shown where the composer was until they send it again or discard it.
 * Their draft under the composer's key is left in place too; it is forgotten only with the refusal.
 */
import { TRPCClientError } from "@trpc/client";
import { useCallback, useMemo } from "react";
import { errorMessage } from "./errors";
import { forgetDraft, useDraft } from "./useDraft";

export interface RefusedDecision {
  action: "approve" | "reject";
  /** What the person wrote: the approval's comment or the request for changes (possibly empty for an approval). */
  text: string;
  /** The server's refusal, as it said it. */
  message: string;
  /** What the decision was on, as the container names it: an output's "agent:version", a waiting turn's id. */
  target: string;
  /** The composer's draft key, forgotten with the refusal. */
  draftKey: string | null;
}

/** Someone else decided first: the only refusal that makes the composer go away with the text in it. */
export function isConflict(error: unknown): boolean {
  return error instanceof TRPCClientError && (error.data as { httpStatus?: number } | undefined)?.httpStatus === 409;
}

function parse(stored: string): RefusedDecision | null {
  if (!stored) return null;
  try {
    return JSON.parse(stored) as RefusedDecision;
  } catch {
    return null;
  }
}

/**
 * The refused decision of the run `scope` names (one at a time: the latest), `keep` to record one from a refusal
 * (answers whether it was one: a 409), and `forget` once it was sent again or discarded.
 */
export function useRefusedDecision(scope: string) {
  const [stored, store] = useDraft(`refused:${scope}`);
  const refused = useMemo(() => parse(stored), [stored]);
  const keep = useCallback(
    (error: unknown, decision: Omit<RefusedDecision, "message">): boolean => {
      if (!isConflict(error)) return false;
      store(JSON.stringify({ ...decision, message: errorMessage(error) } satisfies RefusedDecision));
      return true;
    },
    [store],
  );
  /** Forgets the refusal and its draft: `sent`, when given, is the one that was sent again (the record may be newer). */
  const forget = useCallback(
    (sent?: RefusedDecision) => {
      forgetDraft((sent ?? refused)?.draftKey ?? null);
      store("");
    },
    [refused, store],
  );
  /** Awaits a decision sent: true once accepted, else false; a 409 is kept, and `onKept` refreshes what the page shows. */
  const settle = useCallback(
    async (sent: Promise<unknown>, decision: Omit<RefusedDecision, "message">, onKept: () => void): Promise<boolean> => {
      try {
        await sent;
        return true;
      } catch (error) {
        // Any other refusal stays on the mutation's `error`, shown by the composer.
        if (keep(error, decision)) onKept();
        return false;
      }
    },
    [keep],
  );
  return { refused, keep, forget, settle };
}
