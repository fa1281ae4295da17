/**
 * The database schema: drizzle tables, each followed by its inferred row types.
 * Migrations are generated from this file by drizzle-kit (`npm run db:generate`) and never edited once committed.
 */
import { type SQL, sql } from "drizzle-orm";
import { bigserial, boolean, index, integer, jsonb, pgTable, pgView, primaryKey, serial, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "string" }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true, mode: "string" }).notNull().defaultNow();

/**
 * Flow definitions: a flow is a name and its versions (`stitch_flow_versions`). `graph` and `version` are its latest
 * version's, written with that version by the same statement: what the flow is now. Runs never read `graph`: each
 * reads the version it started on.
 */
export const stitchFlows = pgTable("stitch_flows", {
  id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
  name: text("name").notNull(),
  /** A React Flow graph; the engine validates it before it is stored and reads it back through its own schema. */
  graph: jsonb("graph").notNull(),
  /** The number of the latest version (1 for a flow never saved again). */
  version: integer("version").notNull().default(1),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
export type FlowRow = typeof stitchFlows.$inferSelect;

/**
 * A flow's versions, immutable once written: saving adds the next number, restoring an old one adds a new version with
 * its graph. `origin` says how the version came to be; `restored_from` names the version a restore copied.
 */
export const stitchFlowVersions = pgTable(
  "stitch_flow_versions",
  {
    flowId: uuid("flow_id").notNull().references(() => stitchFlows.id),
    version: integer("version").notNull(),
    graph: jsonb("graph").notNull(),
    message: text("message").notNull(),
    /** `create`, `save`, `restore` or `import`. */
    origin: text("origin").notNull(),
    restoredFrom: integer("restored_from"),
    /** Who saved it (an account; null for a token without one, and for versions written before this was kept). */
    authorId: uuid("author_id"),
    authorName: text("author_name"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.flowId, t.version] })],
);
export type FlowVersionRow = typeof stitchFlowVersions.$inferSelect;

/**
 * A person's open draft of a flow, kept as it changes (`person`: the account id, or "anonymous"). `flow_id` need not
 * name a stored flow yet: a new flow's draft is kept under the id its first save will create it with.
 */
export const stitchFlowDrafts = pgTable(
  "stitch_flow_drafts",
  {
    flowId: uuid("flow_id").notNull(),
    person: text("person").notNull(),
    /** The flow's name (what a new flow will be called; a stored flow's is its own). */
    name: text("name").notNull(),
    /** The drawn graph as it stands, problems and all: read back through its zod schema. */
    graph: jsonb("graph").notNull(),
    /** The version the draft was started from (0 for a new flow). */
    baseVersion: integer("base_version").notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.flowId, t.person] }), index("stitch_flow_drafts_person_idx").on(t.person, t.updatedAt)],
);
export type FlowDraftRow = typeof stitchFlowDrafts.$inferSelect;

/**
 * One row per run. Its row lock serialises the events of one run (one transaction per event);
 * the counters let the run's status be derived without scanning its nodes.
 */
export const stitchRuns = pgTable(
  "stitch_runs",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    flowId: uuid("flow_id").notNull().references(() => stitchFlows.id),
    /** The version of the flow the run started on: it runs on that version's graph to its end, whatever is saved meanwhile. */
    flowVersion: integer("flow_version").notNull().default(1),
    status: text("status").notNull().default("running"),
    input: jsonb("input"),
    runningCount: integer("running_count").notNull().default(0),
    waitingCount: integer("waiting_count").notNull().default(0),
    failedCount: integer("failed_count").notNull().default(0),
    /**
     * The front door that owns the run (`pipeline`, `yaml`, `steps`), or null for a plain flow's run. Only the owner's
     * commands change an owned run; the engine's generic doors refuse (409), reads stay open.
     */
    owner: text("owner"),
    /** The owner's id of the run (a pipeline run's `RUN_...`; a workflow run's id is the engine run's own). */
    ownerRunId: text("owner_run_id"),
    /** Who started the run (an account; null for automation without one, and for runs started before this was kept). */
    startedById: uuid("started_by_id"),
    startedByName: text("started_by_name"),
    /**
     * A fork (engine.ts `fork`): the run it was forked from and the node it was forked at (null for a run started
     * afresh), and which version it runs (`original` or `latest`). Who forked it is `started_by`, and when, `created_at`.
     */
    forkedFromRunId: uuid("forked_from_run_id"),
    forkedFromNode: text("forked_from_node"),
    forkVersion: text("fork_version"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("stitch_runs_created_idx").on(t.createdAt), index("stitch_runs_forked_from_idx").on(t.forkedFromRunId),
    // A front door's run id (a pipeline's RUN_...) names its engine run: forks and comparisons take either id.
    index("stitch_runs_owner_run_idx").on(t.ownerRunId),
  ],
);
export type RunRow = typeof stitchRuns.$inferSelect;

