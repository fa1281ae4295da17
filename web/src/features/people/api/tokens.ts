/** Personal API tokens: the signed-in person's (everyone's for an operator), a new one (answered once), a revocation. */
import { trpc } from "../../../lib/trpc";

export function useTokens() {
  return trpc.tokens.list.useQuery();
}

export function useCreateToken() {
  const utils = trpc.useUtils();
  return trpc.tokens.create.useMutation({ onSuccess: () => utils.tokens.list.invalidate() });
}

export function useRevokeToken() {
  const utils = trpc.useUtils();
  return trpc.tokens.revoke.useMutation({ onSuccess: () => utils.tokens.list.invalidate() });
}
