/**
 * The notifications assembled: the notifier the product emits events to, the deliverer that sends them (started and
 * stopped with the server), the engine observer that tells every run's end, and the commands and queries of the doors.
 */
import type { Database } from "../../db/client";
import type { Engine } from "../engine/engine";
import { NotificationCommands } from "./commands";
import { Deliverer, type DelivererOptions } from "./deliverer";
import { smtpMailer } from "./mailer";
import { type NotificationLinkBuilder, Notifier } from "./notifier";
import { NotificationQueries } from "./queries";
import { runEndObserver } from "./runEnds";

export interface Notifications {
  /** `notifier.emit(tx, event)`: what the rest of the product calls, inside its own transaction. */
  notifier: Notifier;
  deliverer: Deliverer;
  commands: NotificationCommands;
  queries: NotificationQueries;
}

export interface NotificationsOptions {
  links: NotificationLinkBuilder;
  /** SMTP_URL and SMTP_FROM; undefined: no email. */
  smtp?: { url: string; from: string };
  /** Why a subscription's URL may not be stored, judged without resolving (the outbound-address policy). */
  refuseUrl(url: string): string | undefined;
  deliverer: Omit<DelivererOptions, "mailer">;
}

export function installNotifications(database: Database, engine: Engine, options: NotificationsOptions): Notifications {
  const mailer = options.smtp ? smtpMailer({ ...options.smtp, timeoutMs: options.deliverer.timeoutMs }) : undefined;
  const deliverer = new Deliverer(database, { ...options.deliverer, ...(mailer ? { mailer } : {}) });
  const notifier = new Notifier(database, { links: options.links, email: mailer !== undefined, onEmit: () => deliverer.wake() });
  engine.observe(runEndObserver(notifier));
  const emailConfigured = mailer !== undefined;
  return {
    notifier,
    deliverer,
    commands: new NotificationCommands(database, { refuseUrl: options.refuseUrl, emailConfigured }),
    queries: new NotificationQueries(database, { emailConfigured }),
  };
}
