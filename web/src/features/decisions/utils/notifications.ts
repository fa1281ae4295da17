/**
 * Browser notifications of decisions newly waiting for me. Which are new is decided here, apart from the browser:
 * the open decisions for my role (or assigned to me) that were not in the list the last poll answered; nothing on the
 * first poll, which only learns what is there already. Whether to notify is the person's choice, made with an explicit
 * "Turn on notifications" (never asked on load), kept in this browser's localStorage, and the browser's permission.
 */
import type { Decision } from "../../../lib/trpc";

export interface Fresh {
  /** Open decisions not in the previous answer, in the answer's order (newest wait first). */
  fresh: Decision[];
  /** What to compare the next answer with. */
  seen: ReadonlySet<string>;
}

/** The decisions of `current` that `seen` (the last poll's, or null before the first poll) did not hold. */
export function freshDecisions(seen: ReadonlySet<string> | null, current: readonly Decision[]): Fresh {
  const open = current.filter((decision) => decision.state === "open");
  return { fresh: seen === null ? [] : open.filter((decision) => !seen.has(decision.id)), seen: new Set(open.map((decision) => decision.id)) };
}

/** What a notification says: the decision's title, and whose run it is about. */
export function notificationOf(decision: Decision): { title: string; body: string } {
  const whose = decision.started_by?.name ? `Started by ${decision.started_by.name}` : "";
  const body = [decision.context, whose].filter(Boolean).join(" · ");
  return { title: `New decision waiting: ${decision.title}`, body };
}

/** unsupported: this browser has no notifications; denied: blocked in its settings; off, or on: the person's choice. */
export type NotificationSetting = "unsupported" | "denied" | "off" | "on";

const preferenceKey = "stitch:decision-notifications";
const changed = "stitch:decision-notifications-changed";

const supported = () => typeof window !== "undefined" && "Notification" in window;

function chosen(): boolean {
  try {
    return window.localStorage.getItem(preferenceKey) === "on";
  } catch {
    return false;
  }
}

function choose(on: boolean): void {
  try {
    if (on) window.localStorage.setItem(preferenceKey, "on");
    else window.localStorage.removeItem(preferenceKey);
  } catch {
    // Storage unavailable: the choice lasts for this page only, through the event below.
  }
  window.dispatchEvent(new Event(changed));
}

export function notificationSetting(): NotificationSetting {
  if (!supported()) return "unsupported";
  if (Notification.permission === "denied") return "denied";
  return Notification.permission === "granted" && chosen() ? "on" : "off";
}

/** Asks the browser's permission (only ever from the person's click) and, once granted, turns notifications on. */
export async function turnNotificationsOn(): Promise<NotificationSetting> {
  if (!supported()) return "unsupported";
  const permission = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
  choose(permission === "granted");
  return notificationSetting();
}

export function turnNotificationsOff(): void {
  if (supported()) choose(false);
}

/** Calls `onChange` whenever the setting may have changed: in this tab, another tab (storage), or the browser's permission. */
export function subscribeToNotificationSetting(onChange: () => void): () => void {
  window.addEventListener(changed, onChange);
  window.addEventListener("storage", onChange);
  window.addEventListener("focus", onChange);
  return () => {
    window.removeEventListener(changed, onChange);
    window.removeEventListener("storage", onChange);
    window.removeEventListener("focus", onChange);
  };
}
