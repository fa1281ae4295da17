/** Operators' webhook subscriptions: the list, a new one (its secret answered once), a deletion, and one's deliveries. */
import { trpc } from "../../../lib/trpc";

/** How often a subscription's deliveries are read again while shown: deliveries are sent and retried in the background. */
export const DELIVERIES_REFRESH_MS = 3000;

export function useSubscriptions() {
  return trpc.subscriptions.list.useQuery();
}

export function useCreateSubscription() {
  const utils = trpc.useUtils();
  return trpc.subscriptions.create.useMutation({ onSuccess: () => utils.subscriptions.list.invalidate() });
}

export function useDeleteSubscription() {
  const utils = trpc.useUtils();
  return trpc.subscriptions.delete.useMutation({ onSuccess: () => utils.subscriptions.list.invalidate() });
}

export function useDeliveries(subscriptionId: string) {
  return trpc.subscriptions.deliveries.useQuery({ subscriptionId, limit: 25 }, { refetchInterval: DELIVERIES_REFRESH_MS });
}
