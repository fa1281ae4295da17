/**
 * The agent pipeline's data as its clients see it (REST at the seed's paths and tRPC for the app),
 * defined once as zod schemas; the types are inferred from them.
 */
import { z } from "zod";
import { DecidedBody, FailedBody, InputBody, OutcomeBody, OutputBody, StartedBody, commonEvents, turnOf } from "../conversation/turn";
import { DecisionRules } from "../engine/schemas";
import { SentComment } from "../review/schemas";
import { MadeBy } from "./provenance";

export const AgentSlug = z.string().regex(/^[a-z][a-z0-9_-]*$/, "agent slugs are lowercase letters, digits, - and _");

/** One agent of the pipeline definition, with its context rule: which earlier outputs it is given. */
export const PipelineAgent = z.object({
  slug: AgentSlug,
  name: z.string().min(1),
  order: z.number().int().positive(),
  artifact_type: z.string().min(1),
  /** Where the agent is called; resolved from AGENT_WEBHOOK_<SLUG>, N8N_BASE_URL + webhook_path, or the built-in agent. */
  webhook_url: z.string().url(),
  /** The n8n webhook path, appended to N8N_BASE_URL. */
  webhook_path: z.string().optional(),
  /** Which keys the agent's context holds: "domain", "brief", or earlier agents' artifact types. */
  context: z.array(z.string()).min(1),
  /** True when webhook_url is the product's own built-in agent. */
  builtin: z.boolean(),
  /** Who reviews its outputs and by when (default: the reviewers, not whoever submitted the brief, no deadline). */
  ...DecisionRules.shape,
});
export type PipelineAgent = z.infer<typeof PipelineAgent>;

export const CreateRunBody = z.object({
  domain: z.string().trim().min(1, "domain must not be empty"),
  brief: z.string().trim().min(30, "brief must be at least 30 characters"),
});
export type CreateRunBody = z.infer<typeof CreateRunBody>;

/** POST /runs/{run_id}/brief: the analyst's new brief; the first agent starts over with it. */
export const EditBriefBody = z.object({ brief: CreateRunBody.shape.brief });
export type EditBriefBody = z.infer<typeof EditBriefBody>;

/** Who submitted a run (its engine run's starter): the account's id and name, null when not known. */
export const SubmittedBy = z.object({ id: z.string().uuid().nullable(), name: z.string().nullable() });
export type SubmittedBy = z.infer<typeof SubmittedBy>;

/**
 * Which output a reviewer decided on. Optional (the seed's clients send nothing); when given, a decision that
 * no longer fits the waiting output (another reviewer moved the run on) is refused with 409 instead of landing
 * on an output the reviewer never saw.
 */
export const ReviewedOutput = z.object({
  agent: z.string().min(1),
  version: z.number().int().positive(),
});
export type ReviewedOutput = z.infer<typeof ReviewedOutput>;

/** An approval, with the reviewer's comment when they wrote one (kept in the conversation, the audit trail and the export). */
export const ApproveBody = z.object({
  comment: z.string().max(20_000).optional().describe("The reviewer's comment on the approved output; a blank one is stored as none."),
  expected: ReviewedOutput.optional(),
});

/** `feedback` may be empty when the reviewer's open comments on parts of the output say what should change (the command checks). */
export const RejectBody = z.object({
  feedback: z.string().trim().max(20_000).default(""),
  expected: ReviewedOutput.optional(),
});

