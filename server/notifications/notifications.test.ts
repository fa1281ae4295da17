/**
 * Notifications through the real server on every test database: webhook subscriptions made over REST receive every
 * event type they chose, signed so that an independent Standard Webhooks implementation (the `standardwebhooks`
 * package) verifies each delivery; a subscription gets only its events; a receiver answering 500 is tried again until
 * it answers 2xx, and given up after the last attempt; several deliverers on one database send each event once;
 * deleting a subscription stops its deliveries; nothing is sent for a change that rolls back. Email goes through a
 * real SMTP server on 127.0.0.1 (the `smtp-server` package) to the people the event is for, unless they turned it off.
 * No traffic leaves 127.0.0.1.
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rows } from "../../db/client";
import { parseOutboundAllow } from "../lib/outboundPolicy";
import { testDatabases } from "../testing/databases";
import { LOOPBACK_ALLOWED } from "../testing/harness";
import { graphOf, uxNode, workerNode } from "../testing/flows";
import { createPerson } from "../testing/people";
import { type TestSmtpServer, startSmtpServer } from "../testing/smtpServer";
import { holdWorker, routeByPath } from "../testing/stitchClient";
import { type ServerOnTestDatabase, serverOn } from "../testing/suite";
import { type ReceivedDispatch, type WorkerServer, eventually, startWorkerServer } from "../testing/workerServer";
import { Deliverer } from "./deliverer";
import { type CreatedSubscription, type Delivery, NOTIFICATION_EVENTS, type NotificationEvent, type NotificationPayload } from "./schemas";

type DecisionEvent = Extract<NotificationEvent, { decision: unknown }>;

const MAX_ATTEMPTS = 4;

/** A decision as the decisions module tells it to the notifier. */
const decision = (overrides: Partial<DecisionEvent["decision"]> = {}): DecisionEvent["decision"] => ({
  id: randomUUID(), kind: "review", title: "Review Requirements v1 of tool-library", front_door: "pipeline", run_id: "RUN_notify", state: "open",
  due_at: null, assignee: { kind: "role", id: null, name: null, role: "reviewer" }, outcome: null, decided_by: null, ...overrides,
});

/** Each path's own answer: `/flaky-<n>` answers 500 to its first two requests, `/down` always 503; anything else 200. */
function receiverBehaviour() {
  const seen = new Map<string, number>();
  return routeByPath({
    ...Object.fromEntries(["all", "failed-only", "pair", "deleted", "control", "rolled-back", "shared", "e2e", "decided", "ended-together"].map((path) => [path, holdWorker])),
    flaky: (dispatch, res) => {
      const count = (seen.get(dispatch.path!) ?? 0) + 1;
      seen.set(dispatch.path!, count);
      res.writeHead(count <= 2 ? 500 : 200).end(count <= 2 ? "not yet" : "{}");
    },
    down: (_dispatch, res) => void res.writeHead(503).end("down for maintenance"),
    slow: (_dispatch, res) => void setTimeout(() => res.writeHead(200).end("{}"), 15),
    worker: holdWorker,
  });
}

