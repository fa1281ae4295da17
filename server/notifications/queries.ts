/** What operators read about subscriptions (never a secret), and what a person reads of their own email preference. */
import type { Database } from "../../db/client";
import { isUuid } from "../lib/uuid";
import { emailPreferenceOf } from "../people/store";
import type { Identity } from "../people/schemas";
import { accountOf, notFound } from "./commands";
import { NotificationError } from "./errors";
import type { DeliveryList, EmailPreference, Subscription } from "./schemas";
import * as store from "./store";

export class NotificationQueries {
  constructor(
    private readonly database: Database,
    private readonly options: { emailConfigured: boolean },
  ) {}

  /** Every subscription, newest first. */
  async listSubscriptions(): Promise<Subscription[]> {
    return (await this.database.run((db) => store.listSubscriptions(db))).map(store.subscriptionOf);
  }

  /** A subscription's most recent deliveries, newest first, each with its status, last answer and payload. */
  async deliveries(subscriptionId: string, limit: number): Promise<DeliveryList> {
    const subscription = isUuid(subscriptionId) ? await this.database.run((db) => store.subscriptionById(db, subscriptionId)) : undefined;
    if (!subscription) throw notFound(subscriptionId);
    return { items: await this.database.run((db) => store.listDeliveries(db, subscriptionId, limit)) };
  }

  async emailPreference(by: Identity): Promise<EmailPreference> {
    const accountId = accountOf(by);
    const row = await this.database.run((db) => emailPreferenceOf(db, accountId));
    if (!row) throw new NotificationError("not_found", `no account with id "${accountId}"`);
    return { email_notifications: row.emailNotifications, email_configured: this.options.emailConfigured, email: row.email };
  }
}
