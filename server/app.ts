/**
 * Wiring: database, engine, dispatcher and the HTTP front doors (REST for workers, tRPC for the app, the built SPA).
 * `startServer` is what `npm start` runs; tests and the benchmark start the same thing on their own ports.
 */
import { serve } from "@hono/node-server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { sql } from "drizzle-orm";
import { type Context, Hono } from "hono";
import { compress } from "hono/compress";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { type Database, openDatabase } from "../db/client";
import { type Config } from "./config";
import { ConfigError } from "./lib/configError";
import { Dispatcher } from "./engine/dispatcher";
import { Engine, EngineError, type RunOwner } from "./engine/engine";
import { installDecisions } from "./decisions/decisions";
import { installReview } from "./review/review";
import { flowDecisionHandler } from "./flows/commands";
import { installFlows } from "./flows/flows";
import { decisionRoutes } from "./http/decisionRoutes";
import { reviewRoutes } from "./http/reviewRoutes";
import { AuditTrail } from "./audit/trail";
import { auditedDatabase } from "./audit/auditedDatabase";
import { type GuardEnv, assertEveryRouteGuarded, guardRoutes, identify, requestOrigin } from "./http/guard";
import { peopleRoutes } from "./http/peopleRoutes";
import { type DrawApp, loadDrawing, webAppRoutes } from "./http/webAppRoutes";
import { isHttps } from "./http/sessionCookie";
import { installPeople } from "./people/people";
import { type Policy, installPolicy } from "./policy/policy";
import { builtinAgentRoutes } from "./http/builtinAgentRoutes";
import { docsRoutes } from "./http/docsRoutes";
import { healthRoutes } from "./http/healthRoutes";
import { errorResponse } from "./http/errors";
import { appPagePaths, builtinAgentPaths, decisionPaths, pipelinePaths, stitchPaths, trpcEndpoint, workflowPaths } from "./http/paths";
import { pipelineRoutes } from "./http/pipelineRoutes";
import { policyRoutes } from "./http/policyRoutes";
import { subscriptionRoutes } from "./http/subscriptionRoutes";
import { requestGuard } from "./http/requestGuard";
import { securityHeaders } from "./http/securityHeaders";
import { stitchRoutes } from "./http/stitchRoutes";
import { forkRoutes } from "./http/forkRoutes";
import { workflowRoutes } from "./http/workflowRoutes";
import { type OutboundPolicy, literalRefusal, outboundPolicyFromEnv } from "./lib/outboundPolicy";
import type { ResolveHost } from "./lib/policedFetch";
import { ownServerRule } from "./lib/ownServer";
import { ConversationMarkers } from "./engine/runChanges";
import { llmConfigFromEnv } from "./llm/chat";
import { defaultSender } from "./notifications/mailer";
import { type Notifications, installNotifications } from "./notifications/notifications";
import type { NotificationLinkBuilder } from "./notifications/notifier";
import { BuiltinAgents } from "./pipeline/agents/builtinWebhook";
import { defaultDefinitionPath, readDefinitionFile, resolveAgents } from "./pipeline/definition";
import { pipelineDecisionHandler, pipelineReviewSource } from "./pipeline/commands";
import { installPipeline } from "./pipeline/pipeline";
import type { AppContext, FrontDoors } from "./trpc/context";
import { pageQueries } from "./trpc/pageQueries";
import { appRouter } from "./trpc/router";
import { retryAfter } from "./trpc/trpc";
import { WORKFLOW_EXECUTOR } from "./workflows/compile";
import { workflowDoor } from "./workflows/door";
import { STEPS_EXECUTOR, installStepWorkflows } from "./workflows/steps/steps";
import { workflowDecisionHandler } from "./workflows/yaml/commands";
import { installYamlWorkflows } from "./workflows/yaml/workflows";

/** Everything the server runs: the front doors every request reaches (`FrontDoors`), and what runs beside them. */
export interface Services extends FrontDoors {
  config: Config;
  database: Database;
  dispatcher: Dispatcher;
  builtinAgents: BuiltinAgents;
  /** The instance's policy operators set (separation of duties where a definition is silent). */
  policy: Policy;
  /** Webhook subscriptions and email: `notifications.notifier.emit(tx, event)` tells the outside what happened. */
  notifications: Notifications;
  /** What start-up did with each file of WORKFLOWS_DIR. */
  workflowFiles: { file: string; outcome: string }[];
}

