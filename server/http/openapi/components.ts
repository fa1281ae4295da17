/**
 * The document's components: every request and answer body as JSON Schema, converted from the zod schema that
 * validates or types it, so the document cannot drift from what the server parses. Answers that TypeScript types
 * rather than zod are described here, each checked at compile time against the handler's type.
 */
import { z } from "zod";
import { AuditEntry, type AuditPage } from "../../audit/schemas";
import { CommentBody, CommentList, Draft, DraftBody, EditBody, EditCheck, ReviewComment, ReviewDiff, ReviewOutput } from "../../review/schemas";
import { AssignBody, DecideBody, Decision, DecisionActivityList, DecisionPage } from "../../decisions/schemas";
import { FlowConversation, FlowTurn } from "../../flows/schemas";
import { ForkBody, ForkFailedBody, Forked, ForkedFailures, RunComparison, RunLineage } from "../../forks/schemas";
import { CheckGraphBody, DiscardedDraft, FlowDiff, FlowDraft, FlowDraftBody, GraphCheck, RestoreVersionBody, SaveVersionBody, StaleVersion, StartFlowRunBody } from "../../flows/versionSchemas";
import type { Engine, EventResult } from "../../engine/engine";
import {
  CallbackBody, CancelBody, CreateFlowBody, FlowListItem, FlowVersion, FlowVersionSummary, NodeState, ReviewBody, RunStatus, StartRunBody, StitchFlow, StitchGraph, StitchRun, WorkerPayload,
} from "../../engine/schemas";
import {
  AgentCall, AgentRef, ApproveBody, CallbackResult, ArtifactVersion, CreateRunBody, EditBriefBody, ExportPayload, PipelineAgent, PipelineRunView, RejectBody, RunSummary, StoreArtifactBody,
} from "../../pipeline/schemas";
import { Account, type AuthStatus, Role, SignInBody } from "../../people/schemas";
import { InstancePolicy, PolicyChange } from "../../policy/schemas";
import { CreateSubscriptionBody, CreatedSubscription, Delivery, DeliveryList, NotificationPayload, Subscription } from "../../notifications/schemas";
import { SESSION_COOKIE } from "../guard";
import { HealthBody } from "../healthRoutes";
import { Problem, StepWorkflowDefinition } from "../../workflows/steps/definition";
import * as steps from "../../workflows/steps/schemas";
import type { StepWorkflowQueries } from "../../workflows/steps/queries";
import type { WorkflowCommands } from "../../workflows/yaml/commands";
import { LocatedIssue, WorkflowDefinition } from "../../workflows/yaml/definition";
import * as workflow from "../../workflows/yaml/schemas";
import { AnyRegisteredWorkflow, AnyWorkflowDetail, AnyWorkflowRun, AnyWorkflowRunSummary, StartAnyRunBody } from "../../workflows/schemas";

// ---- Schemas for answers typed by TypeScript rather than zod --------------------------------------------------
// Each is checked against the handler's return type below, so a change to the type breaks the build, not the docs.

const ErrorBody = z
  .object({
    error: z
      .string()
      .describe(
        "A code: invalid_json, invalid_body, invalid_query, invalid_path, invalid_header, invalid_cursor, invalid_graph, invalid_workflow, invalid_inputs, " +
          "bad_request, unauthorized, forbidden, not_found, conflict, body_too_large, unsupported_media_type, rate_limited, database_unavailable or internal.",
      ),
    message: z.string().describe("What was wrong, written for a person: it names the field or the state that refused the request."),
    detail: z.string().describe("The same text as `message`, for clients written for the original FastAPI backend, which read `detail`."),
    issues: z
      .array(z.union([LocatedIssue, Problem]))
      .optional()
      .describe(
        "With `invalid_workflow`: every problem of the definition, located in its YAML text (line and column), or for a step workflow at its JSON path " +
          "(`steps[1].params.text`). With `invalid_inputs`: each input that does not fit, at `inputs.<name>`.",
      ),
    warnings: z.array(LocatedIssue).optional().describe("With `invalid_workflow` only: what the definition's loader would ignore or doubts (not a reason to refuse)."),
    required_role: Role.optional().describe("With `unauthorized` and `forbidden` from a route's door: the role the operation needs."),
    role: Role.optional().describe("With `forbidden` from a route's door: the caller's role, which is below `required_role`."),
    retry_after_seconds: z.number().int().optional().describe("With `rate_limited`: when to try signing in again."),
    problems: GraphCheck.shape.problems.optional().describe("With `invalid_graph`: every problem of the graph, on the node, edge and field it concerns."),
    latest: StaleVersion.shape.latest.optional().describe("With `conflict` from a save: the version saved since the one the save started from."),
    diff: StaleVersion.shape.diff.optional().describe("With `conflict` from a save: what changed from the version the save started from to `latest`."),
  })
  .describe(
    "The body of every refusal; a workflow definition that does not load adds `issues` (and, YAML, `warnings`), and so do a step run's inputs that do not fit; " +
      "a refusal at a route's door names the role needed (and the caller's).",
  );

