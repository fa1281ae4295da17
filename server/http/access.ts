/**
 * Who may call each REST operation, and what the audit trail calls it: the one table a newcomer reads to learn
 * "who may do what" over HTTP. `createApp` refuses to start if a route has no rule here, so no door is left open by
 * forgetting it. People's roles: analyst < reviewer < operator (server/people/roles.ts).
 *
 * - `role`: a signed-in session or a token with at least this role; 401 without one, 403 with a lesser role.
 * - `caller: "worker" | "agent"`: a machine the engine gave a callback URL to; authenticated by what that URL carries
 *   (the callback secrets), never by a person's session, and recorded as "worker" or "agent". A worker's callback that
 *   is accepted is recorded in the run's event log (GET /api/stitch/runs/{id}/events) and not a second time here: one
 *   record per fact, on the engine's busiest path; a refused one is recorded here.
 * - `open`: the health check, the API's documentation and the built-in agents' webhook (which only answers to this
 *   server's own callback paths).
 * `action` names the entry in the audit trail; state changes (every POST but `validate`, and DELETE) are recorded, accepted or refused.
 * An action has the name of the tRPC procedure that does the same (`pipeline.approve`), so the trail reads the same
 * whichever door was used.
 */
import type { TargetKind } from "../audit/schemas";
import type { Role } from "../people/schemas";
import { type RoutePath, builtinAgentPaths, forkPaths, decisionPaths, docsPaths, reviewPaths, peoplePaths, pipelinePaths, policyPaths, stitchPaths, subscriptionPaths, workflowPaths } from "./paths";

export type Admits = { role: Role } | { caller: "worker" | "agent" } | "open";

export interface AccessRule {
  method: "GET" | "POST" | "PUT" | "DELETE";
  path: RoutePath;
  admits: Admits;
  /** The audit trail's name for the action; state changes only. */
  action?: string;
  /** The path parameter naming the action's target. */
  target?: { kind: TargetKind; param: string };
  /**
   * `handed`: the route hands the request's audit scope to its command (`auditScopeOf`), which records the accepted
   * entry in its own transaction, so the request does not run in the audit scope's async context (which costs every
   * promise of the process a hook while it is in use). For the busiest doors whose command takes the scope.
   */
  scope?: "handed";
}

const analyst = { role: "analyst" } as const;
const reviewer = { role: "reviewer" } as const;
const operator = { role: "operator" } as const;

const read = (path: RoutePath, admits: Admits = analyst): AccessRule => ({ method: "GET", path, admits });
const change = (path: RoutePath, admits: Admits, action: string, target?: AccessRule["target"]): AccessRule => ({
  method: "POST",
  path,
  admits,
  action,
  ...(target ? { target } : {}),
});

const run = (param: string) => ({ kind: "run", param }) as const;