/** What tests may put in place of the real thing. */
export interface ServiceOverrides {
  /** Resolves the host names of Workers' and agents' webhooks (a stub, so that no test depends on real DNS). */
  outboundLookup?: ResolveHost;
}

/**
 * The outbound-address policy of Workers' and agents' webhooks: OUTBOUND_ALLOW, and none of this server's own
 * routes but the built-in agents (server/lib/ownServer.ts).
 */
function webhookPolicy(config: Config): OutboundPolicy {
  const ownServer = ownServerRule({ baseUrl: config.NEXT_PUBLIC_BASE_URL, port: config.PORT || undefined, workerRoutes: [builtinAgentPaths.agent.pattern] });
  return { ...outboundPolicyFromEnv(config.env), ownServer };
}

/**
 * The policy of webhook subscriptions' URLs: OUTBOUND_ALLOW, and none of this server's own routes at all (a
 * subscription is told about the server; it is never the server itself).
 */
function subscriptionPolicy(config: Config): OutboundPolicy {
  const ownServer = ownServerRule({ baseUrl: config.NEXT_PUBLIC_BASE_URL, port: config.PORT || undefined, workerRoutes: [] });
  return { ...outboundPolicyFromEnv(config.env), ownServer };
}

/** Where a notification's links point: the app's page and the REST resource of a decision or a run. */
function notificationLinks(baseUrl: string): NotificationLinkBuilder {
  const runPage = { pipeline: appPagePaths.pipelineRun, yaml: appPagePaths.workflowRun, steps: appPagePaths.stepRun } as const;
  return {
    decision: (id) => ({ app: `${appPagePaths.decision.url(baseUrl)}?decision=${encodeURIComponent(id)}`, api: decisionPaths.decision.url(baseUrl, { id }) }),
    run(frontDoor, runId) {
      const page = runPage[frontDoor as keyof typeof runPage] ?? appPagePaths.engineRun;
      const api = frontDoor === "pipeline" ? pipelinePaths.run.url(baseUrl, { run_id: runId }) : frontDoor === "yaml" || frontDoor === "steps" ? workflowPaths.run.url(baseUrl, { runId }) : stitchPaths.run.url(baseUrl, { id: runId });
      return { app: page.url(baseUrl, { runId }), api };
    },
    settings: appPagePaths.settings.url(baseUrl),
  };
}

/** Where an owned run's changes go, named in the generic doors' refusals: the owner's run path, under which its actions are. */
function ownerDoor(owner: RunOwner): string {
  const runPath = owner.front_door === "pipeline" ? pipelinePaths.run.url("", { run_id: owner.run_id }) : workflowPaths.run.url("", { runId: owner.run_id });
  return `POST ${runPath}/... (the run's own approve, reject, retry and cancel)`;
}