const FlowSummary = FlowListItem;

const EngineRunSummary = StitchRun.pick({ id: true, flow_id: true, flow_version: true, owner: true, status: true, created_at: true, updated_at: true }).extend({
  flow_name: z.string(),
  title: z.string().nullable().describe("The run's title from its input: its `title`, `domain` (a pipeline run) or `message` (a YAML workflow run), at most 120 characters; null for none."),
});

const RunEvent = z
  .object({
    id: z.number().int(),
    node_id: z.string().nullable().describe("The node the event addressed; null for the run's start."),
    type: z.string().describe("start (or fork: the first event of a run forked from another, its payload the run and node it came from and the rows it was seeded with), callback, complete, review, retry, or the dispatcher's delivery failure."),
    payload: z.unknown(),
    actor: z
      .string()
      .nullable()
      .describe("The signed-in account (or `bootstrap token`) that completed, reviewed, retried or cancelled; null for the start and for workers' callbacks."),
    created_at: z.string(),
  })
  .describe("One accepted event of a run, in its event log. Duplicates are not recorded (every change requested, accepted or refused, is in the audit trail, GET /api/audit).");

const EventResultBody = z
  .object({
    runId: z.string(),
    nodeId: z.string().nullable(),
    duplicate: z.boolean().describe("True when the event repeated one already applied: nothing changed, and the answer is still 200."),
    message: z.string().optional().describe("Why a duplicate changed nothing."),
    node: NodeState.optional().describe("The addressed node's state after the event."),
    runStatus: RunStatus,
  })
  .describe("The outcome of one event (callback, completion, retry or review).");


const BuiltinAgentAccepted = z.object({ accepted: z.literal(true), run_id: z.string(), agent: z.string() });

const WorkflowValidation = z
  .object({ valid: z.literal(true), warnings: z.array(LocatedIssue) })
  .describe("A definition that loads (nothing is stored), with its warnings; one that does not is refused with 400 `invalid_workflow`.");

/** A workflow definition as JSON (`{ yaml }`) and as YAML text: the two forms POST /api/workflows and /validate read. */
const [WorkflowYaml, WorkflowYamlText] = workflow.RegisterBody.options;

/** What POST /api/workflows and /validate read as JSON: `{ yaml }`, or a step workflow's definition. */
const RegisterWorkflowBody = z
  .union([WorkflowYaml, StepWorkflowDefinition])
  .describe("A YAML workflow as `{ \"yaml\": \"...\" }`, or a JSON step workflow definition (`{ id, steps, ... }`): any JSON object without `yaml`.");


/**
 * What `AgentCallbackBody` in server/pipeline/protocol.ts accepts. That schema reads the body by hand (a transform of
 * an unknown value), so it converts to nothing useful; this describes the same bodies for the document.
 */