/**
 * The run's `node_states`, one row per node and per splitter path (`nodeId_0`, ...),
 * so that one callback updates one row whatever the size of the run. The API assembles them into the
 * `node_states` JSONB object clients read, and the view `stitch_runs_with_node_states` does the same in SQL.
 */
export const stitchNodeStates = pgTable(
  "stitch_node_states",
  {
    runId: uuid("run_id").notNull().references(() => stitchRuns.id, { onDelete: "cascade" }),
    nodeId: text("node_id").notNull(),
    status: text("status").notNull(),
    output: jsonb("output"),
    error: text("error"),
    input: jsonb("input"),
    attempt: integer("attempt").notNull().default(0),
    pathTotal: integer("path_total"),
    pathDone: integer("path_done").notNull().default(0),
    pathFailed: integer("path_failed").notNull().default(0),
    /** A worker re-run after a review rejection: the feedback it owes an answer to, until it delivers one. */
    feedback: jsonb("feedback"),
    /** Workers with data.retry: the attempt their current budget of automatic attempts began with. */
    retryFrom: integer("retry_from").notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.nodeId] })],
);
export type NodeStateRow = typeof stitchNodeStates.$inferSelect;

/**
 * The outbox: webhook deliveries written in the same transaction as the state change that causes them,
 * claimed with FOR UPDATE SKIP LOCKED by any process, retried with backoff, deleted once delivered.
 */
export const stitchDispatches = pgTable(
  "stitch_dispatches",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    runId: uuid("run_id").notNull().references(() => stitchRuns.id, { onDelete: "cascade" }),
    nodeId: text("node_id").notNull(),
    nodeAttempt: integer("node_attempt").notNull(),
    /** `webhook` (deliver payload to url), `timeout` (a timer: when due, the node's attempt times out) or `retry` (a timer: when due, the node's next automatic attempt is fired). */
    kind: text("kind").notNull().default("webhook"),
    url: text("url").notNull(),
    payload: jsonb("payload").notNull(),
    deliveries: integer("deliveries").notNull().default(0),
    runAt: timestamp("run_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
    lockedUntil: timestamp("locked_until", { withTimezone: true, mode: "string" }),
    lastError: text("last_error"),
    /** What the last failed attempt met (`worker_answered`, `network_error`, `timeout`, `work_failed`, `no_handler`): a repeat's cause. */
    lastFailure: text("last_failure"),
    /** The process holding the row's current claim (or that held its last one): whose lapsed lease a repeat names. */
    claimedBy: text("claimed_by"),
    /** Why the current delivery repeats an earlier one (dispatchSchemas.ts `Redelivery`), set by the claim; null for a first delivery. */
    redelivery: jsonb("redelivery"),
    createdAt: createdAt(),
  },
  (t) => [index("stitch_dispatches_due_idx").on(t.runAt), index("stitch_dispatches_node_idx").on(t.runId, t.nodeId)],
);
export type DispatchRow = typeof stitchDispatches.$inferSelect;

/** Every accepted external event, in order: who completed, approved or rejected what, and every callback. */
export const stitchRunEvents = pgTable(
  "stitch_run_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    runId: uuid("run_id").notNull().references(() => stitchRuns.id, { onDelete: "cascade" }),
    nodeId: text("node_id"),
    type: text("type").notNull(),
    payload: jsonb("payload"),
    actor: text("actor"),
    createdAt: createdAt(),
  },
  (t) => [index("stitch_run_events_run_idx").on(t.runId, t.id)],
);
export type RunEventRow = typeof stitchRunEvents.$inferSelect;

// ---- The agent pipeline (agent-pipeline-backend.md), a projection of engine runs ---------------------

