/**
 * Notifies the person, through the browser, of each decision newly waiting for them (for their role, or assigned to
 * them) while the app is open and they turned notifications on: the list is read every INBOX_REFRESH_MS, and each
 * decision that was not in the previous answer is one notification; a click focuses the window and opens the page
 * where the decision is taken.
 */
import { useEffect, useRef, useSyncExternalStore } from "react";
import { navigate } from "../../../lib/router";
import { trpc } from "../../../lib/trpc";
import { decisionPage, fromReviews } from "../utils/decisions";
import { freshDecisions, notificationOf, notificationSetting, subscribeToNotificationSetting } from "../utils/notifications";
import { INBOX_REFRESH_MS } from "./decisions";

/** The person's notification setting, kept current across tabs and permission changes. */
export function useNotificationSetting() {
  return useSyncExternalStore(subscribeToNotificationSetting, notificationSetting, () => "unsupported" as const);
}

export function useDecisionNotifications(enabled: boolean) {
  const on = useNotificationSetting() === "on" && enabled;
  const list = trpc.decisions.list.useQuery({ view: "role", state: "open", limit: 100 }, { enabled: on, refetchInterval: on ? INBOX_REFRESH_MS : false });
  const seen = useRef<ReadonlySet<string> | null>(null);
  useEffect(() => {
    // Turned off: the next time they are on, the first answer only learns what is there already.
    if (!on) seen.current = null;
  }, [on]);
  const items = on ? list.data?.items : undefined;
  useEffect(() => {
    if (!items) return;
    const { fresh, seen: next } = freshDecisions(seen.current, items);
    seen.current = next;
    for (const decision of fresh) {
      const { title, body } = notificationOf(decision);
      // One per decision, even from several tabs: the browser replaces a notification with the same tag.
      const notification = new Notification(title, { body, tag: `decision-${decision.id}` });
      notification.onclick = () => {
        window.focus();
        navigate(decisionPage(decision), { from: fromReviews });
        notification.close();
      };
    }
  }, [items]);
}
