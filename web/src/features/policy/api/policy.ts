/** The instance's policy: read by anyone signed in (the waiting turn says why someone is refused); changed by operators. */
import { trpc } from "../../../lib/trpc";

export function usePolicy() {
  return trpc.policy.get.useQuery();
}

/** Changes the policy; the decisions (which follow it while open) are read again. */
export function useChangePolicy() {
  const utils = trpc.useUtils();
  return trpc.policy.change.useMutation({
    onSuccess: (policy) => {
      utils.policy.get.setData(undefined, policy);
      void utils.decisions.invalidate();
    },
  });
}
