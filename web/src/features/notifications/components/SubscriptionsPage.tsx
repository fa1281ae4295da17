/**
 * Webhook subscriptions, for operators: "Add a subscription" with a URL and the events to send to it, which answers
 * the signing secret once (the receiver verifies each delivery with it); the subscriptions with their events; and for
 * each, on request, its recent deliveries (event, status, HTTP status, response time, attempts, when), read again
 * every few seconds while shown, and "Delete", which asks first.
 */
import { type FormEvent, useId, useState } from "react";
import { EmptyState } from "../../../components/EmptyState";
import { ErrorNotice } from "../../../components/ErrorNotice";
import { Field } from "../../../components/Field";
import { ManagedListPage } from "../../../components/ManagedListPage";
import { ShownOnce } from "../../../components/ShownOnce";
import { Spinner } from "../../../components/Spinner";
import { Pill } from "../../../components/StatusPill";
import { SubmitButton } from "../../../components/SubmitButton";
import { Table } from "../../../components/Table";
import { errorMessage, fieldErrorsOf } from "../../../lib/errors";
import { formatDateTime, formatRelative, formatTime } from "../../../lib/time";
import type { Delivery, NewSubscription, NotificationEventType, Subscription } from "../../../lib/trpc";
import { useCreateSubscription, useDeleteSubscription, useDeliveries, useSubscriptions } from "../api/subscriptions";
import { deliveryLabel, deliveryTone, eventDescriptions, formatDuration, notificationEvents } from "../utils/events";
import "../notifications.css";

export function SubscriptionsPage() {
  return (
    <ManagedListPage
      className="notifications-page"
      title="Subscriptions"
      intro={
        <>
          Send events to your own systems: each delivery POSTs a small JSON payload (its schema is <code>NotificationPayload</code> in{" "}
          <a href="/docs">the API's documentation</a>) signed per Standard Webhooks with the subscription's secret. A delivery that is not answered with a
          2xx status is tried again with backoff.
        </>
      }
      form={<AddSubscriptionForm />}
      listTitle="Subscriptions"
      listId="subscriptions-title"
      sectionClassName="notifications-section"
    >
      <SubscriptionList />
    </ManagedListPage>
  );
}

function AddSubscriptionForm() {
  const create = useCreateSubscription();
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<Set<NotificationEventType>>(new Set());
  const [created, setCreated] = useState<NewSubscription | null>(null);
  const [missingEvents, setMissingEvents] = useState(false);
  const eventsHintId = useId();
  const errors = fieldErrorsOf(create.error);
  // The outbound-address policy's refusal is the server's, about the URL: shown under the URL's box.
  const refusal = create.error && !errors.url && errorMessage(create.error).startsWith("url: ") ? errorMessage(create.error).slice(5) : undefined;
  const urlError = errors.url ?? refusal;
  const eventsError = missingEvents ? "Choose at least one event." : errors.events;

  const toggle = (type: NotificationEventType, on: boolean) => {
    setMissingEvents(false);
    setEvents((current) => {
      const next = new Set(current);
      if (on) next.add(type);
      else next.delete(type);
      return next;
    });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending) return;
    if (events.size === 0) {
      setMissingEvents(true);
      return;
    }
    create.mutate(
      { url: url.trim(), events: notificationEvents.filter((type) => events.has(type)) },
      {
        onSuccess: (subscription) => {
          setCreated(subscription);
          setUrl("");
          setEvents(new Set());
        },
      },
    );
  };

  return (
    <section className="composer subscription-form" aria-labelledby="add-subscription-title">
      <h2 id="add-subscription-title" className="section-title">
        Add a subscription
      </h2>
      {created ? (
        <ShownOnce title={`Secret of the subscription to ${created.url}`} label={`Signing secret for ${created.url}`} value={created.secret} onDone={() => setCreated(null)}>
          <p>
            Give it to the receiver: it verifies each delivery's <code>webhook-signature</code> header with it (any Standard Webhooks library does). The server
            will not show it again.
          </p>
        </ShownOnce>
      ) : null}
      <form onSubmit={submit} aria-busy={create.isPending} noValidate>
        <Field
          label="URL"
          type="url"
          value={url}
          placeholder="https://hooks.example.com/stitch"
          autoComplete="off"
          error={urlError}
          hint="Where each event is POSTed: http or https."
          announce="alert"
          onChange={(event) => setUrl(event.target.value)}
        />
        <fieldset className="event-choices" aria-describedby={eventsHintId} aria-invalid={eventsError ? true : undefined}>
          <legend className="field-title">Events</legend>
          <div className="event-grid">
            {notificationEvents.map((type) => (
              <label key={type} className="event-choice">
                <input type="checkbox" checked={events.has(type)} onChange={(event) => toggle(type, event.target.checked)} />
                <span>
                  <code>{type}</code>
                  <span className="muted small event-meaning">{eventDescriptions[type]}</span>
                </span>
              </label>
            ))}
          </div>
          <p id={eventsHintId} className={eventsError ? "hint hint-error" : "hint"} role={eventsError ? "alert" : undefined}>
            {eventsError ?? "Only the events chosen are sent to this URL."}
          </p>
        </fieldset>
        <div className="composer-actions">
          <SubmitButton pending={create.isPending} disabled={!url.trim()}>
            Add subscription
          </SubmitButton>
        </div>
      </form>
      {create.error && !create.isPending && !urlError && !errors.events ? <ErrorNotice title="The subscription was not added" error={create.error} /> : null}
    </section>
  );
}