/** The pipeline definition in force, synced at start-up from the definition file and environment. */
export const pipelineAgents = pgTable("pipeline_agents", {
  slug: text("slug").primaryKey(),
  name: text("name").notNull(),
  order: integer("order").notNull(),
  artifactType: text("artifact_type").notNull(),
  webhookUrl: text("webhook_url").notNull(),
  webhookPath: text("webhook_path"),
  context: jsonb("context").$type<string[]>().notNull(),
  builtin: boolean("builtin").notNull().default(false),
  updatedAt: updatedAt(),
});
export type PipelineAgentRow = typeof pipelineAgents.$inferSelect;

/**
 * One pipeline run and the engine run that executes it. `status`, `current_agent` and
 * `is_waiting_for_user` are written by the projection in the same transaction as the engine event that moves them.
 */
export const pipelineRuns = pgTable(
  "pipeline_runs",
  {
    id: text("id").primaryKey(),
    domain: text("domain").notNull(),
    brief: text("brief").notNull(),
    /** The status string existing clients read (`WAITING_APPROVAL_QA`), written from `phase` and `current_agent`, which say the same typed. */
    status: text("status").notNull(),
    /** in_progress, retrying, waiting_approval, failed, completed or cancelled; with `current_agent`, the run's typed status. */
    phase: text("phase").notNull().default("in_progress"),
    currentAgent: text("current_agent"),
    isWaitingForUser: boolean("is_waiting_for_user").notNull().default(false),
    failure: text("failure"),
    stitchRunId: uuid("stitch_run_id").notNull().unique(),
    /** The agents as they were when the run started: a later definition change does not reshape a running run. */
    agents: jsonb("agents").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("pipeline_runs_created_idx").on(t.createdAt)],
);
export type PipelineRunRow = typeof pipelineRuns.$inferSelect;

/** Every agent output, versioned per run and artifact type from 1, never overwritten. */
export const pipelineArtifacts = pgTable(
  "pipeline_artifacts",
  {
    id: serial("id").primaryKey(),
    runId: text("run_id").notNull().references(() => pipelineRuns.id, { onDelete: "cascade" }),
    artifactType: text("artifact_type").notNull(),
    version: integer("version").notNull(),
    content: jsonb("content").notNull(),
    metadata: jsonb("metadata"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("pipeline_artifacts_version_idx").on(t.runId, t.artifactType, t.version),
    index("ix_artifacts_run_type_created").on(t.runId, t.artifactType, t.createdAt),
  ],
);
export type PipelineArtifactRow = typeof pipelineArtifacts.$inferSelect;

/** The run's conversation turns in order: agent started, artifact, approved, rejected with feedback, failed, completed. */
export const pipelineEvents = pgTable(
  "pipeline_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    runId: text("run_id").notNull().references(() => pipelineRuns.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    agent: text("agent"),
    payload: jsonb("payload"),
    actor: text("actor"),
    createdAt: createdAt(),
  },
  (t) => [index("pipeline_events_run_idx").on(t.runId, t.id)],
);
export type PipelineEventRow = typeof pipelineEvents.$inferSelect;

// ---- Workflows (YAML and JSON step definitions), lowered onto engine flows -------------------------------------

/** Every registered version of every workflow; a run keeps the version it started with. Never updated. */
export const workflowDefinitions = pgTable(
  "workflow_definitions",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    name: text("name").notNull(),
    version: integer("version").notNull(),
    /** `yaml` or `steps`: which front door registered it. */
    format: text("format").notNull(),
    /** The text as registered (YAML, or the JSON definition). */
    source: text("source").notNull(),
    /** The normalised definition the front door loaded from it. */
    definition: jsonb("definition").notNull(),
    warnings: jsonb("warnings").notNull().default(sql`'[]'::jsonb`),
    flowId: uuid("flow_id").notNull().references(() => stitchFlows.id),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("workflow_definitions_name_version_idx").on(t.name, t.version)],
);
export type WorkflowDefinitionRow = typeof workflowDefinitions.$inferSelect;

/**
 * One workflow run: the engine run that executes it (same id) and what the workflow front door adds. `status` and
 * `cancel_reason` are written by the projection in the same transaction as the engine event that moves them.
 */