export async function createServices(config: Config, database?: Database, overrides: ServiceOverrides = {}): Promise<Services> {
  // Every transaction of the engine and the front doors also records the current request's audit entry.
  const db = auditedDatabase(database ?? (await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, poolSize: config.DATABASE_POOL_SIZE })));
  const people = installPeople(db, { bootstrapToken: config.STITCH_BOOTSTRAP_TOKEN });
  const policy = installPolicy(db);
  const audit = new AuditTrail(db);
  const baseUrl = config.NEXT_PUBLIC_BASE_URL;
  const outbound = webhookPolicy(config);
  let dispatcher: Dispatcher | undefined;
  const engine = new Engine(db, {
    callbackUrl: (runId, nodeKey) => stitchPaths.callbackUrl(baseUrl, runId, nodeKey),
    onDispatch: () => dispatcher?.wake(),
    callbackSecret: config.STITCH_CALLBACK_SECRET,
    refuseWebhookUrl: (url) => literalRefusal(url, outbound),
  });
  dispatcher = new Dispatcher(db, engine, {
    maxAttempts: config.DISPATCH_MAX_ATTEMPTS,
    backoffMs: config.DISPATCH_BACKOFF_MS,
    timeoutMs: config.DISPATCH_TIMEOUT_MS,
    leaseMs: config.DISPATCH_LEASE_MS,
    concurrency: config.DISPATCH_CONCURRENCY,
    pollMs: config.DISPATCH_POLL_MS,
    signingSecret: config.STITCH_WEBHOOK_SECRET,
    outbound: { policy: outbound, ...(overrides.outboundLookup ? { lookup: overrides.outboundLookup } : {}) },
  });
  // Before the front doors, so that each can be handed the notifier to tell of its decisions.
  const subscriptionOutbound = subscriptionPolicy(config);
  const notifications = installNotifications(db, engine, {
    links: notificationLinks(baseUrl),
    ...(config.SMTP_URL ? { smtp: { url: config.SMTP_URL, from: config.SMTP_FROM ?? defaultSender(baseUrl) } } : {}),
    refuseUrl: (url) => literalRefusal(url, subscriptionOutbound),
    deliverer: {
      maxAttempts: config.NOTIFY_MAX_ATTEMPTS,
      backoffMs: config.NOTIFY_BACKOFF_MS,
      timeoutMs: config.NOTIFY_TIMEOUT_MS,
      concurrency: config.NOTIFY_CONCURRENCY,
      pollMs: config.NOTIFY_POLL_MS,
      retentionDays: config.NOTIFY_RETENTION_DAYS,
      outbound: { policy: subscriptionOutbound, ...(overrides.outboundLookup ? { lookup: overrides.outboundLookup } : {}) },
    },
  });
  const decisionsInstalled = installDecisions(db, engine, dispatcher, {
    settings: { defaultDueIn: config.DECISION_DUE_IN, reminderPercent: config.DECISION_REMINDER_PERCENT },
    notify: (tx, event) => notifications.notifier.emit(tx, event),
    findAccount: async (accountId) => (await people.queries.listAccounts()).find((a) => a.id === accountId),
    readPolicy: async (tx) => ({ selfApproval: (await policy.read(tx)).self_approval }),
  });
  // Whether anyone can take each open decision changes with people, roles and the policy: computed again after each
  // such change, and once at start-up (a process that stopped between a change and its reassessment left it behind).
  const reassess = () => decisionsInstalled.commands.reassess();
  people.commands.onPeopleChanged(reassess);
  policy.commands.onChange(reassess);
  const recordDecisions = decisionsInstalled.record;
  const agents = resolveAgents(readDefinitionFile(config.PIPELINE_DEFINITION ?? defaultDefinitionPath), config.env, (slug) => builtinAgentPaths.webhookUrl(baseUrl, slug));
  const llm = llmConfigFromEnv(config.env);
  const builtinAgents = new BuiltinAgents({
    slugs: agents.map((a) => a.slug), llm, callbackUrl: (slug) => pipelinePaths.agentCallbackUrl(baseUrl, slug), delayMs: config.BUILTIN_AGENT_DELAY_MS,
  });
  // What every conversation's "anything changed?" marker watches besides its front door's rows: filled below.
  const conversationMarkers = new ConversationMarkers();
  const pipeline = await installPipeline(db, engine, {
    agents,
    conversationMarkers,
    recordDecisions,
    builtinAgents,
    agentTimeoutMs: config.AGENT_TIMEOUT_MS,
    agentStuckAfterMs: config.AGENT_STUCK_AFTER_MS,
    agentCallbackUrl: (slug) => pipelinePaths.agentCallbackUrl(baseUrl, slug),
    callbackSecret: config.PIPELINE_CALLBACK_SECRET,
  }).catch((error: unknown) => {
    // An agent's webhook the outbound policy refuses (a private address OUTBOUND_ALLOW does not list) is a configuration error.
    if (error instanceof EngineError && error.code === "invalid_graph") throw new ConfigError(`the agent pipeline cannot start: ${error.message}`);
    throw error;
  });
  dispatcher.useAdapter("agent", pipeline.dispatchAdapter);
  const workflows = installYamlWorkflows(db, engine, {
    recordDecisions,
    workflowsDir: config.WORKFLOWS_DIR,
    workDir: config.WORKFLOW_WORK_DIR ?? join(config.DATA_DIR, "workflow-runs"),
    shellAllowed: config.WORKFLOW_SHELL === "on",
    llm,
  });
  dispatcher.useExecutor(WORKFLOW_EXECUTOR, workflows.executor);
  const steps = installStepWorkflows(db, engine, { env: config.env, dataDir: config.DATA_DIR, outbound });
  dispatcher.useExecutor(STEPS_EXECUTOR, steps.executor);
  const workflowFiles = await workflows.loadDirectory();
  const flows = installFlows(engine, ownerDoor, recordDecisions, conversationMarkers);
  const { queries: decisions, commands: decisionCommands } = decisionsInstalled;
  decisionCommands.useHandler("pipeline", pipelineDecisionHandler(pipeline.commands));
  decisionCommands.useHandler("yaml", workflowDecisionHandler(workflows.commands));
  decisionCommands.useHandler("flow", flowDecisionHandler(flows.commands));
  // Forks: a YAML run is forked through its own front door (its run row and turns written with the fork).
  flows.forks.commands.forkOwnedBy("yaml", (runId, body, caller) => workflows.forks.fork(runId, body, caller));
  // A pipeline run and a step run likewise, through their own front doors (their rows and turns written with the fork).
  flows.forks.commands.forkOwnedBy("pipeline", (runId, body, caller) => pipeline.forks.fork(runId, body, caller));
  flows.forks.commands.forkOwnedBy("steps", (runId, body, caller) => steps.forks.fork(runId, body, caller));
  const review = installReview(db, engine, decisions);
  review.useSource("pipeline", pipelineReviewSource(pipeline.commands, pipeline.queries));
  // Every conversation's "anything changed?" marker moves with its decisions' events and its comments too.
  conversationMarkers.watchAlso((engineRunId) => decisions.activityMarker(engineRunId));
  conversationMarkers.watchAlso((engineRunId) => review.queries.changeMarker(engineRunId));
  await reassess();
  return {
    config, database: db, engine, flows: flows.commands, flowQueries: flows.queries, flowVersions: flows.versions, forks: flows.forks, decisions, decisionCommands, review, dispatcher, pipeline, builtinAgents, workflows, steps,
    workflowDoor: workflowDoor(db, workflows, steps, conversationMarkers), people, audit, policy, notifications, workflowFiles,
  };
}

