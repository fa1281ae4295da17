import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import { auditRouter } from "./routers/audit";
import { decisionsRouter } from "./routers/decisions";
import { reviewRouter } from "./routers/review";
import { flowsRouter } from "./routers/flows";
import { accountsRouter, authRouter, tokensRouter } from "./routers/people";
import { pipelineRouter } from "./routers/pipeline";
import { policyRouter } from "./routers/policy";
import { runsRouter } from "./routers/runs";
import { stepsRouter } from "./routers/steps";
import { meRouter, subscriptionsRouter } from "./routers/subscriptions";
import { workflowsRouter } from "./routers/workflows";
import { createCallerFactory, router } from "./trpc";

/** One namespace per front door: the engine's flows and runs, the agent pipeline's runs, the YAML workflows, the JSON step workflows, people, the audit trail and the instance's policy, webhook subscriptions and my own settings. */
export const appRouter = router({
  engine: router({ flows: flowsRouter, runs: runsRouter }),
  pipeline: pipelineRouter,
  workflows: workflowsRouter,
  steps: stepsRouter,
  decisions: decisionsRouter,
  review: reviewRouter,
  auth: authRouter,
  accounts: accountsRouter,
  tokens: tokensRouter,
  audit: auditRouter,
  policy: policyRouter,
  subscriptions: subscriptionsRouter,
  me: meRouter,
});

/** All the web app imports from the server: the router's type, and what it infers from it. */
export type AppRouter = typeof appRouter;
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;
export const createCaller = createCallerFactory(appRouter);
