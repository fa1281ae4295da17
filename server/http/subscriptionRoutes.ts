/**
 * Webhook subscriptions over REST, for operators: make one (answered with its signing secret, this once), list them,
 * delete one, and read one's recent deliveries. The app does the same through tRPC (server/trpc/routers/subscriptions.ts);
 * both call the notifications' commands and queries.
 */
import { Hono } from "hono";
import { describeZodError } from "../lib/zodIssues";
import type { Notifications } from "../notifications/notifications";
import { CreateSubscriptionBody, DeliveryListQuery } from "../notifications/schemas";
import { HttpError, readBody } from "./errors";
import type { GuardEnv } from "./guard";
import { subscriptionPaths as paths } from "./paths";

export function subscriptionRoutes(notifications: Pick<Notifications, "commands" | "queries">): Hono<GuardEnv> {
  const { commands, queries } = notifications;
  const app = new Hono<GuardEnv>();
  app.post(paths.subscriptions.pattern, async (c) => c.json(await commands.createSubscription(c.get("identity"), await readBody(c, CreateSubscriptionBody)), 201));
  app.get(paths.subscriptions.pattern, async (c) => c.json(await queries.listSubscriptions()));
  app.delete(paths.subscription.pattern, async (c) => c.json(await commands.deleteSubscription(c.req.param("id"))));
  app.get(paths.deliveries.pattern, async (c) => {
    const query = DeliveryListQuery.safeParse(c.req.query());
    if (!query.success) throw new HttpError(400, "invalid_query", describeZodError(query.error));
    return c.json(await queries.deliveries(c.req.param("id"), query.data.limit));
  });
  return app;
}