const builtWebRoot = fileURLToPath(new URL("../dist/web", import.meta.url));
/** The app's first drawing on the server, built with it (vite.config.ts, web/src/serverRender.tsx). */
const builtDrawing = fileURLToPath(new URL("../dist/ssr/serverRender.js", import.meta.url));

/** The tRPC context of one request: the services, and who is calling from where. */
export function trpcContext(services: Services, request: Pick<AppContext, "identity" | "origin" | "crossSite" | "resHeaders" | "https">): AppContext {
  const { engine, flows, flowQueries, flowVersions, forks, decisions, decisionCommands, review, pipeline, workflows, steps, workflowDoor, people, audit, policy, notifications } = services;
  const { accountId, name } = request.identity;
  return { engine, flows, flowQueries, flowVersions, forks, decisions, decisionCommands, review, pipeline, workflows, steps, workflowDoor, people, audit, policy, notifications, ...request, actor: name, starter: name === null ? null : { id: accountId, name } };
}

/** Paths that are not API operations: the tRPC endpoint (its procedures carry their roles) and the SPA's files. */
const notOperations = (path: string) => path.startsWith(trpcEndpoint) || path === "/" || path === "/app" || path.startsWith("/app/") || path.startsWith("/assets/");

/**
 * `webRoot`: where the built app is (dist/web; a test gives a build of its own); `drawing`: what draws its pages on the
 * server (with the built app, the build's own, dist/ssr, when there is one; a test may give web/src/serverRender.tsx's).
 */
