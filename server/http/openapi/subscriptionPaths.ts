/**
 * Webhook subscriptions (server/http/subscriptionRoutes.ts): what operators subscribe to, and how its deliveries went.
 * What a subscriber receives is the `NotificationPayload` component, described here with how to verify it.
 */
import { NOTIFICATION_EVENTS } from "../../notifications/schemas";
import { subscriptionPaths as paths } from "../paths";
import { type Tag, answer, body, invalidJson400, listOf, pathParam, queryParam, ref, refusals, tagged } from "./operations";

export const subscriptionTag: Tag = {
  name: "subscriptions",
  description:
    "Webhooks to your own systems when a decision waits, is assigned, comes due, is overdue or is taken, and when a run completes, fails or is cancelled. " +
    "Each delivery POSTs a `NotificationPayload` (see Schemas) signed per Standard Webhooks with the subscription's secret: the `webhook-signature` header is " +
    '`v1,` and base64 of HMAC-SHA256, keyed by the secret\'s bytes after `whsec_` (base64), over `"{webhook-id}.{webhook-timestamp}.{body}"`. ' +
    "Only a 2xx answer delivers it; anything else is tried again with backoff (NOTIFY_MAX_ATTEMPTS in all). `webhook-id` is the event's id: the same in every attempt.",
};

const idParam = pathParam("id", "The subscription's id.", "uuid");

export function subscriptionPathItems() {
  return tagged(subscriptionTag, {
    [paths.subscriptions.openapi]: {
      post: {
        operationId: "createSubscription", summary: "Subscribe a URL to events",
        description:
          `The events to choose from: ${NOTIFICATION_EVENTS.map((e) => `\`${e}\``).join(", ")}. The URL must be one the outbound-address policy allows ` +
          "(OUTBOUND_ALLOW; never this server's own routes); a host name is judged again, on its addresses, at every delivery. " +
          "The answer carries the secret that signs the deliveries, this once: keep it.",
        requestBody: body("CreateSubscriptionBody", { url: "https://hooks.example.com/stitch", events: ["decision.waiting", "run.failed"] }),
        responses: {
          201: answer("The subscription, with its signing secret.", ref("CreatedSubscription")),
          ...refusals({ 400: `${invalidJson400} Or a body that does not validate (no events, an unknown event), or a URL that is not absolute http(s), carries a user name or password, or that the outbound-address policy refuses (the message says why).` }),
        },
      },
      get: {
        operationId: "listSubscriptions", summary: "Every subscription",
        description: "Newest first, without their secrets.",
        responses: { 200: answer("The subscriptions.", listOf("Subscription")) },
      },
    },
    [paths.subscription.openapi]: {
      delete: {
        operationId: "deleteSubscription", summary: "Delete a subscription",
        description: "Its deliveries go with it: what was not delivered yet never will be.",
        parameters: [idParam],
        responses: { 200: answer("The subscription deleted.", ref("Subscription")), ...refusals({ 404: "No subscription with this id." }) },
      },
    },
    [paths.deliveries.openapi]: {
      get: {
        operationId: "listSubscriptionDeliveries", summary: "A subscription's recent deliveries",
        description: "Newest first: each event's delivery with its status, attempts, the last answer's HTTP status and time, and the payload it carries.",
        parameters: [idParam, queryParam("limit", "How many deliveries, at most.", { type: "integer", minimum: 1, maximum: 200, default: 50 })],
        responses: {
          200: answer("The deliveries.", ref("DeliveryList")),
          ...refusals({ 400: "`invalid_query`: `limit` is not a whole number from 1 to 200.", 404: "No subscription with this id." }),
        },
      },
    },
  });
}
