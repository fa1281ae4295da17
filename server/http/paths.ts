/**
 * Every REST path of the product, written once. Routes register `pattern` (Hono's `:param` form), the OpenAPI
 * document lists `openapi` (`{param}`), and whoever hands a URL to the outside (a Worker's callback URL, an agent's
 * callback_url, a built-in agent's webhook) builds it with `url`, so no path is spelled in two places.
 */

export interface RoutePath<P extends string = string> {
  /** Hono's form: `/runs/:run_id` (a literal type, so handlers' `c.req.param("run_id")` is typed). */
  readonly pattern: P;
  /** OpenAPI's form: `/runs/{run_id}`. */
  readonly openapi: string;
  /** The absolute URL under `baseUrl`, each parameter percent-encoded (a node id with "/", "?" or "#" still names its node). */
  url(baseUrl: string, params?: Record<string, string>): string;
}

function route<P extends string>(pattern: P): RoutePath<P> {
  return {
    pattern,
    openapi: pattern.replace(/:(\w+)/g, "{$1}"),
    url(baseUrl, params = {}) {
      return (
        baseUrl +
        pattern.replace(/:(\w+)/g, (_, name: string) => {
          const value = params[name];
          if (value === undefined) throw new Error(`path ${pattern} needs the parameter "${name}"`);
          return encodeURIComponent(value);
        })
      );
    },
  };
}

/** The engine: flows and runs for integrators, and what Workers and people post to a run's nodes. */
export const stitchPaths = {
  flows: route("/api/stitch/flows"),
  flow: route("/api/stitch/flows/:id"),
  flowRuns: route("/api/stitch/flows/:id/runs"),
  flowCheck: route("/api/stitch/flows/check"),
  flowVersions: route("/api/stitch/flows/:id/versions"),
  flowVersion: route("/api/stitch/flows/:id/versions/:version"),
  flowRestore: route("/api/stitch/flows/:id/versions/:version/restore"),
  flowDiff: route("/api/stitch/flows/:id/diff"),
  flowDraft: route("/api/stitch/flows/:id/draft"),
  drafts: route("/api/stitch/drafts"),
  runs: route("/api/stitch/runs"),
  run: route("/api/stitch/runs/:id"),
  runCancel: route("/api/stitch/runs/:id/cancel"),
  runEvents: route("/api/stitch/runs/:id/events"),
  runConversation: route("/api/stitch/runs/:id/conversation"),
  callback: route("/api/stitch/callback/:runId/:nodeId"),
  complete: route("/api/stitch/complete/:runId/:nodeId"),
  retry: route("/api/stitch/retry/:runId/:nodeId"),
  review: route("/api/stitch/review/:runId/:nodeId"),
  /** Where a Worker instance calls back. */
  callbackUrl: (baseUrl: string, runId: string, nodeId: string) => stitchPaths.callback.url(baseUrl, { runId, nodeId }),
};

/** Forks of runs and the comparison of two runs (fixed segments before `:run_id`). */
export const forkPaths = {
  compare: route("/api/runs/compare"),
  forkFailed: route("/api/runs/fork-failed"),
  fork: route("/api/runs/:run_id/fork"),
  lineage: route("/api/runs/:run_id/lineage"),
};

/** The agent pipeline, at the paths its existing clients and n8n flows use. */
export const pipelinePaths = {
  health: route("/health"),
  ready: route("/health/ready"),
  agents: route("/agents"),
  runs: route("/runs"),
  run: route("/runs/:run_id"),
  agentCallback: route("/callbacks/agent/:agent_slug"),
  approve: route("/runs/:run_id/approve"),
  reject: route("/runs/:run_id/reject"),
  retry: route("/runs/:run_id/retry"),
  cancel: route("/runs/:run_id/cancel"),
  /** The submitter's new brief: the first agent starts over with it. */
  brief: route("/runs/:run_id/brief"),
  artifacts: route("/runs/:run_id/artifacts"),
  latestArtifact: route("/runs/:run_id/artifacts/latest"),
  exportArtifacts: route("/runs/:run_id/artifacts/export"),
  bundle: route("/runs/:run_id/artifacts/bundle"),
  /** Where an agent posts its output. */
  agentCallbackUrl: (baseUrl: string, slug: string) => pipelinePaths.agentCallback.url(baseUrl, { agent_slug: slug }),
};

