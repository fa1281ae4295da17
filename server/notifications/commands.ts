/**
 * What operators and people change about notifications: operators make and delete webhook subscriptions (REST and
 * tRPC both come here, so one rule holds whichever door is used); each person turns their own email on or off.
 */
import { randomBytes } from "node:crypto";
import type { Database } from "../../db/client";
import { nameAuditTarget } from "../audit/scope";
import { isUuid } from "../lib/uuid";
import { setEmailNotifications } from "../people/store";
import type { Identity } from "../people/schemas";
import { NotificationError } from "./errors";
import { type CreateSubscriptionBody, type CreatedSubscription, type EmailPreference, NOTIFICATION_EVENTS, type Subscription } from "./schemas";
import * as store from "./store";

export interface NotificationCommandOptions {
  /**
   * Why a subscription's URL may not be stored (the outbound-address policy, judged without resolving anything: an
   * address it refuses, or this server's own routes), or undefined when it may. The host a name resolves to is judged
   * again at every delivery.
   */
  refuseUrl(url: string): string | undefined;
  /** Whether this server sends email (SMTP_URL), told with a person's preference. */
  emailConfigured: boolean;
}

/** A subscription's secret: `whsec_` and 24 random bytes in base64, as Standard Webhooks libraries expect it. */
const newSigningSecret = () => `whsec_${randomBytes(24).toString("base64")}`;

export const notFound = (id: string) => new NotificationError("not_found", `no subscription with id "${id}"`);

/** The account a person's preference belongs to; the bootstrap token is no account. */
export function accountOf(identity: Identity): string {
  if (identity.accountId === null) throw new NotificationError("bad_request", "email preferences belong to accounts: sign in as an account to change yours");
  return identity.accountId;
}

export class NotificationCommands {
  constructor(
    private readonly database: Database,
    private readonly options: NotificationCommandOptions,
  ) {}

  /** A new subscription, answered with its signing secret: this once, never again. */
  async createSubscription(by: Identity, body: CreateSubscriptionBody): Promise<CreatedSubscription> {
    const url = body.url.trim();
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new NotificationError("bad_request", `url: "${url}" is not an absolute URL such as https://hooks.example.com/stitch`);
    }
    if (parsed.username || parsed.password) throw new NotificationError("bad_request", "url: must not carry a user name or password; verify deliveries by their signature instead");
    const refusal = this.options.refuseUrl(url);
    if (refusal) throw new NotificationError("bad_request", `url: refused by the outbound-address policy (OUTBOUND_ALLOW): ${refusal}`);
    // In the order the product lists them, each once, however the request listed them.
    const events = NOTIFICATION_EVENTS.filter((type) => body.events.includes(type));
    const secret = newSigningSecret();
    const row = await this.database.transaction(async (tx) => {
      const inserted = await store.insertSubscription(tx, { url, events, secret, createdById: by.accountId, createdByName: by.name });
      nameAuditTarget("subscription", inserted.id);
      return inserted;
    });
    return { ...store.subscriptionOf(row), secret };
  }

  /** Deletes the subscription with its deliveries: what was not sent yet never will be. */
  async deleteSubscription(id: string): Promise<Subscription> {
    const row = isUuid(id) ? await this.database.transaction((tx) => store.deleteSubscription(tx, id)) : undefined;
    if (!row) throw notFound(id);
    return store.subscriptionOf(row);
  }

  /** The caller's own choice: email about their decisions and runs, or none. */
  async setEmailNotifications(by: Identity, enabled: boolean): Promise<EmailPreference> {
    const accountId = accountOf(by);
    const row = await this.database.transaction(async (tx) => {
      nameAuditTarget("account", accountId);
      return setEmailNotifications(tx, accountId, enabled);
    });
    if (!row) throw new NotificationError("not_found", `no account with id "${accountId}"`);
    return { email_notifications: row.emailNotifications, email_configured: this.options.emailConfigured, email: row.email };
  }
}