export const accessRules: AccessRule[] = [
  // The engine.
  change(stitchPaths.flows, operator, "engine.flows.create"),
  read(stitchPaths.flows),
  read(stitchPaths.flow),
  { ...change(stitchPaths.flowRuns, analyst, "engine.runs.start", { kind: "flow", param: "id" }), scope: "handed" },
  // The designer: operators save, import and restore versions (each recorded with the version as its target) and keep
  // drafts (a person's own unsent drawing: kept, not audited); every role reads versions and diffs and checks a graph
  // (which stores nothing, so it is not in the audit trail).
  { method: "POST", path: stitchPaths.flowCheck, admits: analyst },
  read(stitchPaths.flowVersions),
  change(stitchPaths.flowVersions, operator, "engine.flows.saveVersion", { kind: "flow", param: "id" }),
  read(stitchPaths.flowVersion),
  change(stitchPaths.flowRestore, operator, "engine.flows.restoreVersion", { kind: "flow", param: "id" }),
  read(stitchPaths.flowDiff),
  read(stitchPaths.flowDraft, operator),
  { method: "PUT", path: stitchPaths.flowDraft, admits: operator },
  { method: "DELETE", path: stitchPaths.flowDraft, admits: operator },
  read(stitchPaths.drafts, operator),
  read(stitchPaths.runs),
  read(stitchPaths.run),
  read(stitchPaths.runEvents),
  read(stitchPaths.runConversation),
  change(stitchPaths.runCancel, operator, "engine.runs.cancel", run("id")),
  change(stitchPaths.callback, { caller: "worker" }, "engine.runs.callback", run("runId")),
  change(stitchPaths.complete, reviewer, "engine.runs.completeNode", run("runId")),
  change(stitchPaths.retry, operator, "engine.runs.retryNode", run("runId")),
  change(stitchPaths.review, reviewer, "engine.runs.reviewNode", run("runId")),
  // Forks: every role comes in; who may fork which run is the front door's rule (server/forks/rule.ts), 403 naming it.
  // The entry's target is the new run (named by the command), its message the parent and node.
  change(forkPaths.fork, analyst, "engine.runs.fork", run("run_id")),
  read(forkPaths.lineage),
  read(forkPaths.compare),
  change(forkPaths.forkFailed, operator, "engine.runs.forkFailed"),

  // The agent pipeline, at its seed's paths.
  read(pipelinePaths.health, "open"),
  read(pipelinePaths.ready, "open"),
  read(pipelinePaths.agents),
  change(pipelinePaths.runs, analyst, "pipeline.createRun"),
  read(pipelinePaths.runs),
  read(pipelinePaths.run),
  change(pipelinePaths.agentCallback, { caller: "agent" }, "pipeline.agentCallback", { kind: "node", param: "agent_slug" }),
  change(pipelinePaths.approve, reviewer, "pipeline.approve", run("run_id")),
  change(pipelinePaths.reject, reviewer, "pipeline.reject", run("run_id")),
  change(pipelinePaths.retry, operator, "pipeline.retry", run("run_id")),
  // An operator cancels any run; an analyst the runs she submitted, and edits their brief (the pipeline's commands decide).
  change(pipelinePaths.cancel, analyst, "pipeline.cancel", run("run_id")),
  change(pipelinePaths.brief, analyst, "pipeline.editBrief", run("run_id")),
  change(pipelinePaths.artifacts, operator, "pipeline.storeArtifact", run("run_id")),
  read(pipelinePaths.artifacts),
  read(pipelinePaths.latestArtifact),
  read(pipelinePaths.exportArtifacts),
  read(pipelinePaths.bundle),
  { method: "POST", path: builtinAgentPaths.agent, admits: "open" },

  // Workflows, YAML and JSON steps.
  change(workflowPaths.workflows, operator, "workflows.register"),
  { method: "POST", path: workflowPaths.validate, admits: analyst },
  read(workflowPaths.workflows),
  // A definition given inline needs an operator: the step commands' `execute` decides that, for REST and tRPC alike.
  change(workflowPaths.execute, analyst, "steps.execute"),
  read(workflowPaths.tools),
  read(workflowPaths.runs),
  read(workflowPaths.run),
  // An operator cancels any run; an analyst the runs she started (the front doors' commands decide).
  change(workflowPaths.runCancel, analyst, "workflows.cancel", run("runId")),
  change(workflowPaths.runResume, operator, "workflows.resume", run("runId")),
  change(workflowPaths.approve, reviewer, "workflows.approve", run("runId")),
  change(workflowPaths.reject, reviewer, "workflows.reject", run("runId")),
  change(workflowPaths.input, reviewer, "workflows.input", run("runId")),
  change(workflowPaths.retry, operator, "workflows.retry", run("runId")),
  read(workflowPaths.workflow),
  change(workflowPaths.workflowRuns, analyst, "workflows.start", { kind: "workflow", param: "name" }),

  // The reviewer's inbox: reading it is open to every role (analysts follow what their runs wait for).
  read(decisionPaths.decisions),
  read(decisionPaths.activity),
  read(decisionPaths.decision),
  change(decisionPaths.claim, reviewer, "decisions.claim", { kind: "decision", param: "id" }),
  change(decisionPaths.release, reviewer, "decisions.release", { kind: "decision", param: "id" }),
  change(decisionPaths.assign, operator, "decisions.assign", { kind: "decision", param: "id" }),
  // Who may take a decision is the decision's own rule (its assignee, role, separation and quorum), which analysts may meet too.
  change(decisionPaths.decide, analyst, "decisions.decide", { kind: "decision", param: "id" }),

  // Inline review: everyone who reads a run reads and comments on its outputs (analysts know the brief best); editing
  // is for whoever may take the decision (its commands decide). A draft is a person's own unsent text: kept, not audited.
  read(reviewPaths.output),
  read(reviewPaths.comments),
  change(reviewPaths.comments, analyst, "review.comment", { kind: "decision", param: "id" }),
  read(reviewPaths.draft),
  { method: "PUT", path: reviewPaths.draft, admits: analyst },
  change(reviewPaths.edit, analyst, "review.edit", { kind: "decision", param: "id" }),
  // Checks an edit as it is typed and saves nothing: not in the audit trail (the saved edit is).
  { method: "POST", path: reviewPaths.editCheck, admits: analyst },
  read(reviewPaths.diff),
  change(reviewPaths.resolve, analyst, "review.resolve", { kind: "comment", param: "id" }),
  change(reviewPaths.reopen, analyst, "review.reopen", { kind: "comment", param: "id" }),

  // The instance's policy: anyone signed in reads it (the app says why someone is refused); operators change it.
  read(policyPaths.policy),
  { method: "PUT", path: policyPaths.policy, admits: operator, action: "policy.change" },
  // Webhook subscriptions: operators only (a subscription is told of every run and decision).
  change(subscriptionPaths.subscriptions, operator, "subscriptions.create"),
  read(subscriptionPaths.subscriptions, operator),
  { method: "DELETE", path: subscriptionPaths.subscription, admits: operator, action: "subscriptions.delete", target: { kind: "subscription", param: "id" } },
  read(subscriptionPaths.deliveries, operator),

  // People and the audit trail.
  change(peoplePaths.signIn, "open", "auth.signIn"),
  change(peoplePaths.signOut, "open", "auth.signOut"),
  read(peoplePaths.session, "open"),
  read(peoplePaths.audit, operator),

  // The API's documentation.
  read(docsPaths.openapi, "open"),
  read(docsPaths.docs, "open"),
  read(docsPaths.docsSlash, "open"),
  read(docsPaths.docsAsset, "open"),
];