export const workflowRuns = pgTable(
  "workflow_runs",
  {
    /** The engine run's id (written first, in the same transaction that starts the engine run). */
    id: uuid("id").primaryKey(),
    definitionId: uuid("definition_id").notNull().references(() => workflowDefinitions.id),
    workflow: text("workflow").notNull(),
    version: integer("version").notNull(),
    format: text("format").notNull(),
    message: text("message").notNull().default(""),
    inputs: jsonb("inputs"),
    status: text("status").notNull().default("running"),
    cancelReason: text("cancel_reason"),
    /** Step workflows: the definition's `outputs`, evaluated when the run ends. */
    outputs: jsonb("outputs"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("workflow_runs_created_idx").on(t.createdAt), index("workflow_runs_workflow_idx").on(t.workflow, t.createdAt)],
);
export type WorkflowRunRow = typeof workflowRuns.$inferSelect;

/** A workflow run's conversation turns in order: node started, output, skipped, failed, waiting, decisions, iterations. */
export const workflowTurns = pgTable(
  "workflow_turns",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    runId: uuid("run_id").notNull().references(() => workflowRuns.id, { onDelete: "cascade" }),
    nodeId: text("node_id"),
    kind: text("kind").notNull(),
    payload: jsonb("payload"),
    actor: text("actor"),
    createdAt: createdAt(),
  },
  (t) => [index("workflow_turns_run_idx").on(t.runId, t.id), index("workflow_turns_node_idx").on(t.runId, t.nodeId, t.id)],
);
export type WorkflowTurnRow = typeof workflowTurns.$inferSelect;

/** The kinds of turn of a step workflow's steps that the `run_steps` view reads (server/workflows/steps/projection.ts writes them). */
export const STEP_TURN = {
  started: "step_started",
  input: "step_input",
  finished: ["step_completed", "step_failed", "step_skipped", "step_cancelled"],
} as const;

/**
 * A step workflow's steps, one row per step of each run (the seed's `run_steps`): a view (its SQL is in migration
 * 0008_run_steps) over the engine's node rows of runs whose format is `steps`, so it can never disagree with the
 * engine and costs no write of its own. `status` is the engine's in upper case (PENDING, RUNNING, COMPLETED, FAILED,
 * SKIPPED, CANCELLED); `input` is the step's params as resolved for its latest attempt, `started_at` when it was last
 * fired, `completed_at` when it settled after that: the three come from the step's turns (STEP_TURN), each written in
 * the same transaction as the event it records (`input` by the executor, just before the tool runs). `error` is the
 * failure, or why the step was skipped or cancelled; `attempts` counts every attempt, retries included.
 */
export const runSteps = pgView("run_steps", {
  id: uuid("id").notNull(),
  runId: uuid("run_id").notNull(),
  stepId: text("step_id").notNull(),
  status: text("status").notNull(),
  input: jsonb("input"),
  output: jsonb("output"),
  error: text("error"),
  attempts: integer("attempts").notNull(),
  startedAt: timestamp("started_at", { withTimezone: true, mode: "string" }),
  completedAt: timestamp("completed_at", { withTimezone: true, mode: "string" }),
}).existing();
export type RunStepRow = typeof runSteps.$inferSelect;

/**
 * People who use the product. `role` is what they may do (analyst < reviewer < operator, see server/people/roles.ts);
 * `password_hash` is an argon2id hash, null while an invited account has not chosen its password; a disabled account
 * can neither sign in nor use its sessions or tokens.
 */
export const accounts = pgTable(
  "accounts",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    name: text("name").notNull(),
    email: text("email").notNull(),
    role: text("role").notNull(),
    passwordHash: text("password_hash"),
    createdAt: createdAt(),
    disabledAt: timestamp("disabled_at", { withTimezone: true, mode: "string" }),
    /** Whether the person wants email about their decisions and runs (when SMTP_URL is configured). */
    emailNotifications: boolean("email_notifications").notNull().default(true),
  },
  (t) => [uniqueIndex("accounts_email_idx").on(sql`lower(${t.email})`)],
);
export type AccountRow = typeof accounts.$inferSelect;

/**
 * Signed-in browsers. The cookie holds a random secret; the row holds its SHA-256 (`id`), so a copy of the table signs
 * no one in. `csrf_token` is what the app echoes in `x-csrf-token` on every state change made with this cookie.
 */
export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    accountId: uuid("account_id").notNull().references(() => accounts.id, { onDelete: "cascade" }),
    csrfToken: text("csrf_token").notNull(),
    address: text("address"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "string" }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "string" }),
  },
  (t) => [index("sessions_account_idx").on(t.accountId)],
);
export type SessionRow = typeof sessions.$inferSelect;

