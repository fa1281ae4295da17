/** The inbox's reads: a page of decisions for a view and a search, and the count of those waiting for me. */
import { type DecisionView, trpc } from "../../../lib/trpc";

/** How often the inbox and the count look again: decisions open and close as runs move, in any process. */
export const INBOX_REFRESH_MS = 10_000;

export function useDecisions(view: DecisionView, q: string) {
  return trpc.decisions.list.useQuery({ view, q: q.trim() || undefined, limit: 100 }, { refetchInterval: INBOX_REFRESH_MS, placeholderData: (previous) => previous });
}

export function useDecisionCount(enabled: boolean) {
  return trpc.decisions.countForMe.useQuery(undefined, { enabled, refetchInterval: INBOX_REFRESH_MS });
}

/** A reviewer takes a decision (it is hers until released) or gives it back; the inbox and the count refresh. */
export function useClaimDecision() {
  const utils = trpc.useUtils();
  const refresh = () => utils.decisions.invalidate();
  return { claim: trpc.decisions.claim.useMutation({ onSuccess: refresh }), release: trpc.decisions.release.useMutation({ onSuccess: refresh }) };
}

/** The people an operator may hand decisions to (the accounts list is an operator's read). */
export function useAssignableAccounts(enabled: boolean) {
  return trpc.accounts.list.useQuery(undefined, { enabled });
}

/** An operator assigns a decision to a person or a role; the inbox and the count refresh. */
export function useAssignDecision() {
  const utils = trpc.useUtils();
  return trpc.decisions.assign.useMutation({ onSuccess: () => utils.decisions.invalidate() });
}

/** One decision by its id (a notification's link), read once; nothing is asked without an id. */
export function useDecision(id: string | null) {
  return trpc.decisions.get.useQuery({ id: id ?? "" }, { enabled: id !== null, retry: false });
}
