/** The signed-in person's own choice about email, and whether this server sends any. */
import { trpc } from "../../../lib/trpc";

export function useEmailPreference(enabled: boolean) {
  return trpc.me.emailPreference.useQuery(undefined, { enabled });
}

export function useSetEmailNotifications() {
  const utils = trpc.useUtils();
  return trpc.me.setEmailNotifications.useMutation({ onSuccess: (preference) => utils.me.emailPreference.setData(undefined, preference) });
}