const AgentOutputCallback = z.object({
  run_id: z.string().min(1).describe("The run_id the agent was called with."),
  content: z
    .union([z.record(z.string(), z.unknown()), z.string()])
    .describe("The agent's output as a non-empty JSON object ({ artifact, changes_made, justification }), or that object as JSON text."),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
const AgentFailureCallback = z.object({
  run_id: z.string().min(1),
  status: z.literal("failed"),
  error: z.string().optional().describe("Why the agent failed; shown to the reviewer, who can retry the agent."),
});
const AgentCallbackBody = z
  .union([AgentOutputCallback, AgentFailureCallback, z.object({ body: z.union([AgentOutputCallback, AgentFailureCallback]) })])
  .describe(
    "The preferred body, a failure report, or either wrapped in `{ body: ... }` as some n8n set-ups send it. " +
      "A body without `content` is also accepted: its fields other than run_id are taken as the content.",
  );

/** What GET /api/auth/session answers (the app asks the same on load). */
const AuthStatusBody = z
  .object({
    needsSetup: z.boolean().describe("True until the first account exists (created in the app, which then signs its person in as an operator)."),
    me: z
      .object({
        id: z.string().nullable().describe("The account's id; null for the bootstrap token (STITCH_BOOTSTRAP_TOKEN), which is no account."),
        name: z.string().describe("What decisions are recorded under."),
        email: z.string().nullable(),
        role: Role,
        via: z.enum(["session", "token", "bootstrap", "anonymous"]).describe("How the caller was recognised: session cookie, personal API token, or the bootstrap token."),
      })
      .nullable()
      .describe("Who is calling; null without credentials."),
    csrfToken: z.string().nullable().describe("With a session cookie: the token to send as `x-csrf-token` with every change made with that cookie."),
  })
  .describe("Whether the first account must be created, and who is calling.");

const SignedIn = z
  .object({
    account: Account,
    csrf_token: z.string().describe("Send as `x-csrf-token` with every change made with the session cookie."),
    expires_at: z.string().describe("When the session ends (ISO 8601)."),
  })
  .describe(`The signed-in account; the answer also sets the \`${SESSION_COOKIE}\` cookie (HttpOnly, SameSite=Lax).`);

const SignedOut = z.object({ signed_out: z.literal(true) });

const AuditPageBody = z
  .object({
    entries: z.array(AuditEntry).describe("Newest first."),
    next_before: z.number().int().nullable().describe("Pass as `before` for the next (older) page; null on the last page."),
  })
  .describe("A page of the audit trail.");

type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Item<T extends (...args: never[]) => Promise<unknown[]>> = Awaited<ReturnType<T>>[number];
const answerSchemasMatchTheirTypes: [
  Exactly<z.infer<typeof EventResultBody>, EventResult>,
  Exactly<z.infer<typeof FlowSummary>, Item<Engine["listFlows"]>>,
  Exactly<z.infer<typeof EngineRunSummary>, Awaited<ReturnType<Engine["listRuns"]>>["items"][number]>,
  Exactly<z.infer<typeof RunEvent>, Item<Engine["runEvents"]>>,
  Exactly<z.infer<typeof WorkflowValidation>, ReturnType<WorkflowCommands["validate"]>>,
  Exactly<z.infer<typeof steps.ToolDescription>, ReturnType<StepWorkflowQueries["listTools"]>[number]>,
  Exactly<z.infer<typeof AuthStatusBody>, AuthStatus>,
  Exactly<z.infer<typeof AuditPageBody>, AuditPage>,
] = [true, true, true, true, true, true, true, true];
void answerSchemasMatchTheirTypes;

// ---- Components ----------------------------------------------------------------------------------------------

/** Request bodies, converted as zod parses them (`io: "input"`). The YAML workflows' are named for their surface. */
const requestSchemas = {
  CreateFlowBody, StitchGraph, StartRunBody, StartFlowRunBody, SaveVersionBody, RestoreVersionBody, CheckGraphBody, FlowDraftBody, CallbackBody, ReviewBody, CancelBody,
  CreateRunBody, EditBriefBody, ApproveBody, RejectBody, StoreArtifactBody, AgentCallbackBody, AgentCall,
  WorkflowYaml, WorkflowYamlText, StartWorkflowRunBody: StartAnyRunBody, ApproveWorkflowNodeBody: workflow.ApproveBody,
  RejectWorkflowNodeBody: workflow.RejectBody, WorkflowInputBody: workflow.InputBody, CancelWorkflowRunBody: workflow.CancelBody,
  RegisterWorkflowBody, StepWorkflowDefinition, ExecuteWorkflowBody: steps.ExecuteBody, SignInBody, AssignDecisionBody: AssignBody, DecideDecisionBody: DecideBody,
  CreateSubscriptionBody, PolicyChange, ReviewCommentBody: CommentBody, ReviewDraftBody: DraftBody, ReviewEditBody: EditBody,
  ForkBody, ForkFailedBody,
};

/**
 * Answers, converted as the server produces them (`io: "output"`, so objects list exactly their keys); WorkerPayload is
 * what a Worker's webhook receives. StitchGraph is a request component only: as an answer it differs (no extra keys).
 */
const responseSchemas = {
  StitchFlow, FlowSummary, FlowVersion, FlowVersionSummary, GraphCheck, FlowDraft, DiscardedDraft, FlowDiff, StaleVersion, StitchRun, NodeState, EngineRunSummary, RunEvent, EventResult: EventResultBody, WorkerPayload,
  Health: HealthBody, PipelineAgent, AgentRef, PipelineRunView, RunSummary, CallbackResult, ArtifactVersion, ExportPayload,
  BuiltinAgentAccepted, ErrorBody, LocatedIssue, WorkflowValidation, WorkflowNodeSummary: workflow.NodeSummary,
  RegisteredWorkflow: workflow.RegisteredWorkflow, WorkflowDefinition, WorkflowDetail: workflow.WorkflowDetail,
  WorkflowNodeRun: workflow.NodeRunView, WorkflowRunView: workflow.WorkflowRunView, WorkflowRunSummary: workflow.WorkflowRunSummary,
  WorkflowProblem: Problem, RegisteredStepWorkflow: steps.RegisteredStepWorkflow, StepWorkflowDetail: steps.StepWorkflowDetail, RunStep: steps.RunStep,
  StepRunView: steps.StepRunView, StepRunSummary: steps.StepRunSummary, StepSummary: steps.StepSummary, WorkflowTool: steps.ToolDescription,
  AnyRegisteredWorkflow, AnyWorkflowDetail, AnyWorkflowRun, AnyWorkflowRunSummary,
  Account, SignedIn, SignedOut, AuthStatus: AuthStatusBody, AuditEntry, AuditPage: AuditPageBody, Decision, DecisionPage, DecisionActivityList,
  Subscription, CreatedSubscription, Delivery, DeliveryList, NotificationPayload, InstancePolicy,
  FlowConversation, FlowTurn, ReviewOutput, ReviewComment, ReviewCommentList: CommentList, ReviewDraft: Draft, ReviewDiff, ReviewEditCheck: EditCheck,
  Forked, RunLineage, ForkedFailures, RunComparison,
};

export type ComponentName = keyof typeof requestSchemas | keyof typeof responseSchemas;

/** Every component's zod schema by name, so tests can check real answers against the schema the document names. */
export const componentSchemas: Record<ComponentName, z.ZodType> = { ...requestSchemas, ...responseSchemas };

export type JsonSchema = Record<string, unknown>;

/** Drops what only clutters the rendered docs: zod's safe-integer bounds on every int, and the regex behind `format: uuid`. */
function tidy({ jsonSchema }: { jsonSchema: JsonSchema }): void {
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
  if (jsonSchema.format === "uuid") delete jsonSchema.pattern;
}

/** One schema as a request reads it, outside the components: a query parameter's, from the zod schema that parses it. */
export const requestJsonSchema = (schema: z.ZodType): JsonSchema => z.toJSONSchema(schema, { target: "openapi-3.0", io: "input", override: tidy }) as JsonSchema;

function convert(schemas: Record<string, z.ZodType>, io: "input" | "output"): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  const converted = z.toJSONSchema(registry, { target: "openapi-3.0", io, uri: (id) => `#/components/schemas/${id}`, override: tidy });
  // `$id` is not a keyword of OpenAPI 3.0's Schema Object; the component's name already identifies it.
  return Object.fromEntries(Object.entries(converted.schemas).map(([id, { $id: _id, ...schema }]) => [id, schema as JsonSchema]));
}

/** `components.schemas`: requests as zod parses them, answers as the server produces them. */
export function buildComponentSchemas(): Record<string, JsonSchema> {
  const requests = convert(requestSchemas, "input");
  const responses = convert(responseSchemas, "output");
  for (const [id, schema] of Object.entries(responses)) {
    const asRequest = requests[id];
    if (asRequest && JSON.stringify(asRequest) !== JSON.stringify(schema)) {
      throw new Error(`OpenAPI component ${id} converts differently as a request and as an answer (additionalProperties, a default or a transform); register it under two names`);
    }
  }
  return { ...requests, ...responses };
}