describe.each(testDatabases)("notifications on $name", (testDatabase) => {
  let env: ServerOnTestDatabase;
  let receiver: WorkerServer;
  let smtp: TestSmtpServer;

  beforeAll(async () => {
    receiver = await startWorkerServer(receiverBehaviour());
    smtp = await startSmtpServer();
    env = await serverOn(testDatabase, {
      SMTP_URL: smtp.url, SMTP_FROM: "Stitch <stitch@example.test>",
      NOTIFY_BACKOFF_MS: "50", NOTIFY_POLL_MS: "50", NOTIFY_TIMEOUT_MS: "5000", NOTIFY_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
    });
  });
  afterAll(async () => {
    await env?.close();
    await receiver?.close();
    await smtp?.close();
  });

  const subscribe = async (path: string, events: readonly string[] = NOTIFICATION_EVENTS) => {
    const answer = await env.api.post<CreatedSubscription>("/api/subscriptions", { url: `${receiver.url}/${path}`, events });
    expect(answer.status).toBe(201);
    return answer.body;
  };
  const emit = (event: NotificationEvent) => env.database.transaction((tx) => env.server.notifications.notifier.emit(tx, event));
  const receivedAt = (path: string) => receiver.received.filter((d) => d.path === `/${path}`);
  const payloadOf = (d: ReceivedDispatch) => JSON.parse(d.rawBody!) as NotificationPayload;
  const deliveriesOf = async (subscriptionId: string) => {
    const answer = await env.api.get<{ items: Delivery[] }>(`/api/subscriptions/${subscriptionId}/deliveries`);
    expect(answer.status).toBe(200);
    return answer.body.items;
  };
  const settled = (subscriptionId: string, count: number) =>
    eventually(async () => {
      const items = await deliveriesOf(subscriptionId);
      return items.length === count && items.every((d) => d.status !== "pending") ? items : undefined;
    }, 30_000, `${count} settled deliveries of ${subscriptionId}`);

  /** Runs a plain flow to its end: completed (its UX node completed), failed (its Worker called back failed), or cancelled. */
  /** A one-Worker flow run brought to its end by the Worker's callback or a cancellation (no person waits in it). */
  async function runTo(end: "completed" | "failed" | "cancelled", api = env.api) {
    const flow = await env.api.createFlow(graphOf([workerNode("work", `${receiver.url}/worker`)]), `notify ${end}`);
    const run = await api.startRun(flow.id);
    await env.api.waitForStatus(run.id, "work", "running");
    if (end === "completed") {
      expect((await env.api.callback(run.id, "work", { status: "completed", output: { ok: 1 } })).status).toBe(200);
    } else if (end === "failed") {
      expect((await env.api.callback(run.id, "work", { status: "failed", error: "the printer is on fire" })).status).toBe(200);
    } else {
      expect((await env.api.post(`/api/stitch/runs/${run.id}/cancel`, { reason: "not needed any more" })).status).toBe(200);
    }
    return run;
  }

  it("a run that waits for a person tells subscribers itself: the decision waiting, then decided, with who decided", async () => {
    const subscription = await subscribe("decided", ["decision.waiting", "decision.decided"]);
    const flow = await env.api.createFlow(graphOf([uxNode("ask")]), "notify a decision");
    const run = await env.api.startRun(flow.id);
    expect((await env.api.complete(run.id, "ask", { ok: 1 })).status).toBe(200);
    await settled(subscription.id, 2);
    // Other tests' runs wait for people too: this run's events, in order.
    const got = receivedAt("decided").map(payloadOf).filter((p) => "decision" in p && p.decision.run_id === run.id);
    expect(got.map((p) => p.type)).toEqual(["decision.waiting", "decision.decided"]);
    expect(got[1]).toMatchObject({ decision: { run_id: run.id, front_door: "flow", state: "decided", outcome: "complete", decided_by: "bootstrap token" } });
  });

  it("runs that end in one transaction (workers' answers applied as a batch) are each told once, under their own title", async () => {
    const subscription = await subscribe("ended-together", ["run.completed", "run.failed"]);
    const flow = await env.api.createFlow(graphOf([workerNode("work", `${receiver.url}/worker`)]), "notify together");
    const runs = await Promise.all([0, 1, 2].map(() => env.api.startRun(flow.id)));
    for (const run of runs) await env.api.waitForStatus(run.id, "work", "running");
    const answers = await env.server.engine.handleAll(
      runs.map((run, i) => ({
        runId: run.id,
        event: i === 2 ? { type: "callback" as const, key: "work", status: "failed" as const, error: "out of paper", attempt: 1 } : { type: "callback" as const, key: "work", status: "completed" as const, output: { i }, attempt: 1 },
      })),
    );
    expect(answers.filter((a) => a instanceof Error)).toEqual([]);
    await settled(subscription.id, 3);
    const told = receivedAt("ended-together").map(payloadOf).flatMap((p) => ("run" in p ? [{ type: p.type, runId: p.run.run_id, title: p.title, reason: p.reason }] : []));
    expect(told.sort((a, b) => runs.findIndex((r) => r.id === a.runId) - runs.findIndex((r) => r.id === b.runId))).toEqual([
      { type: "run.completed", runId: runs[0]!.id, title: `Flow "notify together" run ${runs[0]!.id.slice(0, 8)}`, reason: undefined },
      { type: "run.completed", runId: runs[1]!.id, title: `Flow "notify together" run ${runs[1]!.id.slice(0, 8)}`, reason: undefined },
      { type: "run.failed", runId: runs[2]!.id, title: `Flow "notify together" run ${runs[2]!.id.slice(0, 8)}`, reason: "work failed: out of paper" },
    ]);
  });

  it("delivers every event type, each signed so that Standard Webhooks verifies it, with its payload and links", async () => {
    const subscription = await subscribe("all");
    expect(subscription).toMatchObject({ url: `${receiver.url}/all`, events: [...NOTIFICATION_EVENTS], created_by: "bootstrap token" });
    expect(subscription.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(subscription.secret.slice(6), "base64")).toHaveLength(24);

    const decisions = new Map<string, DecisionEvent["decision"]>();
    for (const type of ["decision.waiting", "decision.assigned", "decision.due_soon", "decision.overdue", "decision.undecidable", "decision.decided"] as const) {
      const d = decision({ title: `Decision for ${type}`, ...(type === "decision.decided" ? { state: "decided", outcome: "approve", decided_by: "Rita" } : {}) });
      decisions.set(type, d);
      await emit({ type, decision: d, ...(type === "decision.overdue" ? { reason: "due an hour ago" } : type === "decision.undecidable" ? { reason: "nobody who can sign in is a reviewer" } : {}) });
    }
    const runs = { "run.completed": await runTo("completed"), "run.failed": await runTo("failed"), "run.cancelled": await runTo("cancelled") };

    const got = await eventually(async () => (receivedAt("all").length >= NOTIFICATION_EVENTS.length ? receivedAt("all") : undefined), 30_000, "every event at /all");
    expect(got.map((d) => payloadOf(d).type).sort()).toEqual([...NOTIFICATION_EVENTS].sort());
    const verifier = new Webhook(subscription.secret);
    const stranger = new Webhook(`whsec_${Buffer.alloc(24, 7).toString("base64")}`);
    for (const delivery of got) {
      const headers = { "webhook-id": String(delivery.headers["webhook-id"]), "webhook-timestamp": String(delivery.headers["webhook-timestamp"]), "webhook-signature": String(delivery.headers["webhook-signature"]) };
      expect(verifier.verify(delivery.rawBody!, headers)).toEqual(JSON.parse(delivery.rawBody!));
      expect(() => stranger.verify(delivery.rawBody!, headers)).toThrow();
      expect(() => verifier.verify(delivery.rawBody!.replace("}", ', "forged": true}'), headers)).toThrow();
      const payload = payloadOf(delivery);
      expect(headers["webhook-id"]).toBe(payload.id);
      expect(delivery.headers["content-type"]).toBe("application/json");
      if ("decision" in payload) {
        const sent = decisions.get(payload.type)!;
        expect(payload).toMatchObject({ title: sent.title, decision: sent, links: { app: `${env.server.url}/app/reviews?decision=${sent.id}`, api: `${env.server.url}/api/decisions/${sent.id}` } });
      } else {
        const run = runs[payload.type];
        expect(payload.run).toEqual({ front_door: "flow", run_id: run.id, title: `Flow "notify ${payload.run.status}" run ${run.id.slice(0, 8)}`, status: payload.type.slice(4), started_by: { id: null, name: "bootstrap token" } });
        expect(payload.links).toEqual({ app: `${env.server.url}/app/engine/runs/${run.id}`, api: `${env.server.url}/api/stitch/runs/${run.id}` });
      }
    }
    const byType = Object.fromEntries(got.map((d) => [payloadOf(d).type, payloadOf(d)]));
    expect(byType["decision.overdue"]!.reason).toBe("due an hour ago");
    expect(byType["run.failed"]!.reason).toBe("work failed: the printer is on fire");
    expect(byType["run.cancelled"]!.reason).toBe("not needed any more");

    const deliveries = await settled(subscription.id, NOTIFICATION_EVENTS.length);
    for (const d of deliveries) {
      expect(d).toMatchObject({ status: "delivered", attempts: 1, response_status: 200, last_error: null, next_attempt_at: null });
      expect(d.response_ms).toEqual(expect.any(Number));
      expect(d.delivered_at).toEqual(expect.any(String));
      expect(d.event_type).toBe(d.payload.type);
    }
  });

  it("a subscription gets only the events it chose", async () => {
    const only = await subscribe("failed-only", ["run.failed"]);
    const pair = await subscribe("pair", ["run.completed", "decision.waiting", "run.completed"]);
    expect(pair.events).toEqual(["decision.waiting", "run.completed"]);
    const failed = await runTo("failed");
    const completed = await runTo("completed");
    await emit({ type: "decision.waiting", decision: decision() });
    await emit({ type: "decision.decided", decision: decision({ state: "decided" }) });
    await settled(only.id, 1);
    await settled(pair.id, 2);
    expect(receivedAt("failed-only").map((d) => [payloadOf(d).type, "run" in payloadOf(d) ? (payloadOf(d) as { run: { run_id: string } }).run.run_id : null])).toEqual([["run.failed", failed.id]]);
    expect(receivedAt("pair").map((d) => payloadOf(d).type).sort()).toEqual(["decision.waiting", "run.completed"]);
    expect(receivedAt("pair").some((d) => JSON.stringify(payloadOf(d)).includes(completed.id))).toBe(true);
  });

  it("a receiver answering 500 is tried again, the same event each time, until it answers 2xx; one that never does is given up", async () => {
    const flaky = await subscribe("flaky", ["decision.waiting"]);
    const down = await subscribe("down", ["decision.waiting"]);
    const d = decision({ title: "Retried until answered" });
    await emit({ type: "decision.waiting", decision: d });

    const [delivered] = await settled(flaky.id, 1);
    expect(delivered).toMatchObject({ status: "delivered", attempts: 3, response_status: 200, last_error: null });
    const attempts = receivedAt("flaky");
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((a) => a.headers["webhook-id"])).size).toBe(1);
    expect(new Set(attempts.map((a) => a.rawBody)).size).toBe(1);
    expect(payloadOf(attempts[0]!)).toMatchObject({ type: "decision.waiting", decision: d });

    const [failed] = await settled(down.id, 1);
    expect(failed).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS, response_status: 503, delivered_at: null, next_attempt_at: null });
    expect(failed!.last_error).toBe(`HTTP 503 Service Unavailable: down for maintenance (gave up after ${MAX_ATTEMPTS} attempts)`);
    expect(receivedAt("down")).toHaveLength(MAX_ATTEMPTS);
  });

  it("several deliverers on one database (as several processes) send each event once", async () => {
    const subscription = await subscribe("slow", ["decision.due_soon"]);
    const options = {
      maxAttempts: MAX_ATTEMPTS, backoffMs: 50, timeoutMs: 5000, concurrency: 4, pollMs: 20, retentionDays: 30,
      outbound: { policy: parseOutboundAllow(LOOPBACK_ALLOWED) },
    };
    const others = [new Deliverer(env.database, options), new Deliverer(env.database, options)];
    await Promise.all(others.map((deliverer) => deliverer.start()));
    try {
      const count = 24;
      await Promise.all(Array.from({ length: count }, (_, i) => emit({ type: "decision.due_soon", decision: decision({ title: `Due soon ${i}` }) })));
      const deliveries = await settled(subscription.id, count);
      expect(deliveries.every((d) => d.status === "delivered" && d.attempts === 1)).toBe(true);
      const ids = receivedAt("slow").map((d) => String(d.headers["webhook-id"]));
      expect(ids).toHaveLength(count);
      expect(new Set(ids).size).toBe(count);
    } finally {
      await Promise.all(others.map((deliverer) => deliverer.stop()));
    }
  });

  it("deleting a subscription deletes its deliveries and nothing more is sent to it", async () => {
    const deleted = await subscribe("deleted", ["decision.assigned"]);
    const control = await subscribe("control", ["decision.assigned"]);
    await emit({ type: "decision.assigned", decision: decision({ title: "Before the deletion" }) });
    await settled(deleted.id, 1);

    const answer = await env.api.request("DELETE", `/api/subscriptions/${deleted.id}`);
    expect(answer).toMatchObject({ status: 200, body: { id: deleted.id, url: deleted.url } });
    expect(answer.body.secret).toBeUndefined();
    expect((await env.api.request("DELETE", `/api/subscriptions/${deleted.id}`)).status).toBe(404);
    expect((await env.api.get(`/api/subscriptions/${deleted.id}/deliveries`)).status).toBe(404);
    expect((await env.api.get<{ id: string }[]>("/api/subscriptions")).body.map((s) => s.id)).not.toContain(deleted.id);
    const [left] = await env.database.run((db) => rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM webhook_deliveries WHERE subscription_id = ${deleted.id}::uuid`));
    expect(left!.n).toBe(0);

    const after = decision({ title: "After the deletion" });
    await emit({ type: "decision.assigned", decision: after });
    await settled(control.id, 2);
    expect(receivedAt("control").map((d) => payloadOf(d).title)).toEqual(["Before the deletion", "After the deletion"]);
    expect(receivedAt("deleted").map((d) => payloadOf(d).title)).toEqual(["Before the deletion"]);
  });

  it("records nothing, and sends nothing, for a change that rolls back", async () => {
    const subscription = await subscribe("rolled-back", ["decision.waiting"]);
    const count = async () => (await env.database.run((db) => rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM notification_events`)))[0]!.n;
    const before = await count();
    await expect(
      env.database.transaction(async (tx) => {
        await env.server.notifications.notifier.emit(tx, { type: "decision.waiting", decision: decision({ title: "Never committed" }) });
        throw new Error("the change failed after the event");
      }),
    ).rejects.toThrow("the change failed after the event");
    expect(await count()).toBe(before);
    await emit({ type: "decision.waiting", decision: decision({ title: "Committed" }) });
    await settled(subscription.id, 1);
    expect(receivedAt("rolled-back").map((d) => payloadOf(d).title)).toEqual(["Committed"]);
  });

  it("emails the people an event is for, through a real SMTP server, unless they turned email off", async () => {
    const rita = await createPerson(env.server.people, "Rita Reviewer", "reviewer");
    const rudi = await createPerson(env.server.people, "Rudi Reviewer", "reviewer");
    const anna = await createPerson(env.server.people, "Anna Analyst", "analyst");
    const operator = await createPerson(env.server.people, "Olga Operator", "operator");
    // Rudi turns email off, through the app's procedure.
    const off = await fetch(`${env.server.url}/trpc/me.setEmailNotifications`, {
      method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${rudi.token}` }, body: JSON.stringify({ enabled: false }),
    });
    expect(off.status).toBe(200);
    expect(((await off.json()) as { result: { data: unknown } }).result.data).toEqual({ email_notifications: false, email_configured: true, email: rudi.email });
    const preference = await fetch(`${env.server.url}/trpc/me.emailPreference`, { headers: { authorization: `Bearer ${rita.token}` } });
    expect(((await preference.json()) as { result: { data: unknown } }).result.data).toEqual({ email_notifications: true, email_configured: true, email: rita.email });

    const mailTo = (email: string) => smtp.received.filter((m) => m.to.includes(email));
    const eventEmails = async (title: string) => {
      const found = await env.database.run((db) => rows<{ status: string; to_address: string }>(db, sql`
        SELECT m.status, m.to_address FROM email_outbox m JOIN notification_events e ON e.id = m.event_id WHERE e.payload->>'title' = ${title}`));
      return found;
    };
    const sentAll = (title: string, count: number) =>
      eventually(async () => {
        const found = await eventEmails(title);
        return found.length === count && found.every((m) => m.status === "sent") ? found : undefined;
      }, 30_000, `${count} emails about "${title}" sent`);

    // A decision for the reviewer role: every active reviewer who wants email, and nobody else.
    const forRole = decision({ title: "Review Inception v1 of tool-library" });
    await emit({ type: "decision.waiting", decision: forRole });
    const roleMails = await sentAll(forRole.title, (await env.database.run((db) => rows<{ n: number }>(db, sql`
      SELECT count(*)::int AS n FROM accounts WHERE role = 'reviewer' AND email_notifications AND disabled_at IS NULL AND password_hash IS NOT NULL`)))[0]!.n);
    expect(roleMails.map((m) => m.to_address)).toContain(rita.email);
    expect(roleMails.map((m) => m.to_address)).not.toContain(rudi.email);
    expect(roleMails.map((m) => m.to_address)).not.toContain(anna.email);
    expect(roleMails.map((m) => m.to_address)).not.toContain(operator.email);
    const [toRita] = mailTo(rita.email);
    expect(toRita).toMatchObject({ from: "stitch@example.test", subject: `Waiting for a reviewer: ${forRole.title}` });
    expect(toRita!.headers.from).toBe("Stitch <stitch@example.test>");
    expect(toRita!.text).toContain("Hello Rita Reviewer,");
    expect(toRita!.text).toContain(`"${forRole.title}" waits for a decision by anyone with the reviewer role.`);
    expect(toRita!.text).toContain(`Open it in Stitch: ${env.server.url}/app/reviews?decision=${forRole.id}`);
    expect(toRita!.text).toContain(`${env.server.url}/app/settings`);
    expect(mailTo(rudi.email)).toEqual([]);

    // Assigned to one account: that person alone; a decision taken: nobody by email.
    const assigned = decision({ title: "Review QA v3 of tool-library", assignee: { kind: "account", id: rita.accountId, name: rita.name, role: "reviewer" }, due_at: "2030-01-02T03:04:05.000Z" });
    await emit({ type: "decision.assigned", decision: assigned });
    await emit({ type: "decision.decided", decision: { ...assigned, state: "decided", outcome: "approve", decided_by: rita.name } });
    expect((await sentAll(assigned.title, 1)).map((m) => m.to_address)).toEqual([rita.email]);
    const assignedMail = mailTo(rita.email).find((m) => m.subject.includes(assigned.title))!;
    expect(assignedMail.subject).toBe(`Assigned to you: ${assigned.title}`);
    expect(assignedMail.text).toContain("It is due Wed, 02 Jan 2030 03:04:05 GMT.");

    // The analyst's run completes and fails: she is told; the bootstrap token's runs tell nobody by email.
    const annaApi = env.api.as(anna.token);
    const completed = await runTo("completed", annaApi);
    const failed = await runTo("failed", annaApi);
    const completedTitle = `Flow "notify completed" run ${completed.id.slice(0, 8)}`;
    const failedTitle = `Flow "notify failed" run ${failed.id.slice(0, 8)}`;
    await sentAll(completedTitle, 1);
    await sentAll(failedTitle, 1);
    const annas = mailTo(anna.email);
    expect(annas.map((m) => m.subject).sort()).toEqual([`Completed: ${completedTitle}`, `Failed: ${failedTitle}`]);
    const failure = annas.find((m) => m.subject.startsWith("Failed"))!;
    expect(failure.text).toContain("Reason: work failed: the printer is on fire");
    expect(failure.text).toContain(`Open it in Stitch: ${env.server.url}/app/engine/runs/${failed.id}`);

    // Turned back on: told again.
    const on = await fetch(`${env.server.url}/trpc/me.setEmailNotifications`, {
      method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${rudi.token}` }, body: JSON.stringify({ enabled: true }),
    });
    expect(on.status).toBe(200);
    const again = decision({ title: "Review Agile v1 of tool-library" });
    await emit({ type: "decision.overdue", decision: again });
    await eventually(async () => ((await eventEmails(again.title)).some((m) => m.to_address === rudi.email && m.status === "sent") ? true : undefined), 30_000, "Rudi's email");
    expect(mailTo(rudi.email).map((m) => m.subject)).toEqual([`Overdue: ${again.title}`]);
  });

  it("REST: operators only (401, 403), and bad input refused with 400 naming the problem", async () => {
    const analyst = await createPerson(env.server.people, "Ann Analyst", "analyst");
    const reviewer = await createPerson(env.server.people, "Rob Reviewer", "reviewer");
    const body = { url: `${receiver.url}/shared`, events: ["run.failed"] };
    const subscription = await subscribe("shared", ["run.failed"]);
    for (const [method, path] of [["POST", "/api/subscriptions"], ["GET", "/api/subscriptions"], ["DELETE", `/api/subscriptions/${subscription.id}`], ["GET", `/api/subscriptions/${subscription.id}/deliveries`]] as const) {
      expect((await env.api.as(null).request(method, path, body)).body).toMatchObject({ error: "unauthorized", required_role: "operator" });
      for (const person of [analyst, reviewer]) {
        const refused = await env.api.as(person.token).request(method, path, body);
        expect(refused, `${method} ${path} as ${person.role}`).toMatchObject({ status: 403, body: { error: "forbidden", required_role: "operator", role: person.role } });
      }
    }
    const refusal = async (payload: unknown) => {
      const answer = await env.api.post("/api/subscriptions", payload);
      expect(answer.status, JSON.stringify(payload)).toBe(400);
      return answer.body.message as string;
    };
    expect(await refusal({ url: `${receiver.url}/x`, events: [] })).toMatch(/events: choose at least one event/);
    expect(await refusal({ url: `${receiver.url}/x`, events: ["run.exploded"] })).toMatch(/^events\.0/);
    expect(await refusal({ events: ["run.failed"] })).toMatch(/^url/);
    expect(await refusal({ url: `${receiver.url}/x`, events: ["run.failed"], secret: "mine" })).toMatch(/secret/);
    expect(await refusal({ url: "hooks.example.com/stitch", events: ["run.failed"] })).toBe('url: "hooks.example.com/stitch" is not an absolute URL such as https://hooks.example.com/stitch');
    expect(await refusal({ url: "ftp://hooks.example.com/stitch", events: ["run.failed"] })).toBe("url: refused by the outbound-address policy (OUTBOUND_ALLOW): ftp: URLs are refused: only http and https");
    expect(await refusal({ url: "http://169.254.169.254/latest/meta-data/", events: ["run.failed"] })).toMatch(/^url: refused by the outbound-address policy \(OUTBOUND_ALLOW\): 169\.254\.169\.254 is a link-local or cloud-metadata address/);
    expect(await refusal({ url: `${env.server.url}/api/stitch/flows`, events: ["run.failed"] })).toMatch(/^url: refused by the outbound-address policy \(OUTBOUND_ALLOW\): .*this server/);
    expect(await refusal({ url: "https://user:pass@hooks.example.com/stitch", events: ["run.failed"] })).toMatch(/^url: must not carry a user name or password/);
    expect((await env.api.post("/api/subscriptions", "{not json")).body.error).toBe("invalid_json");
    expect((await env.api.get(`/api/subscriptions/${subscription.id}/deliveries?limit=0`)).status).toBe(400);
    expect((await env.api.get("/api/subscriptions/not-a-uuid/deliveries")).status).toBe(404);
    expect((await env.api.request("DELETE", "/api/subscriptions/not-a-uuid")).status).toBe(404);
    const listed = (await env.api.get<Record<string, unknown>[]>("/api/subscriptions")).body;
    expect(listed.find((s) => s.id === subscription.id)).toEqual({ id: subscription.id, url: body.url, events: ["run.failed"], created_at: expect.any(String), created_by: "bootstrap token" });
    expect(listed.every((s) => !("secret" in s))).toBe(true);

    // The audit trail names the subscription each change was about.
    const audit = (await env.api.get<{ entries: { action: string; target_kind: string; target_id: string; outcome: string }[] }>(`/api/audit?target=${subscription.id}`)).body.entries;
    expect(audit).toEqual(expect.arrayContaining([expect.objectContaining({ action: "subscriptions.create", target_kind: "subscription", outcome: "accepted" })]));
    expect(audit.filter((e) => e.action === "subscriptions.delete" && e.outcome === "refused").length).toBe(3); // no one, an analyst, a reviewer
  });
});
