/**
 * Wiring: database, engine, dispatcher and the HTTP front doors (REST for workers, tRPC for the app, the built SPA).
 * `startServer` is what `npm start` runs; tests and the benchmark start the same thing on their own ports.
 */
import { serve } from "@hono/node-server";
import { serveStatic } from "@hono/node-server/serve-static";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { Hono } from "hono";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { type Database, openDatabase } from "../db/client";
import type { Config } from "./config";
import { Dispatcher } from "./engine/dispatcher";
import { Engine } from "./engine/engine";
import { actorOf } from "./http/actor";
import { builtinAgentRoutes } from "./http/builtinAgentRoutes";
import { docsRoutes } from "./http/docsRoutes";
import { errorResponse } from "./http/errors";
import { builtinAgentPaths, pipelinePaths, stitchPaths, trpcEndpoint } from "./http/paths";
import { pipelineRoutes } from "./http/pipelineRoutes";
import { stitchRoutes } from "./http/stitchRoutes";
import { workflowRoutes } from "./http/workflowRoutes";
import { llmConfigFromEnv } from "./llm/chat";
import { BuiltinAgents } from "./pipeline/agents/builtinWebhook";
import { defaultDefinitionPath, readDefinitionFile, resolveAgents } from "./pipeline/definition";
import { type Pipeline, installPipeline } from "./pipeline/pipeline";
import { appRouter } from "./trpc/router";
import { WORKFLOW_EXECUTOR } from "./workflows/compile";
import { STEPS_EXECUTOR, type StepWorkflows, installStepWorkflows } from "./workflows/steps/steps";
import { type YamlWorkflows, installYamlWorkflows } from "./workflows/yaml/workflows";

export interface Services {
  config: Config;
  database: Database;
  engine: Engine;
  dispatcher: Dispatcher;
  pipeline: Pipeline;
  builtinAgents: BuiltinAgents;
  workflows: YamlWorkflows;
  /** The JSON step workflows (Summit-Flow): the second workflow front door, on the same tables and compiler. */
  steps: StepWorkflows;
  /** What start-up did with each file of WORKFLOWS_DIR. */
  workflowFiles: { file: string; outcome: string }[];
}

export async function createServices(config: Config, database?: Database): Promise<Services> {
  const db = database ?? (await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, poolSize: config.DATABASE_POOL_SIZE }));
  const baseUrl = config.NEXT_PUBLIC_BASE_URL;
  let dispatcher: Dispatcher | undefined;
  const engine = new Engine(db, {
    callbackUrl: (runId, nodeKey) => stitchPaths.callbackUrl(baseUrl, runId, nodeKey),
    onDispatch: () => dispatcher?.wake(),
    callbackSecret: config.STITCH_CALLBACK_SECRET,
  });
  dispatcher = new Dispatcher(db, engine, {
    maxAttempts: config.DISPATCH_MAX_ATTEMPTS,
    backoffMs: config.DISPATCH_BACKOFF_MS,
    timeoutMs: config.DISPATCH_TIMEOUT_MS,
    concurrency: config.DISPATCH_CONCURRENCY,
    pollMs: config.DISPATCH_POLL_MS,
    signingSecret: config.STITCH_WEBHOOK_SECRET,
  });
  const agents = resolveAgents(readDefinitionFile(config.PIPELINE_DEFINITION ?? defaultDefinitionPath), config.env, (slug) => builtinAgentPaths.webhookUrl(baseUrl, slug));
  const pipeline = await installPipeline(db, engine, {
    agents,
    agentTimeoutMs: config.AGENT_TIMEOUT_MS,
    agentCallbackUrl: (slug) => pipelinePaths.agentCallbackUrl(baseUrl, slug),
  });
  dispatcher.useAdapter("agent", pipeline.dispatchAdapter);
  const llm = llmConfigFromEnv(config.env);
  const builtinAgents = new BuiltinAgents({ slugs: agents.map((a) => a.slug), llm });
  const workflows = installYamlWorkflows(db, engine, {
    workflowsDir: config.WORKFLOWS_DIR,
    workDir: config.WORKFLOW_WORK_DIR ?? join(config.DATA_DIR, "workflow-runs"),
    shellAllowed: config.WORKFLOW_SHELL === "on",
    llm,
  });
  dispatcher.useExecutor(WORKFLOW_EXECUTOR, workflows.executor);
  const steps = installStepWorkflows(db, engine, { env: config.env, dataDir: config.DATA_DIR });
  dispatcher.useExecutor(STEPS_EXECUTOR, steps.executor);
  const workflowFiles = await workflows.loadDirectory();
  return { config, database: db, engine, dispatcher, pipeline, builtinAgents, workflows, steps, workflowFiles };
}

const webRoot = fileURLToPath(new URL("../dist/web", import.meta.url));

export function createApp(services: Services): Hono {
  const app = new Hono();
  app.onError((error, c) => errorResponse(c, error));
  app.notFound((c) => c.json({ error: "not_found", message: `no route for ${c.req.method} ${c.req.path}` }, 404));

  app.route("/", stitchRoutes(services.engine));
  app.route("/", builtinAgentRoutes(services.builtinAgents));
  app.route("/", pipelineRoutes(services.pipeline));
  app.route("/", workflowRoutes(services.workflows, services.steps));
  app.route("/", docsRoutes());
  app.all(`${trpcEndpoint}/*`, (c) =>
    fetchRequestHandler({
      endpoint: trpcEndpoint,
      req: c.req.raw,
      router: appRouter,
      createContext: () => ({ engine: services.engine, pipeline: services.pipeline, workflows: services.workflows, steps: services.steps, actor: actorOf(c) }),
    }),
  );

  // The built SPA: its assets, and index.html for the app's own routes (under /app, so no API path is shadowed).
  if (existsSync(`${webRoot}/index.html`)) {
    const index = readFileSync(`${webRoot}/index.html`, "utf8");
    app.use("/assets/*", serveStatic({ root: webRoot }));
    app.get("/", (c) => c.html(index));
    app.get("/app", (c) => c.html(index));
    app.get("/app/*", (c) => c.html(index));
  }
  return app;
}

export interface RunningServer extends Services {
  app: Hono;
  port: number;
  close(): Promise<void>;
}

export async function startServer(config: Config, database?: Database): Promise<RunningServer> {
  const services = await createServices(config, database);
  const app = createApp(services);
  const server = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST });
  await new Promise<void>((resolve, reject) => {
    server.once("listening", () => resolve());
    server.once("error", reject);
  });
  await services.dispatcher.start();
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
      await services.steps.close();
      await services.database.close();
    },
  };
}