/** POST /runs/{run_id}/artifacts: an artifact stored by hand or by a system fallback. */
export const StoreArtifactBody = z.object({
  artifact_type: z.string().min(1, "artifact_type must not be empty"),
  content: z.record(z.string(), z.unknown()),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

/** What the pipeline POSTs to an agent's webhook; built-in agents take the same body. */
export const AgentCall = z
  .object({
    run_id: z.string().min(1),
    context: z.record(z.string(), z.unknown()),
    is_feedback: z.boolean(),
    feedback: z.string().describe("The reviewer's feedback on a revision call; it lists her comments on parts of the output too (see `comments`)."),
    comments: z
      .array(SentComment)
      .optional()
      .describe("On a revision call, the reviewer's comments on parts of the output: each part's anchor, name, quoted text and what should change there."),
    callback_url: z.string().url("callback_url must be the URL to POST the result to"),
  })
  .describe("What the pipeline POSTs to an agent's webhook; built-in agents take the same body.");
export type AgentCall = z.infer<typeof AgentCall>;

export const AgentRef = z.object({ slug: z.string(), name: z.string(), order: z.number().int(), artifact_type: z.string() });
export type AgentRef = z.infer<typeof AgentRef>;

/**
 * Where a run stands: an agent at work (`in_progress`), at work again on review feedback (`retrying`), its output
 * waiting for a reviewer (`waiting_approval`), its agent failed (`failed`), or the run over (`completed`, `cancelled`).
 */
export const RunPhase = z.enum(["in_progress", "retrying", "waiting_approval", "failed", "completed", "cancelled"]);
export type RunPhase = z.infer<typeof RunPhase>;

/** The run's status, typed: the phase and the agent it concerns (none once the run is over). */
export const RunState = z.object({ phase: RunPhase, agent: AgentSlug.nullable() });
export type RunState = z.infer<typeof RunState>;

/** Where a fork of a pipeline run came from: its parent (a pipeline run id), the agent it restarted at, who, when. */
export const PipelineForkedFrom = z.object({
  run_id: z.string().describe("The parent pipeline run."),
  node_id: z.string().describe("The node forked at: `agent_<slug>` (the agent drafts afresh) or `review_<slug>` (its output is reviewed anew)."),
  agent: AgentSlug.nullable().describe("The agent of that node."),
  by: z.string().nullable().describe("Who forked it."),
  at: z.string(),
  version: z.enum(["original", "latest"]).describe("`original`: the pipeline the parent ran; `latest`: the pipeline in force when it was forked."),
});
export type PipelineForkedFrom = z.infer<typeof PipelineForkedFrom>;

/** A fork as its parent lists it. */
export const PipelineFork = PipelineForkedFrom.omit({ run_id: true }).extend({ run_id: z.string().describe("The fork's own pipeline run id.") });
export type PipelineFork = z.infer<typeof PipelineFork>;

/** A run as its clients read it, plus `failure` when an agent could not be reached or failed. */
export const PipelineRunView = z.object({
  run_id: z.string(),
  domain: z.string(),
  brief: z.string(),
  status: z.string().describe("The status string existing clients read: IN_PROGRESS_<SLUG>, RETRYING_<SLUG>, WAITING_APPROVAL_<SLUG>, FAILED_<SLUG>, COMPLETED or CANCELLED."),
  state: RunState.describe("The same status, typed: read this rather than parsing `status`."),
  current_agent: AgentRef.nullable(),
  is_waiting_for_user: z.boolean(),
  failure: z.string().nullable(),
  submitted_by: SubmittedBy.nullable().describe("Who submitted the brief; she may cancel the run and edit its brief while the first agent is not approved."),
  created_at: z.string(),
  updated_at: z.string(),
  retry_allowed: z.boolean().describe("Whether `POST .../retry` would be accepted now: the agent failed, or has been in progress for longer than AGENT_STUCK_AFTER_MS."),
  forked_from: PipelineForkedFrom.nullable().describe("The run this one was forked from (`POST /api/runs/{run_id}/fork`), at which agent, by whom; null for a run submitted as a brief."),
  forks: z.array(PipelineFork).describe("The runs forked from this one, oldest first."),
});
export type PipelineRunView = z.infer<typeof PipelineRunView>;

/** Who an output waiting for review waits for: the open decision's assignee, an account or a role. */
export const WaitingFor = z.object({ kind: z.enum(["account", "role"]), id: z.string().uuid().nullable(), name: z.string().nullable(), role: z.string() });
export type WaitingFor = z.infer<typeof WaitingFor>;

export const RunSummary = PipelineRunView.pick({
  run_id: true, domain: true, status: true, state: true, is_waiting_for_user: true, current_agent: true, failure: true, submitted_by: true, created_at: true, updated_at: true,
}).extend({
  waiting_for: WaitingFor.nullable().describe("While an output waits for review, who its decision waits for (its assignee); null otherwise."),
});
export type RunSummary = z.infer<typeof RunSummary>;

export const ArtifactContent = z.record(z.string(), z.unknown());

/** Who edited an artifact version by hand (its metadata's `edited_by`): a reviewer's edit before approving. */
export const EditedBy = z.object({ id: z.string().uuid().nullable(), name: z.string() });
export type EditedBy = z.infer<typeof EditedBy>;

/** An artifact version's metadata as stored: what the agent sent, plus `schema_issues` when its content did not fit. */
export const ArtifactMetadata = z.record(z.string(), z.unknown()).nullable();

/**
 * A turn of a run's conversation as the pipeline stores it (`pipeline_events`): its kind and what that kind carries.
 * The store writes and reads turns through this schema, so a turn is never read as something it is not.
 */
export const PipelineTurn = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("started"), payload: z.object({ is_feedback: z.boolean(), attempt: z.number().int().optional() }) }),
  z.object({ kind: z.literal("artifact"), payload: z.object({ artifact_id: z.number().int(), version: z.number().int() }) }),
  // Turns stored before approvals kept their comment have no payload: read as an approval without one.
  z.object({
    kind: z.literal("approved"),
    payload: z
      .object({
        comment: z.string().nullable(),
        /** An approval a fork copied from its parent: the run it was decided in, and when (the turn's own time is the fork's). */
        decided_in: z.object({ run_id: z.string(), at: z.string() }).optional(),
      })
      .nullable()
      .transform((p) => p ?? { comment: null }),
  }),
  z.object({ kind: z.literal("rejected"), payload: z.object({ feedback: z.string() }) }),
  z.object({ kind: z.literal("failed"), payload: z.object({ error: z.string() }) }),
  z.object({ kind: z.literal("completed"), payload: z.null() }),
  z.object({ kind: z.literal("cancelled"), payload: z.object({ reason: z.string().nullable() }) }),
  // The submitter's new brief, with the one it replaces (the conversation keeps both).
  z.object({ kind: z.literal("brief_edited"), payload: z.object({ brief: z.string(), previous: z.string() }) }),
  // A fork's first turn: where it came from, and what the person forking said to the agent it restarts at.
  z.object({ kind: z.literal("forked"), payload: z.object({ from_run_id: z.string(), node_id: z.string(), feedback: z.string().nullable() }) }),
]);
export type PipelineTurn = z.infer<typeof PipelineTurn>;

