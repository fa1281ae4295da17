/** The accounts operators manage: the list, an invitation (and a new link for it), a change of role, disabling and enabling. */
import { trpc } from "../../../lib/trpc";

export function useAccounts() {
  return trpc.accounts.list.useQuery();
}

function useRefreshAccounts() {
  const utils = trpc.useUtils();
  return () => utils.accounts.list.invalidate();
}

export function useInvite() {
  return trpc.accounts.invite.useMutation({ onSuccess: useRefreshAccounts() });
}

/** A new link for an invited account; the links sent before stop working. */
export function useReissueInvitation() {
  return trpc.accounts.reissueInvitation.useMutation({ onSuccess: useRefreshAccounts() });
}

export function useChangeRole() {
  return trpc.accounts.changeRole.useMutation({ onSuccess: useRefreshAccounts() });
}

export function useDisableAccount() {
  return trpc.accounts.disable.useMutation({ onSuccess: useRefreshAccounts() });
}

export function useEnableAccount() {
  return trpc.accounts.enable.useMutation({ onSuccess: useRefreshAccounts() });
}