export function createApp(services: Services, { webRoot = builtWebRoot, drawing }: { webRoot?: string; drawing?: Promise<DrawApp | null> } = {}): Hono<GuardEnv> {
  const app = new Hono<GuardEnv>();
  app.onError((error, c) => errorResponse(c, error));
  app.notFound((c) => c.json({ error: "not_found", message: `no route for ${c.req.method} ${c.req.path}` }, 404));
  app.use(securityHeaders());
  app.use(requestGuard({ maxBodyBytes: services.config.MAX_BODY_BYTES }));

  // Who is calling, then whether their role may pass the route's door (server/http/access.ts).
  const identifyCaller = identify(services.people);
  app.use("*", async (c, next) => (c.req.path.startsWith("/assets/") ? next() : identifyCaller(c, next)));
  guardRoutes(app, services.audit);
  app.route("/", peopleRoutes(services.people, services.audit));
  app.route("/", stitchRoutes(services.engine, services.flows, services.flowQueries, services.flowVersions));
  app.route("/", forkRoutes(services.forks));
  app.route("/", builtinAgentRoutes(services.builtinAgents));
  app.route("/", healthRoutes(() => services.database.run((db) => db.execute(sql`SELECT 1`))));
  app.route("/", pipelineRoutes(services.pipeline));
  app.route("/", workflowRoutes(services.workflowDoor));
  app.route("/", decisionRoutes(services.decisions, services.decisionCommands));
  app.route("/", reviewRoutes(services.review));
  app.route("/", policyRoutes(services.policy));
  app.route("/", subscriptionRoutes(services.notifications));
  app.route("/", docsRoutes());
  // The app's reads (tRPC queries, GET) are compressed for a browser that accepts gzip: a conversation's JSON shrinks
  // about tenfold. Mutations are not, so no answer that shows a secret once (a token, a subscription's) is compressed
  // beside text a caller chose.
  const compressQueries = compress({ threshold: 1024 });
  app.use(`${trpcEndpoint}/*`, (c, next) => (c.req.method === "GET" ? compressQueries(c, next) : next()));
  // The tRPC context of a request: who is calling from where (the page of the app too, for what it carries).
  const requestContext = (c: Context<GuardEnv>, resHeaders = new Headers()) =>
    trpcContext(services, {
      identity: c.get("identity"),
      origin: requestOrigin(c),
      crossSite: c.get("crossSite") ?? null,
      resHeaders,
      https: isHttps(c.req.url, c.req.header("x-forwarded-proto")),
    });
  app.all(`${trpcEndpoint}/*`, (c) =>
    fetchRequestHandler({
      endpoint: trpcEndpoint,
      req: c.req.raw,
      router: appRouter,
      // A database that cannot be reached answers 503 (SERVICE_UNAVAILABLE): say when to send the request again.
      responseMeta: ({ errors }) => ({ headers: retryAfter(errors) }),
      createContext: ({ resHeaders }) => requestContext(c, resHeaders),
    }),
  );

  // The built SPA: its assets, and index.html for the app's own routes, carrying the answers of what the page reads
  // first for whoever asked (server/trpc/pageQueries.ts), read by the same procedures with that request's context.
  const web = webAppRoutes(webRoot, (c) => pageQueries(requestContext(c), c.req.path), drawing ?? (webRoot === builtWebRoot ? loadDrawing(builtDrawing) : undefined));
  if (web) app.route("/", web);
  assertEveryRouteGuarded(app, notOperations);
  return app;
}

export interface RunningServer extends Services {
  app: Hono<GuardEnv>;
  port: number;
  close(): Promise<void>;
}

export async function startServer(config: Config, database?: Database, overrides: ServiceOverrides = {}): Promise<RunningServer> {
  const services = await createServices(config, database, overrides);
  const app = createApp(services);
  const server = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST });
  // Idle keep-alive connections are closed by the client (or its proxy), not by the server after Node's 5 s: a client
  // sending on a socket at the moment the server closed it gets a reset ("socket hang up") for a request never read.
  // Longer than the usual proxies' 60 s, as load balancers' documentation asks; headers still have to arrive in time.
  const http = server as unknown as { keepAliveTimeout: number; headersTimeout: number };
  http.keepAliveTimeout = 65_000;
  http.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once("listening", () => resolve());
    server.once("error", reject);
  });
  await services.dispatcher.start();
  await services.notifications.deliverer.start();
  const port = (server.address() as AddressInfo).port;
  return {
    ...services,
    app,
    port,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      await services.dispatcher.stop();
      await services.notifications.deliverer.stop();
      await services.steps.close();
      await services.database.close();
    },
  };
}