/** One stored artifact version (never overwritten). */
export const ArtifactVersion = z.object({
  id: z.number().int(),
  run_id: z.string(),
  artifact_type: z.string(),
  version: z.number().int().positive(),
  content: ArtifactContent,
  metadata: z.record(z.string(), z.unknown()).nullable(),
  created_at: z.string(),
});
export type ArtifactVersion = z.infer<typeof ArtifactVersion>;

/**
 * A pipeline run's conversation, in order, in the turn vocabulary every run speaks (conversation/turn.ts): the brief
 * and each edit of it (`input`), an agent at work (`started`), its output (`output`), a reviewer's approval or request
 * for changes (`decided`), an agent's failure (`failed`), forks (`system`) and the run's end (`outcome`). A turn about
 * an agent names its node `agent_<slug>` (label: the agent's name, type `agent`); a fork's turn names the node forked
 * at, `agent_<slug>` or `review_<slug>` (type `review`). The conversation's `agents` say each agent's slug, place and
 * artifact type.
 */
export const ConversationTurn = z.discriminatedUnion("kind", [
  turnOf(
    "input",
    InputBody.extend({
      value: z.string().describe("The brief's text."),
      domain: z.string(),
      version: z.number().int().positive().describe("1 for the brief submitted, 2 and on for each edit; the latest is the one the agents read."),
    }),
  ).describe("A version of the brief; `who` wrote it."),
  turnOf("started", StartedBody).describe("An agent called; `revising` (and the feedback it revises with) after a request for changes or a fork's first feedback."),
  turnOf(
    "output",
    OutputBody.extend({
      value: ArtifactContent.describe("The artifact version's content as the agent sent it."),
      artifact_type: z.string(),
      version: z.number().int(),
      metadata: z.record(z.string(), z.unknown()).nullable(),
      edited_by: z.string().nullable().describe("The reviewer who edited this version by hand (\"Edited by Rita Ramos\"); null for the agent's own."),
      made_by: MadeBy.describe("What made this version: an n8n agent, a model by name, the offline drafting or a person (provenance.ts)."),
      copied_from: z.object({ run_id: z.string(), version: z.number().int() }).nullable().describe("A version a fork copied from its parent: \"copied from RUN_... v2\"; null for one made in this run."),
    }),
  ).describe("An agent's artifact version."),
  turnOf(
    "decided",
    DecidedBody.extend({
      value: z.null().describe("Nothing: a review gives its node no value."),
      decided_in: z.string().nullable().describe("An approval copied by a fork: the run it was decided in (\"decided in RUN_...\"), at `at`; null for one decided in this run."),
    }),
  ).describe("A reviewer's approval (`text`: her comment) or request for changes (`text`: her feedback)."),
  turnOf("failed", FailedBody.extend({ retryable: z.boolean().describe("The failure the run is stuck on: it may be retried; earlier ones were retried already.") })).describe(
    "An agent's failure; the node is null when no agent is named.",
  ),
  turnOf("system", z.discriminatedUnion("event", [...commonEvents])).describe("This run forked from another (`forked`), or forked into another (`forked_into`)."),
  turnOf("outcome", OutcomeBody).describe("The run completed (every agent approved), or was cancelled by `who` for `reason`."),
]);
export type ConversationTurn = z.infer<typeof ConversationTurn>;

export const Conversation = z.object({
  run: PipelineRunView,
  /** The engine run behind this pipeline run, for the graph view. */
  stitch_run_id: z.string(),
  agents: z.array(AgentRef).describe("The run's agents in order: the agent of each turn's node (`agent_<slug>`, `review_<slug>`)."),
  turns: z.array(ConversationTurn),
});
export type Conversation = z.infer<typeof Conversation>;

/** The answer to an agent's callback or a stored artifact. */
export const CallbackResult = z
  .object({
    status: z.literal("ok"),
    run_id: z.string(),
    artifact_type: z.string(),
    version: z.number().int().describe("The stored artifact version; 0 when the agent reported a failure."),
    duplicate: z.boolean().describe("True when the same content was already stored: nothing new was stored or triggered."),
  })
  .describe("The outcome of an agent callback or a stored artifact.");
export type CallbackResult = z.infer<typeof CallbackResult>;

/** GET /runs/{run_id}/artifacts/export: the latest version of each artifact type. */
export const ExportPayload = z.object({
  run_id: z.string(),
  exported_at: z.string(),
  artifacts: z.array(z.object({ artifact_type: z.string(), version: z.number().int(), created_at: z.string(), artifact: z.unknown() })),
});
export type ExportPayload = z.infer<typeof ExportPayload>;