/** Personal API tokens: shown once, stored as their SHA-256, acting as their owner with the owner's role. */
export const apiTokens = pgTable(
  "api_tokens",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    accountId: uuid("account_id").notNull().references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    tokenHash: text("token_hash").notNull(),
    /** The token's first characters, so its owner can tell tokens apart. */
    prefix: text("prefix").notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, mode: "string" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "string" }),
  },
  (t) => [uniqueIndex("api_tokens_hash_idx").on(t.tokenHash), index("api_tokens_account_idx").on(t.accountId)],
);
export type ApiTokenRow = typeof apiTokens.$inferSelect;

/** An operator's invitation: a one-time link (its SHA-256 here) with which the invited account chooses its password. */
export const invitations = pgTable("invitations", {
  tokenHash: text("token_hash").primaryKey(),
  accountId: uuid("account_id").notNull().references(() => accounts.id, { onDelete: "cascade" }),
  createdBy: uuid("created_by").references(() => accounts.id),
  createdAt: createdAt(),
  expiresAt: timestamp("expires_at", { withTimezone: true, mode: "string" }).notNull(),
  acceptedAt: timestamp("accepted_at", { withTimezone: true, mode: "string" }),
});
export type InvitationRow = typeof invitations.$inferSelect;

/** Failed sign-ins, read to rate-limit by account and by address across every server process. */
export const signInFailures = pgTable(
  "sign_in_failures",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    email: text("email").notNull(),
    address: text("address").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("sign_in_failures_email_idx").on(t.email, t.createdAt), index("sign_in_failures_address_idx").on(t.address, t.createdAt)],
);

/**
 * The audit trail, append-only (a trigger refuses UPDATE and DELETE): who did what to which target, when, from where,
 * and whether it was accepted or refused (with the HTTP status). An accepted change is recorded in the transaction
 * that makes it; a refusal, which changed nothing, in its own.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
    /** account, token, bootstrap (STITCH_BOOTSTRAP_TOKEN), worker, agent, or anonymous. */
    actorKind: text("actor_kind").notNull(),
    accountId: uuid("account_id"),
    actorName: text("actor_name"),
    tokenId: uuid("token_id"),
    action: text("action").notNull(),
    targetKind: text("target_kind"),
    targetId: text("target_id"),
    outcome: text("outcome").notNull(),
    status: integer("status"),
    message: text("message"),
    address: text("address"),
    userAgent: text("user_agent"),
  },
  // Pages are read newest first by id; a run's and a person's entries by these two. Every state change writes a row,
  // so the table carries no more indexes than its readers need (an action filter reads the id order).
  (t) => [index("audit_log_target_idx").on(t.targetId, t.id), index("audit_log_account_idx").on(t.accountId, t.id)],
);
export type AuditRow = typeof auditLog.$inferSelect;

/**
 * Every time a run waits for a person, a decision: opened in the transaction of the engine event that made the run
 * wait and closed in the one that ends the wait, by the owning front door's projection (server/decisions/store.ts is
 * the only writer). At most one open decision per node of a run (the partial unique index), so a decision exists
 * exactly once whichever process applied the event.
 */