/** The built-in agents, served over the same webhook-and-callback protocol as n8n agents. */
export const builtinAgentPaths = {
  agent: route("/api/agents/builtin/:slug"),
  webhookUrl: (baseUrl: string, slug: string) => builtinAgentPaths.agent.url(baseUrl, { slug }),
};

/**
 * Workflows, YAML and JSON step workflows alike: definitions, runs, and what people do on a run's nodes; `execute` and
 * `tools` are the step workflows' own. Fixed segments come before `:name`.
 */
export const workflowPaths = {
  workflows: route("/api/workflows"),
  validate: route("/api/workflows/validate"),
  execute: route("/api/workflows/execute"),
  tools: route("/api/workflows/tools"),
  runs: route("/api/workflows/runs"),
  run: route("/api/workflows/runs/:runId"),
  runCancel: route("/api/workflows/runs/:runId/cancel"),
  runResume: route("/api/workflows/runs/:runId/resume"),
  approve: route("/api/workflows/runs/:runId/nodes/:nodeId/approve"),
  reject: route("/api/workflows/runs/:runId/nodes/:nodeId/reject"),
  input: route("/api/workflows/runs/:runId/nodes/:nodeId/input"),
  retry: route("/api/workflows/runs/:runId/nodes/:nodeId/retry"),
  workflow: route("/api/workflows/:name"),
  workflowRuns: route("/api/workflows/:name/runs"),
};

/** Signing in and out for scripts, and the audit trail (the app does the same through tRPC). */
export const peoplePaths = {
  signIn: route("/api/auth/sign-in"),
  signOut: route("/api/auth/sign-out"),
  session: route("/api/auth/session"),
  audit: route("/api/audit"),
};

/** The reviewer's inbox: every decision a run waits for, whichever front door owns it. */
export const decisionPaths = {
  decisions: route("/api/decisions"),
  activity: route("/api/decisions/activity"),
  decision: route("/api/decisions/:id"),
  claim: route("/api/decisions/:id/claim"),
  release: route("/api/decisions/:id/release"),
  assign: route("/api/decisions/:id/assign"),
  decide: route("/api/decisions/:id/decide"),
};

/** Inline review of the output a decision reviews: its parts, comments on them, drafts, edits and diffs. */
export const reviewPaths = {
  output: route("/api/decisions/:id/output"),
  comments: route("/api/decisions/:id/comments"),
  draft: route("/api/decisions/:id/draft"),
  edit: route("/api/decisions/:id/edit"),
  editCheck: route("/api/decisions/:id/edit/check"),
  diff: route("/api/decisions/:id/diff"),
  resolve: route("/api/comments/:id/resolve"),
  reopen: route("/api/comments/:id/reopen"),
};

/** The instance's policy: what every definition that says nothing follows (separation of duties). */
export const policyPaths = {
  policy: route("/api/policy"),
};

/** Webhook subscriptions, for operators: where each one's deliveries go, and how they went. */
export const subscriptionPaths = {
  subscriptions: route("/api/subscriptions"),
  subscription: route("/api/subscriptions/:id"),
  deliveries: route("/api/subscriptions/:id/deliveries"),
};

/**
 * The web app's pages that the server links to from outside the app (notifications' emails and webhook payloads).
 * The app's router (web/src/lib/router.tsx `paths`) names the same pages; a page moved there is moved here.
 */
export const appPagePaths = {
  decision: route("/app/reviews"),
  pipelineRun: route("/app/runs/:runId"),
  workflowRun: route("/app/workflows/runs/:runId"),
  stepRun: route("/app/steps/runs/:runId"),
  engineRun: route("/app/engine/runs/:runId"),
  settings: route("/app/settings"),
};

/** The API's documentation: not part of the API it documents. */
export const docsPaths = {
  openapi: route("/openapi.json"),
  docs: route("/docs"),
  docsSlash: route("/docs/"),
  docsAsset: route("/docs/assets/:file"),
};

/** The tRPC endpoint of the app. */
export const trpcEndpoint = "/trpc";
