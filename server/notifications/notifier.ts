/**
 * The one way the product tells the outside that something happened: `Notifier.emit(tx, event)`, called by the code
 * that saw it happen, inside its own transaction. In that transaction it records the event with the payload every
 * subscriber receives, writes one webhook delivery per subscription that wants the event's type, and, when this
 * server sends email, one email per person to tell; so all of it exists if and only if the change commits, and it is
 * written once whichever process made the change. Sending is the deliverer's (deliverer.ts), from these rows.
 *
 * Who is emailed:
 * - decision.waiting, .assigned, .due_soon, .overdue: the assignee, an account, or else every account whose role is
 *   exactly the decision's role (those who would find it in "for my role");
 * - decision.undecidable: the operators, who can invite someone, assign it or change the policy;
 * - run.completed, run.failed: the account that started the run (its analyst);
 * - decision.decided, run.cancelled: nobody (webhooks only): a person who decided or cancelled knows it already;
 * always skipping accounts that are disabled, have not accepted their invitation, or turned email off.
 */
import { randomUUID } from "node:crypto";
import type { Database, Executor } from "../../db/client";
import { type EmailedEvent, renderEmail } from "./emails";
import { NotificationEvent, type NotificationPayload } from "./schemas";
import * as store from "./store";

/** Where an event's links point: the app's pages and the REST resources, built by whoever knows both (server/app.ts). */
export interface NotificationLinkBuilder {
  decision(decisionId: string): { app: string; api: string };
  /** `frontDoor`: pipeline, yaml, steps or flow; `runId`: that front door's id of the run. */
  run(frontDoor: string, runId: string): { app: string; api: string };
  /** The app's page where a person turns email off. */
  settings: string;
}

export interface NotifierOptions {
  links: NotificationLinkBuilder;
  /** Whether this server sends email (SMTP_URL): without it no email is written, as none would ever be sent. */
  email: boolean;
  /**
   * Called when an event left something to send, so this process's deliverer looks at once. Inside the transaction:
   * on PGlite the deliverer's claim waits for the transaction (one connection, every statement in turn), and on
   * PostgreSQL the NOTIFY sent at commit wakes every process's deliverer, this one's again.
   */
  onEmit?: () => void;
}

const EMAILED = new Set(["decision.waiting", "decision.assigned", "decision.due_soon", "decision.overdue", "decision.undecidable", "run.completed", "run.failed"]);
const isEmailed = (payload: NotificationPayload): payload is EmailedEvent => EMAILED.has(payload.type);

export class Notifier {
  constructor(
    private readonly database: Pick<Database, "kind">,
    private readonly options: NotifierOptions,
  ) {}

  /**
   * Records `event` and what it is to be sent as, inside the caller's transaction `tx`. An event that does not fit
   * NotificationEvent is a programming error of the caller: it throws, and the caller's transaction rolls back.
   */
  emit(tx: Executor, event: NotificationEvent): Promise<void> {
    return this.emitAll(tx, [event]);
  }

  /** Records several events as `emit` records one, their events and webhook deliveries in one statement, in order. */
  async emitAll(tx: Executor, events: readonly NotificationEvent[]): Promise<void> {
    if (events.length === 0) return;
    const payloads = events.map((event) => this.payloadOf(NotificationEvent.parse(event)));
    const deliveries = await store.insertEvents(tx, payloads);
    const emails: store.NewEmail[] = [];
    if (this.options.email) for (const payload of payloads) if (isEmailed(payload)) emails.push(...(await this.emailsFor(tx, payload)));
    await store.insertEmails(tx, emails);
    if (deliveries + emails.length === 0) return;
    if (this.database.kind === "postgres") await store.notifyDeliverers(tx);
    this.options.onEmit?.();
  }

  /** The payload subscribers receive: the event, its id and time, its title and its links. */
  private payloadOf(event: NotificationEvent): NotificationPayload {
    const base = { id: randomUUID(), occurred_at: new Date().toISOString(), ...(event.reason ? { reason: event.reason } : {}) };
    if ("decision" in event) return { ...base, type: event.type, title: event.decision.title, decision: event.decision, links: this.options.links.decision(event.decision.id) };
    return { ...base, type: event.type, title: event.run.title, run: event.run, links: this.options.links.run(event.run.front_door, event.run.run_id) };
  }

  private async emailsFor(tx: Executor, payload: EmailedEvent): Promise<store.NewEmail[]> {
    let recipients: store.Recipient[];
    if (payload.type === "decision.undecidable") {
      recipients = await store.emailRecipients(tx, { role: "operator" });
    } else if ("decision" in payload) {
      const { assignee } = payload.decision;
      recipients = await store.emailRecipients(tx, assignee.kind === "account" && assignee.id ? { accountId: assignee.id } : { role: assignee.role });
    } else {
      const starter = payload.run.started_by?.id;
      recipients = starter ? await store.emailRecipients(tx, { accountId: starter }) : [];
    }
    return recipients.map((r) => {
      const { subject, body } = renderEmail(payload, r.name, this.options.links.settings);
      return { eventId: payload.id, accountId: r.accountId, to: r.email, subject, body };
    });
  }
}