export const decisions = pgTable(
  "decisions",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    engineRunId: uuid("engine_run_id").notNull().references(() => stitchRuns.id, { onDelete: "cascade" }),
    nodeKey: text("node_key").notNull(),
    /** pipeline, yaml, steps or flow: whose commands decide it. */
    frontDoor: text("front_door").notNull(),
    /** The front door's id of the run (the pipeline's RUN_..., a workflow's or a flow's run id). */
    runId: text("run_id").notNull(),
    /** review (an output), approval, answer (a question), completion (a gate's input). */
    kind: text("kind").notNull(),
    title: text("title").notNull(),
    /** What a person reads beside the title: the run's domain or message, for the inbox's search. */
    context: text("context").notNull().default(""),
    startedById: uuid("started_by_id"),
    startedByName: text("started_by_name"),
    /** open, decided, expired or cancelled. */
    state: text("state").notNull().default("open"),
    waitingSince: timestamp("waiting_since", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
    dueAt: timestamp("due_at", { withTimezone: true, mode: "string" }),
    /** Who may decide: a role (`reviewer` unless a definition says otherwise) or, once claimed or assigned, an account. */
    assigneeRole: text("assignee_role").notNull().default("reviewer"),
    assigneeAccountId: uuid("assignee_account_id"),
    /** The assigned account's name as it was when assigned, for the inbox and the refusals that name who may decide. */
    assigneeName: text("assignee_name"),
    /** Whether the account that started the run may take it (separation of duties when false). */
    selfApproval: boolean("self_approval").notNull().default(true),
    /**
     * Whether `self_approval` came from the instance policy (the definition set none): such a decision follows the
     * policy while it is open, so an operator's change of the policy applies to what already waits.
     */
    selfApprovalByPolicy: boolean("self_approval_by_policy").notNull().default(false),
    /**
     * Whether anyone can take the decision now (server/decisions/decidability.ts): computed when it opens and whenever
     * people, roles, assignments, approvals or the policy change. When false, `undecidable_cause` and `_reason` say why.
     */
    decidable: boolean("decidable").notNull().default(true),
    undecidableCause: text("undecidable_cause"),
    undecidableReason: text("undecidable_reason"),
    /** How many distinct accounts must approve before the approval is given (`approvals: N`). */
    approvalsNeeded: integer("approvals_needed").notNull().default(1),
    /** The approvals given so far, while fewer than needed: `[{account_id, by, at}]` (schemas.ts `Approval`). */
    approvals: jsonb("approvals").notNull().default(sql`'[]'::jsonb`),
    /** What happens when the due time passes: `{escalate}` or `{outcome, reason}` (schemas.ts `OnOverdue`); null: nothing. */
    onOverdue: jsonb("on_overdue"),
    /** When the assignee is reminded (80% of the way to the due time unless configured); null: no reminder. */
    remindAt: timestamp("remind_at", { withTimezone: true, mode: "string" }),
    remindedAt: timestamp("reminded_at", { withTimezone: true, mode: "string" }),
    /** When the due time passed and `on_overdue` was applied (escalated, or decided by the system). */
    overdueAt: timestamp("overdue_at", { withTimezone: true, mode: "string" }),
    decidedById: uuid("decided_by_id"),
    decidedBy: text("decided_by"),
    decidedAt: timestamp("decided_at", { withTimezone: true, mode: "string" }),
    /** approve, request_changes, reject, answer, complete; or why it closed without a person (cancelled). */
    outcome: text("outcome"),
    /**
     * The output a person reviews (a YAML approval's or a Stitch review gate's input), as it was when the decision
     * opened: its version for inline review (server/review). Null for a question, and for the pipeline, whose artifact
     * versions are its own table's.
     */
    reviewed: jsonb("reviewed"),
    /**
     * What the inbox's search reads: title and context in lower case, kept by PostgreSQL. `LIKE lower(pattern)` on it
     * is the `ILIKE` of both columns (ILIKE lowers both sides the same way) at a fifth of the cost per row.
     */
    searchText: text("search_text").generatedAlwaysAs((): SQL => sql`lower(${decisions.title} || E'\\n' || ${decisions.context})`),
  },
  (t) => [
    uniqueIndex("decisions_open_node_idx").on(t.engineRunId, t.nodeKey).where(sql`${t.state} = 'open'`),
    // "Decided by me": a person's closed decisions, newest first.
    index("decisions_decided_by_idx").on(t.decidedById, t.waitingSince, t.id),
    // The inbox reads a state's decisions newest first (its pages, its count); overdue ones by due time; a run's.
    index("decisions_state_idx").on(t.state, t.waitingSince, t.id),
    index("decisions_due_idx").on(t.dueAt).where(sql`${t.state} = 'open' AND ${t.dueAt} IS NOT NULL`),
    index("decisions_run_idx").on(t.runId),
    // The inbox at scale (docs/design.md, "Performance techniques"): a person's open decisions newest first (`mine`,
    // and `unassigned` as the account-less ones); the roles' open decisions, read by the count without the table
    // (index-only); the open ones with a due time newest first (`overdue` keeps those past it); every decision newest
    // first, whatever its state (closed ones, `state=all`); and the search, whose `%text%` patterns only trigrams can
    // serve (pg_trgm, created by the migration).
    index("decisions_open_assignee_idx").on(t.assigneeAccountId, t.waitingSince, t.id).where(sql`${t.state} = 'open'`),
    index("decisions_open_role_idx").on(t.assigneeRole, t.assigneeAccountId).where(sql`${t.state} = 'open'`),
    index("decisions_open_due_idx").on(t.waitingSince, t.id).where(sql`${t.state} = 'open' AND ${t.dueAt} IS NOT NULL`),
    index("decisions_waiting_idx").on(t.waitingSince, t.id),
    index("decisions_search_idx").using("gin", t.searchText.op("gin_trgm_ops")),
    // What needs an operator: the open decisions nobody can take.
    index("decisions_open_undecidable_idx").on(t.waitingSince, t.id).where(sql`${t.state} = 'open' AND NOT ${t.decidable}`),
  ],
);
export type DecisionRow = typeof decisions.$inferSelect;

