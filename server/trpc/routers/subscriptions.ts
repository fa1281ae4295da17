/**
 * Notifications for the app: operators' webhook subscriptions (the same commands and queries as /api/subscriptions),
 * and each signed-in person's own email preference (`me`).
 */
import { z } from "zod";
import { CreateSubscriptionBody, DeliveryListQuery, SetEmailPreferenceBody } from "../../notifications/schemas";
import { analystProcedure, operatorProcedure, router } from "../trpc";

const SubscriptionRef = z.object({ subscriptionId: z.string().min(1).max(200) });

export const subscriptionsRouter = router({
  list: operatorProcedure.query(({ ctx }) => ctx.notifications.queries.listSubscriptions()),
  /** The signing secret is in this answer only. */
  create: operatorProcedure.input(CreateSubscriptionBody).mutation(({ ctx, input }) => ctx.notifications.commands.createSubscription(ctx.identity, input)),
  delete: operatorProcedure.input(SubscriptionRef).mutation(({ ctx, input }) => ctx.notifications.commands.deleteSubscription(input.subscriptionId)),
  deliveries: operatorProcedure
    .input(SubscriptionRef.extend(DeliveryListQuery.partial().shape))
    .query(({ ctx, input }) => ctx.notifications.queries.deliveries(input.subscriptionId, DeliveryListQuery.parse({ limit: input.limit }).limit)),
});

export const meRouter = router({
  /** Whether I get email about my decisions and runs, and whether this server sends any. */
  emailPreference: analystProcedure.query(({ ctx }) => ctx.notifications.queries.emailPreference(ctx.identity)),
  setEmailNotifications: analystProcedure.input(SetEmailPreferenceBody).mutation(({ ctx, input }) => ctx.notifications.commands.setEmailNotifications(ctx.identity, input.enabled)),
});
