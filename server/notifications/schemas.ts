/**
 * What the product tells the outside when something happens to a decision or a run: the events webhook subscriptions
 * choose from and emails are sent for. Defined once here; the payload a subscriber receives is `NotificationPayload`,
 * small and stable (its JSON schema is in the OpenAPI document).
 */
import { z } from "zod";

export const NOTIFICATION_EVENTS = [
  "decision.waiting",
  "decision.assigned",
  "decision.due_soon",
  "decision.overdue",
  "decision.decided",
  "run.completed",
  "run.failed",
  "run.cancelled",
] as const;
export const NotificationEventType = z.enum(NOTIFICATION_EVENTS);
export type NotificationEventType = z.infer<typeof NotificationEventType>;

/** Who a decision is for: an account (by id, with its name then) or everyone with a role. */
export const NotifiedAssignee = z.object({ kind: z.enum(["account", "role"]), id: z.string().uuid().nullable(), name: z.string().nullable(), role: z.string() });

/** The decision an event is about, as a subscriber sees it. */
export const NotifiedDecision = z.object({
  id: z.string().uuid(),
  kind: z.string(),
  title: z.string(),
  front_door: z.string(),
  run_id: z.string(),
  state: z.string(),
  due_at: z.string().nullable(),
  assignee: NotifiedAssignee,
  outcome: z.string().nullable(),
  decided_by: z.string().nullable(),
});

/** The run an event is about. `started_by`: the account that started it (its analyst), told when it completes or fails. */
export const NotifiedRun = z.object({
  front_door: z.string(),
  run_id: z.string(),
  title: z.string(),
  status: z.string(),
  started_by: z.object({ id: z.string().uuid().nullable(), name: z.string().nullable() }).nullable(),
});

/**
 * One event, as the code that saw it happen hands it to the notifier inside its own transaction (so it is sent if
 * and only if the change commits). `decision` for decision.* events, `run` for run.* events.
 */
export const NotificationEvent = z.discriminatedUnion("type", [
  z.object({ type: z.enum(["decision.waiting", "decision.assigned", "decision.due_soon", "decision.overdue", "decision.decided"]), decision: NotifiedDecision, reason: z.string().optional() }),
  z.object({ type: z.enum(["run.completed", "run.failed", "run.cancelled"]), run: NotifiedRun, reason: z.string().optional() }),
]);
export type NotificationEvent = z.infer<typeof NotificationEvent>;