/**
 * The instance's policies, one row (`id` is always true): what operators set in the app for every definition that
 * says nothing. `self_approval`: whether the person who started a run may decide its decisions (true on a fresh
 * install, so the first account can take its own first run to its end). server/policy/store.ts is the only writer.
 */
export const instancePolicy = pgTable("instance_policy", {
  id: boolean("id").primaryKey().default(true),
  selfApproval: boolean("self_approval").notNull().default(true),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  updatedBy: text("updated_by"),
});
export type InstancePolicyRow = typeof instancePolicy.$inferSelect;

/**
 * What happened to a decision, in order, for its run's conversation: opened, claimed, released, assigned, one approval
 * of several, reminded, escalated, decided, expired, cancelled. Written with the change it records, by
 * server/decisions/store.ts alone (the audit trail records the same acts for operators; this is what a run's readers see).
 */
export const decisionEvents = pgTable(
  "decision_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    decisionId: uuid("decision_id").notNull().references(() => decisions.id, { onDelete: "cascade" }),
    engineRunId: uuid("engine_run_id").notNull(),
    /** opened, claimed, released, assigned, approved, reminded, escalated, decided, expired, cancelled. */
    type: text("type").notNull(),
    byId: uuid("by_id"),
    /** Who did it, as named then; null for the system (a deadline). */
    byName: text("by_name"),
    /** The event's particulars (schemas.ts `DecisionEventDetail`): the new assignee, an approval's count, a reason. */
    detail: jsonb("detail").notNull().default(sql`'{}'::jsonb`),
    at: timestamp("at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  },
  (t) => [index("decision_events_run_idx").on(t.engineRunId, t.id)],
);
export type DecisionEventRow = typeof decisionEvents.$inferSelect;

// ---- Inline review: comments on parts of an output, and people's unsent feedback (server/review/store.ts alone) ------

/**
 * Comments on a part of a reviewed output. A node's comments are one conversation across its rounds (the output's
 * versions), so they are kept by its engine run and node; `decision_id` and `version` say where each was written.
 * `anchor` (server/review/anchors.ts) and `quote` locate its part in later versions. A reply has `reply_to` (a
 * thread's first comment); resolving a thread is marked on its first comment. `sent_with_version`: the request for
 * changes that carried it to the agent.
 */
export const reviewComments = pgTable(
  "review_comments",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    engineRunId: uuid("engine_run_id").notNull().references(() => stitchRuns.id, { onDelete: "cascade" }),
    nodeKey: text("node_key").notNull(),
    decisionId: uuid("decision_id").notNull().references(() => decisions.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    anchor: text("anchor").notNull(),
    label: text("label").notNull(),
    quote: text("quote").notNull(),
    text: text("text").notNull(),
    replyTo: uuid("reply_to"),
    authorId: uuid("author_id"),
    authorName: text("author_name").notNull(),
    createdAt: createdAt(),
    resolvedAt: timestamp("resolved_at", { withTimezone: true, mode: "string" }),
    resolvedBy: text("resolved_by"),
    sentWithVersion: integer("sent_with_version"),
  },
  (t) => [index("review_comments_node_idx").on(t.engineRunId, t.nodeKey, t.createdAt)],
);
export type ReviewCommentRow = typeof reviewComments.$inferSelect;

/** A person's unsent feedback on a decision, saved as typed (`person`: the account id, or "anonymous" without sign-in). */
export const reviewDrafts = pgTable(
  "review_drafts",
  {
    decisionId: uuid("decision_id").notNull().references(() => decisions.id, { onDelete: "cascade" }),
    person: text("person").notNull(),
    text: text("text").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.decisionId, t.person] })],
);

/**
 * A reviewer's edited versions of an output kept with its decisions (a Stitch review gate's): each edit is a version
 * after the decision's reviewed snapshot, the last one the version under review and what the gate's approval passes on.
 */
export const reviewEdits = pgTable(
  "review_edits",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    decisionId: uuid("decision_id").notNull().references(() => decisions.id, { onDelete: "cascade" }),
    engineRunId: uuid("engine_run_id").notNull(),
    nodeKey: text("node_key").notNull(),
    output: jsonb("output"),
    authorId: uuid("author_id"),
    authorName: text("author_name").notNull(),
    note: text("note"),
    createdAt: createdAt(),
  },
  (t) => [index("review_edits_decision_idx").on(t.decisionId, t.createdAt)],
);
export type ReviewEditRow = typeof reviewEdits.$inferSelect;

