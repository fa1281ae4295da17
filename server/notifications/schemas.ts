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
  "decision.undecidable",
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
  z.object({ type: z.enum(["decision.waiting", "decision.assigned", "decision.due_soon", "decision.overdue", "decision.undecidable", "decision.decided"]), decision: NotifiedDecision, reason: z.string().optional() }),
  z.object({ type: z.enum(["run.completed", "run.failed", "run.cancelled"]), run: NotifiedRun, reason: z.string().optional() }),
]);
export type NotificationEvent = z.infer<typeof NotificationEvent>;

const DecisionEventType = NotificationEventType.extract(["decision.waiting", "decision.assigned", "decision.due_soon", "decision.overdue", "decision.undecidable", "decision.decided"]);
const RunEventType = NotificationEventType.extract(["run.completed", "run.failed", "run.cancelled"]);

/** Where a person (`app`, the web app's page) and a program (`api`, the REST resource) find what the event is about. */
export const NotificationLinks = z.object({
  app: z.string().describe("The page of the app: the decision in the reviewer's inbox, or the run."),
  api: z.string().describe("The REST resource: GET it with an API token for the whole of it."),
});

const payloadFields = {
  id: z.string().uuid().describe("The event's id, the same in every delivery of it (and its `webhook-id` header): a receiver that saw it already can ignore it."),
  occurred_at: z.string().describe("When it happened (ISO 8601)."),
  title: z.string().describe("What it is about, for a person: the decision's or the run's title."),
  reason: z.string().optional().describe("Why, when the event has a reason (a run's failure, a cancellation's reason)."),
  links: NotificationLinks,
};

/**
 * What a webhook subscriber receives, the JSON body of every delivery: small and stable. New fields may be added;
 * none is removed or changes meaning. Defined once here; the OpenAPI document carries its JSON schema.
 */
export const NotificationPayload = z
  .discriminatedUnion("type", [
    z.object({ type: DecisionEventType, ...payloadFields, decision: NotifiedDecision }),
    z.object({ type: RunEventType, ...payloadFields, run: NotifiedRun }),
  ])
  .describe("The body of every webhook delivery: the event's type and id, what it is about (`decision` or `run`), its title and links to the app.");
export type NotificationPayload = z.infer<typeof NotificationPayload>;

// ---- Webhook subscriptions ------------------------------------------------------------------------------------

export const CreateSubscriptionBody = z
  .object({
    url: z.string().trim().min(1, "must not be empty").max(2000).describe("Where deliveries are POSTed: an http or https URL the outbound-address policy allows."),
    events: z.array(NotificationEventType).min(1, "choose at least one event").max(NOTIFICATION_EVENTS.length * 2).describe("The events to receive."),
  })
  .strict();
export type CreateSubscriptionBody = z.infer<typeof CreateSubscriptionBody>;

export const Subscription = z.object({
  id: z.string().uuid(),
  url: z.string(),
  events: z.array(NotificationEventType),
  created_at: z.string(),
  created_by: z.string().nullable().describe("Who made it (an account's name, or `bootstrap token`)."),
});
export type Subscription = z.infer<typeof Subscription>;

/** A subscription as it is answered once, when made: with the secret that signs its deliveries. */
export const CreatedSubscription = Subscription.extend({
  secret: z.string().describe("`whsec_` and base64 of 24 random bytes: verify each delivery's `webhook-signature` with it. Shown in this answer only."),
});
export type CreatedSubscription = z.infer<typeof CreatedSubscription>;

export const DeliveryStatus = z.enum(["pending", "delivered", "failed"]);
export type DeliveryStatus = z.infer<typeof DeliveryStatus>;

/** One event's delivery to one subscription: its series of attempts and how the last one went. */
export const Delivery = z.object({
  id: z.string().uuid(),
  event_id: z.string().uuid(),
  event_type: NotificationEventType,
  status: DeliveryStatus.describe("`pending` (not yet delivered; tried again at `next_attempt_at`), `delivered` (a 2xx answer), `failed` (every attempt failed)."),
  attempts: z.number().int(),
  response_status: z.number().int().nullable().describe("The HTTP status of the last attempt; null when none came (a network error, a timeout)."),
  response_ms: z.number().int().nullable().describe("How long the last attempt took, in milliseconds."),
  last_error: z.string().nullable(),
  created_at: z.string(),
  last_attempt_at: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  payload: NotificationPayload,
});
export type Delivery = z.infer<typeof Delivery>;

export const DeliveryList = z.object({ items: z.array(Delivery).describe("Newest first.") });
export type DeliveryList = z.infer<typeof DeliveryList>;

export const DeliveryListQuery = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) });

/** A person's own choice about email (and whether this server sends any: SMTP_URL). */
export const EmailPreference = z.object({
  email_notifications: z.boolean(),
  email_configured: z.boolean().describe("Whether this server sends email at all (SMTP_URL is set)."),
  email: z.string().nullable(),
});
export type EmailPreference = z.infer<typeof EmailPreference>;

export const SetEmailPreferenceBody = z.object({ enabled: z.boolean() }).strict();
