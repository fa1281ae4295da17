/**
 * The events a subscription may choose, in the server's order, each with what it means for a person. A Record over
 * the server's event type, so an event added on the server fails the build here until it is described.
 */
import type { DeliveryStatus, NotificationEventType } from "../../../lib/trpc";
import type { Tone } from "../../../components/StatusPill";

export const eventDescriptions: Record<NotificationEventType, string> = {
  "decision.waiting": "a run waits for a person's decision",
  "decision.assigned": "a decision is assigned to someone, or to a role",
  "decision.due_soon": "a decision's due time is near",
  "decision.overdue": "a decision's due time has passed",
  "decision.undecidable": "nobody can take a waiting decision (operators are emailed)",
  "decision.decided": "a decision is taken",
  "run.completed": "a run completes",
  "run.failed": "a run fails",
  "run.cancelled": "a run is cancelled",
};

export const notificationEvents = Object.keys(eventDescriptions) as NotificationEventType[];

export const deliveryTone: Record<DeliveryStatus, Tone> = { pending: "info", delivered: "success", failed: "danger" };
export const deliveryLabel: Record<DeliveryStatus, string> = { pending: "Pending", delivered: "Delivered", failed: "Failed" };

/** "250 ms", "1.4 s". */
export function formatDuration(ms: number | null): string {
  if (ms === null) return "—";
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}