// ---- Notifications: webhook subscriptions and email (server/notifications/store.ts is the only writer) ----------------

/**
 * Operators' webhook subscriptions: a URL and the events it wants (a JSONB array of event types, schemas.ts
 * `NotificationEventType`). `secret` signs every delivery (Standard Webhooks); it must be kept as it is to sign, so
 * unlike a token it is not hashed, and it is answered only once, when the subscription is made. Deleting a
 * subscription deletes its deliveries with it: nothing more is sent to it.
 */
export const notificationSubscriptions = pgTable("notification_subscriptions", {
  id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
  url: text("url").notNull(),
  events: jsonb("events").notNull(),
  secret: text("secret").notNull(),
  createdById: uuid("created_by_id"),
  createdByName: text("created_by_name"),
  createdAt: createdAt(),
});
export type NotificationSubscriptionRow = typeof notificationSubscriptions.$inferSelect;

/**
 * Every event the notifier was told of, written in the transaction of the change it tells (so it exists if and only
 * if that change committed), with the payload every subscriber receives (schemas.ts `NotificationPayload`), built once.
 * Its deliveries and emails point at it.
 */
export const notificationEvents = pgTable(
  "notification_events",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    type: text("type").notNull(),
    payload: jsonb("payload").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("notification_events_created_idx").on(t.createdAt)],
);
export type NotificationEventRow = typeof notificationEvents.$inferSelect;

/**
 * The webhook outbox: one row per event and subscription that wants it, written with the event. The deliverer claims
 * due rows FOR UPDATE SKIP LOCKED under a lease (`locked_until`), so any number of processes share them and each row
 * has one series of attempts; a row is marked `delivered` once a 2xx answer came, rescheduled with backoff after a
 * failure (`run_at`), and marked `failed` after the last attempt. Kept afterwards as the subscription's recent deliveries.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    subscriptionId: uuid("subscription_id").notNull().references(() => notificationSubscriptions.id, { onDelete: "cascade" }),
    eventId: uuid("event_id").notNull().references(() => notificationEvents.id, { onDelete: "cascade" }),
    eventType: text("event_type").notNull(),
    /** pending, delivered or failed. */
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    runAt: timestamp("run_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
    lockedUntil: timestamp("locked_until", { withTimezone: true, mode: "string" }),
    /** The last attempt's HTTP status (null: no answer), how long it took, and why it failed. */
    responseStatus: integer("response_status"),
    responseMs: integer("response_ms"),
    lastError: text("last_error"),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true, mode: "string" }),
    deliveredAt: timestamp("delivered_at", { withTimezone: true, mode: "string" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("webhook_deliveries_due_idx").on(t.runAt).where(sql`${t.status} = 'pending'`),
    index("webhook_deliveries_subscription_idx").on(t.subscriptionId, t.createdAt),
    // Pruning an old event deletes its deliveries (the foreign key's cascade looks them up by event).
    index("webhook_deliveries_event_idx").on(t.eventId),
  ],
);
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;

/**
 * The email outbox: one row per event and person told of it by email (written with the event when SMTP_URL is set),
 * the message rendered then, so a later change of wording or address does not change what the event said. Claimed,
 * retried and given up like webhook deliveries; marked `sent` once the SMTP server accepted it.
 */
export const emailOutbox = pgTable(
  "email_outbox",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    eventId: uuid("event_id").notNull().references(() => notificationEvents.id, { onDelete: "cascade" }),
    accountId: uuid("account_id").notNull().references(() => accounts.id, { onDelete: "cascade" }),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    /** pending, sent or failed. */
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    runAt: timestamp("run_at", { withTimezone: true, mode: "string" }).notNull().defaultNow(),
    lockedUntil: timestamp("locked_until", { withTimezone: true, mode: "string" }),
    lastError: text("last_error"),
    sentAt: timestamp("sent_at", { withTimezone: true, mode: "string" }),
    createdAt: createdAt(),
  },
  (t) => [index("email_outbox_due_idx").on(t.runAt).where(sql`${t.status} = 'pending'`), index("email_outbox_event_idx").on(t.eventId)],
);
export type EmailOutboxRow = typeof emailOutbox.$inferSelect;