function SubscriptionList() {
  const subscriptions = useSubscriptions();
  if (subscriptions.isPending) {
    return (
      <p className="muted">
        <Spinner label="Loading subscriptions" /> Loading subscriptions…
      </p>
    );
  }
  if (subscriptions.isError && !subscriptions.data) return <ErrorNotice title="Subscriptions could not be loaded" error={subscriptions.error} />;
  if (subscriptions.data.length === 0) return <EmptyState title="No subscriptions yet">Add one above to send events to a URL.</EmptyState>;
  return (
    <ul className="card-list subscription-list" aria-label="Subscriptions">
      {subscriptions.data.map((subscription) => (
        <SubscriptionCard key={subscription.id} subscription={subscription} />
      ))}
    </ul>
  );
}

function SubscriptionCard({ subscription }: { subscription: Subscription }) {
  const remove = useDeleteSubscription();
  const [showDeliveries, setShowDeliveries] = useState(false);
  // Deleting cannot be undone: the first click asks, the second deletes.
  const [confirming, setConfirming] = useState(false);
  const deliveriesId = useId();
  const titleId = useId();
  return (
    <li className="subscription-card" aria-labelledby={titleId}>
      <div className="subscription-head">
        <div className="subscription-what">
          <h3 id={titleId} className="subscription-url">
            {subscription.url}
          </h3>
          <p className="muted small">
            Added{" "}
            <time dateTime={subscription.created_at} title={formatDateTime(subscription.created_at)}>
              {formatRelative(subscription.created_at)}
            </time>
            {subscription.created_by ? ` by ${subscription.created_by}` : ""}
          </p>
          <ul className="subscription-events" aria-label="Events">
            {subscription.events.map((type) => (
              <li key={type} className="tag">
                {type}
              </li>
            ))}
          </ul>
        </div>
        <div className="subscription-actions">
          <button
            type="button"
            className="button button-secondary button-small"
            aria-expanded={showDeliveries}
            aria-controls={showDeliveries ? deliveriesId : undefined}
            aria-label={`${showDeliveries ? "Hide" : "Show"} deliveries to ${subscription.url}`}
            onClick={() => setShowDeliveries((shown) => !shown)}
          >
            {showDeliveries ? "Hide deliveries" : "Deliveries"}
          </button>
          {confirming ? (
            <>
              <button type="button" className="button button-secondary button-small" disabled={remove.isPending} onClick={() => setConfirming(false)}>
                Keep
              </button>
              <button
                type="button"
                className="button button-danger button-small"
                disabled={remove.isPending}
                aria-busy={remove.isPending}
                aria-label={`Delete the subscription to ${subscription.url} for good`}
                onClick={() => remove.mutate({ subscriptionId: subscription.id }, { onSettled: () => setConfirming(false) })}
              >
                {remove.isPending ? <Spinner /> : null}
                Delete for good
              </button>
            </>
          ) : (
            <button type="button" className="button button-secondary button-small" aria-label={`Delete the subscription to ${subscription.url}`} onClick={() => setConfirming(true)}>
              Delete
            </button>
          )}
        </div>
      </div>
      {confirming ? <p className="muted small" role="status">Its deliveries go with it, and nothing more is sent to it.</p> : null}
      {remove.error && !remove.isPending ? <ErrorNotice title="The subscription was not deleted" error={remove.error} /> : null}
      {showDeliveries ? (
        <div id={deliveriesId}>
          <DeliveryList subscription={subscription} />
        </div>
      ) : null}
    </li>
  );
}

function DeliveryList({ subscription }: { subscription: Subscription }) {
  const deliveries = useDeliveries(subscription.id);
  if (deliveries.isPending) {
    return (
      <p className="muted">
        <Spinner label="Loading deliveries" /> Loading deliveries…
      </p>
    );
  }
  if (deliveries.isError && !deliveries.data) return <ErrorNotice title="Deliveries could not be loaded" error={deliveries.error} />;
  if (deliveries.data.items.length === 0) return <p className="muted small deliveries-empty">Nothing has been sent to it yet: deliveries appear here as events happen.</p>;
  return (
    <Table label={`Deliveries to ${subscription.url}`} className="deliveries-table" columns={["Event", "Status", "HTTP", "Response time", "Attempts", "When"]}>
      {deliveries.data.items.map((delivery) => (
        <DeliveryRow key={delivery.id} delivery={delivery} />
      ))}
    </Table>
  );
}

function DeliveryRow({ delivery }: { delivery: Delivery }) {
  const at = delivery.last_attempt_at ?? delivery.created_at;
  return (
    <tr aria-label={`${delivery.event_type}: ${delivery.payload.title}`}>
      <td className="delivery-event">
        <code>{delivery.event_type}</code>
        <span className="delivery-title small">{delivery.payload.title}</span>
        {delivery.last_error ? <span className="hint hint-error delivery-error">{delivery.last_error}</span> : null}
      </td>
      <td className="nowrap">
        <Pill tone={deliveryTone[delivery.status]}>{deliveryLabel[delivery.status]}</Pill>
        {delivery.next_attempt_at ? (
          <span className="muted small delivery-next">
            next try at{" "}
            <time dateTime={delivery.next_attempt_at} title={formatDateTime(delivery.next_attempt_at)}>
              {formatTime(delivery.next_attempt_at)}
            </time>
          </span>
        ) : null}
      </td>
      <td className="nowrap">{delivery.response_status ?? <span className="muted">none</span>}</td>
      <td className="nowrap">{formatDuration(delivery.response_ms)}</td>
      <td className="nowrap">{delivery.attempts}</td>
      <td className="nowrap">
        <time dateTime={at} title={formatDateTime(at)}>
          {formatRelative(at)}
        </time>
      </td>
    </tr>
  );
}
