/**
 * The OpenAPI document of the product's whole REST API: the engine's routes under /api/stitch, the agent pipeline's
 * routes at the seed's paths (agent-pipeline-backend.md section 7) and the built-in agents. Every body schema is
 * converted from the zod schema that validates or types it, so the document cannot drift from what the server
 * parses; what zod cannot know (paths, statuses, descriptions) is written here. openapi.test.ts fails when a route
 * in server/http/ has no entry here, when an entry has no route, or when a real answer does not fit its schema.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import type { Engine, EventResult } from "../engine/engine";
import {
  CallbackBody, CancelBody, CreateFlowBody, NodeState, ReviewBody, RunStatus, StartRunBody, StitchFlow, StitchGraph, StitchRun, WorkerPayload,
} from "../engine/schemas";
import {
  AgentCall, AgentRef, ApproveBody, CallbackResult, ArtifactVersion, CreateRunBody, ExportPayload, PipelineAgent, PipelineRunView, RejectBody, RunSummary, StoreArtifactBody,
} from "../pipeline/schemas";

// ---- Schemas for answers typed by TypeScript rather than zod --------------------------------------------------
// Each is checked against the handler's return type below, so a change to the type breaks the build, not the docs.

const ErrorBody = z
  .object({
    error: z.string().describe("A code: invalid_json, invalid_body, invalid_query, invalid_graph, not_found, conflict or bad_request."),
    message: z.string().describe("What was wrong, written for a person: it names the field or the state that refused the request."),
    detail: z.string().describe("The same text as `message`, for clients of the seed's FastAPI backend, which read `detail`."),
  })
  .describe("The body of every refusal.");

const FlowSummary = StitchFlow.pick({ id: true, name: true, created_at: true });

const EngineRunSummary = StitchRun.pick({ id: true, flow_id: true, status: true, created_at: true, updated_at: true }).extend({ flow_name: z.string() });

const RunEvent = z
  .object({
    id: z.number().int(),
    node_id: z.string().nullable().describe("The node the event addressed; null for the run's start."),
    type: z.string().describe("start, callback, complete, review, retry, or the dispatcher's delivery failure."),
    payload: z.unknown(),
    actor: z.string().nullable().describe("From the request's x-actor header (or a review's `actor`); null when nobody was named."),
    created_at: z.string(),
  })
  .describe("One accepted event of a run; the list is the run's audit trail. Duplicates are not recorded.");

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

const Health = z.object({ status: z.literal("ok") });

const BuiltinAgentAccepted = z.object({ accepted: z.literal(true), run_id: z.string(), agent: z.string() });

/** What `parseAgentCallback` in pipelineRoutes.ts accepts (seed 7.5); it is hand-parsed, so this describes it. */
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
      "A body without `content` is also accepted: its fields other than run_id are taken as the content (the seed's fallback).",
  );

type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Item<T extends (...args: never[]) => Promise<unknown[]>> = Awaited<ReturnType<T>>[number];
const answerSchemasMatchTheirTypes: [
  Exactly<z.infer<typeof EventResultBody>, EventResult>,
  Exactly<z.infer<typeof FlowSummary>, Item<Engine["listFlows"]>>,
  Exactly<z.infer<typeof EngineRunSummary>, Item<Engine["listRuns"]>>,
  Exactly<z.infer<typeof RunEvent>, Item<Engine["runEvents"]>>,
] = [true, true, true, true];
void answerSchemasMatchTheirTypes;

// ---- Components ----------------------------------------------------------------------------------------------

/** Request bodies, converted as zod parses them (`io: "input"`). */
const requestSchemas = {
  CreateFlowBody, StitchGraph, StartRunBody, CallbackBody, ReviewBody, CancelBody,
  CreateRunBody, ApproveBody, RejectBody, StoreArtifactBody, AgentCallbackBody, AgentCall,
};

/**
 * Answers, converted as the server produces them (`io: "output"`, so objects list exactly their keys); WorkerPayload is
 * what a Worker's webhook receives. StitchGraph is a request component only: as an answer it differs (no extra keys).
 */
const responseSchemas = {
  StitchFlow, FlowSummary, StitchRun, NodeState, EngineRunSummary, RunEvent, EventResult: EventResultBody, WorkerPayload,
  Health, PipelineAgent, AgentRef, PipelineRunView, RunSummary, CallbackResult, ArtifactVersion, ExportPayload,
  BuiltinAgentAccepted, ErrorBody,
};

export type ComponentName = keyof typeof requestSchemas | keyof typeof responseSchemas;

/** Every component's zod schema by name, so tests can check real answers against the schema the document names. */
export const componentSchemas: Record<ComponentName, z.ZodType> = { ...requestSchemas, ...responseSchemas };

type JsonSchema = Record<string, unknown>;

/** Drops what only clutters the rendered docs: zod's safe-integer bounds on every int, and the regex behind `format: uuid`. */
function tidy({ jsonSchema }: { jsonSchema: JsonSchema }): void {
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
  if (jsonSchema.format === "uuid") delete jsonSchema.pattern;
}

function convert(schemas: Record<string, z.ZodType>, io: "input" | "output"): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  const converted = z.toJSONSchema(registry, { target: "openapi-3.0", io, uri: (id) => `#/components/schemas/${id}`, override: tidy });
  // `$id` is not a keyword of OpenAPI 3.0's Schema Object; the component's name already identifies it.
  return Object.fromEntries(Object.entries(converted.schemas).map(([id, { $id: _id, ...schema }]) => [id, schema as JsonSchema]));
}

function buildComponents(): Record<string, JsonSchema> {
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

// ---- Building blocks of operations ---------------------------------------------------------------------------

const ref = (name: ComponentName) => ({ $ref: `#/components/schemas/${name}` });
const listOf = (name: ComponentName) => ({ type: "array", items: ref(name) });
const jsonContent = (schema: JsonSchema, example?: unknown) => ({ "application/json": { schema, ...(example === undefined ? {} : { example }) } });
const answer = (description: string, schema: JsonSchema) => ({ description, content: jsonContent(schema) });
const body = (name: ComponentName, example: unknown, description?: string) => ({
  required: true, ...(description ? { description } : {}), content: jsonContent(ref(name), example),
});

type ErrorStatus = 400 | 401 | 404 | 409 | 422;
/** The refusals of one operation, each with when it happens; all share the `{ error, message, detail }` body. */
const refusals = (cases: Partial<Record<ErrorStatus, string>>) =>
  Object.fromEntries(Object.entries(cases).map(([status, description]) => [status, answer(description, ref("ErrorBody"))]));

const pathParam = (name: string, description: string, format?: "uuid") => ({
  name, in: "path", required: true, description, schema: { type: "string", ...(format ? { format } : {}) },
});
const queryParam = (name: string, description: string, schema: JsonSchema = { type: "string" }) => ({ name, in: "query", required: false, description, schema });
const actorHeader = {
  name: "x-actor", in: "header", required: false, schema: { type: "string" },
  description: "Who is acting (a person's or system's name); recorded in the run's event log.",
};

const runIdParam = pathParam("id", "The run's id (a UUID).", "uuid");
const engineRunIdParam = pathParam("runId", "The run's id (a UUID).", "uuid");
const nodeIdParam = pathParam(
  "nodeId",
  "The node's id from the flow's graph; a node inside a Splitter's scope is addressed per path as `<nodeId>_<index>` (e.g. `translate_0`).",
);
const pipelineRunIdParam = pathParam("run_id", "The pipeline run's id, as created by POST /runs (`RUN_...`).");

const engineEventRefusals = (extra: Partial<Record<ErrorStatus, string>> = {}) =>
  refusals({
    404: "No run with that id, or the run has no node with that id.",
    409: "The node is not in a state this event applies to (the message says which state it is in).",
    ...extra,
  });
const invalidJson400 = "The body is not valid JSON.";
const unknownPipelineRun404 = "No pipeline run with that run_id.";

// ---- The document --------------------------------------------------------------------------------------------

const apiDescription = `
The REST API of Stitch: the durable workflow engine (under \`/api/stitch\`), the agent pipeline at the paths of the
FastAPI backend it replaces (\`/runs\`, \`/agents\`, \`/callbacks/agent/{agent_slug}\`, ...) and the built-in agents.
The web app itself talks tRPC at \`/trpc\`, which is not described here.

**Errors.** Every refusal answers \`{ "error": code, "message": text, "detail": text }\`; \`detail\` repeats \`message\`
for clients of the seed's backend. The engine's routes answer 400 for a body that does not validate, 404 for an
unknown run, flow or node and 409 for an event the node's state does not allow. The pipeline's routes and the
built-in agents answer 422 for a body that does not validate, as the seed's FastAPI backend did.

**Idempotency.** Repeating a callback, completion, approval or retry that was already applied changes nothing and
answers 200 with \`duplicate: true\`, so workers and n8n may deliver at least once.

**Actors.** Send \`x-actor: <name>\` with completions, reviews, approvals, rejections and retries to record who acted.
`.trim();

function buildPaths() {
  const engine = ["engine"];
  const pipeline = ["agent pipeline"];

  return {
    // ---- Engine (server/http/stitchRoutes.ts, mounted at /api/stitch) ----
    "/api/stitch/flows": {
      post: {
        tags: engine, operationId: "createFlow", summary: "Create a flow",
        description: "Stores a flow graph after checking it (node types, edges between existing nodes, no cycles, splitter and collector pairing). Flows are immutable.",
        requestBody: body("CreateFlowBody", {
          name: "greet",
          graph: {
            nodes: [
              { id: "ask", type: "UX", position: { x: 0, y: 0 }, data: { prompt: "Your name?" } },
              { id: "greet", type: "Worker", position: { x: 200, y: 0 }, data: { webhookUrl: "https://worker.example/greet" } },
            ],
            edges: [{ id: "ask->greet", source: "ask", target: "greet" }],
          },
        }),
        responses: {
          201: answer("The stored flow.", ref("StitchFlow")),
          ...refusals({ 400: "Invalid JSON (`invalid_json`), a body that does not validate (`invalid_body`), or a graph the engine cannot run (`invalid_graph`)." }),
        },
      },
      get: {
        tags: engine, operationId: "listFlows", summary: "List flows", description: "The newest 200 flows, newest first.",
        responses: { 200: answer("The flows.", listOf("FlowSummary")) },
      },
    },
    "/api/stitch/flows/{id}": {
      get: {
        tags: engine, operationId: "getFlow", summary: "Get a flow",
        parameters: [pathParam("id", "The flow's id (a UUID).", "uuid")],
        responses: { 200: answer("The flow with its graph.", ref("StitchFlow")), ...refusals({ 404: "No flow with that id." }) },
      },
    },
    "/api/stitch/flows/{id}/runs": {
      post: {
        tags: engine, operationId: "startRun", summary: "Start a run of a flow",
        description: "Creates the run with every node pending and fires the entry nodes in one transaction; their webhooks are called after commit.",
        parameters: [pathParam("id", "The flow's id (a UUID).", "uuid")],
        requestBody: { ...body("StartRunBody", { input: { items: ["a", "b"] } }), required: false },
        responses: {
          201: answer("The new run.", ref("StitchRun")),
          ...refusals({ 400: `${invalidJson400} Or a body that is not an object.`, 404: "No flow with that id." }),
        },
      },
    },
    "/api/stitch/runs": {
      get: {
        tags: engine, operationId: "listEngineRuns", summary: "List runs", description: "Up to 100 runs, newest first.",
        parameters: [queryParam("flow_id", "Only runs of this flow (a UUID).", { type: "string", format: "uuid" })],
        responses: { 200: answer("The runs.", listOf("EngineRunSummary")) },
      },
    },
    "/api/stitch/runs/{id}": {
      get: {
        tags: engine, operationId: "getEngineRun", summary: "Get a run with its node states",
        parameters: [runIdParam],
        responses: { 200: answer("The run.", ref("StitchRun")), ...refusals({ 404: "No run with that id." }) },
      },
    },
    "/api/stitch/runs/{id}/cancel": {
      post: {
        tags: engine, operationId: "cancelEngineRun", summary: "Cancel a run",
        description:
          "Every unfinished node (pending, running, waiting for a person, failed) becomes `cancelled` with the reason as its error, " +
          "its webhooks still to send and its timers are dropped, and the run's status is `cancelled` for good: a late callback is " +
          "refused with 409 and nothing can be retried. Completed nodes keep their outputs. Cancelling again answers `duplicate: true`.",
        parameters: [runIdParam, actorHeader],
        requestBody: { ...body("CancelBody", { reason: "the brief was withdrawn" }), required: false },
        responses: {
          200: answer("The event's outcome (`runStatus: \"cancelled\"`).", ref("EventResult")),
          ...refusals({ 400: `${invalidJson400} Or a reason that is not a string.`, 404: "No run with that id.", 409: "The run has finished; there is nothing to cancel." }),
        },
      },
    },
    "/api/stitch/runs/{id}/events": {
      get: {
        tags: engine, operationId: "getEngineRunEvents", summary: "A run's event log",
        description: "Every accepted event in order, with who caused it: the audit trail of completions, reviews and retries.",
        parameters: [runIdParam],
        responses: { 200: answer("The events, oldest first (empty for an unknown run id).", listOf("RunEvent")), ...refusals({ 404: "The id is not a UUID." }) },
      },
    },
    "/api/stitch/callback/{runId}/{nodeId}": {
      post: {
        tags: engine, operationId: "workerCallback", summary: "A worker reports completion or failure",
        description:
          "The callback URL a Worker node's webhook receives (`callbackUrl` in WorkerPayload). Idempotent: a repeated callback, " +
          "or one for an attempt the node has moved past (when `attempt` is echoed), answers 200 with `duplicate: true` and changes nothing. " +
          "A completed node's output flows to the nodes after it; a failed node waits for a retry. " +
          "With `STITCH_CALLBACK_SECRET` set, the callback URL carries `?token=` and a callback must present that token " +
          "(in the query, or as `Authorization: Bearer <token>`); otherwise it is refused with 401 before anything is read.",
        parameters: [
          engineRunIdParam,
          nodeIdParam,
          queryParam("token", "The token of the callback URL the worker received; required when the server has STITCH_CALLBACK_SECRET."),
        ],
        requestBody: body("CallbackBody", { status: "completed", output: { greeting: "Hello, Ada" }, attempt: 1 }),
        responses: {
          200: answer("The event's outcome.", ref("EventResult")),
          ...engineEventRefusals({
            400: `${invalidJson400} Or a body that does not validate.`,
            401: "Callbacks must be authenticated here (STITCH_CALLBACK_SECRET) and the token is missing or not the one for this run and node.",
            409: "The node is not a Worker, or is not running (a failed node must be retried first).",
          }),
        },
      },
    },
    "/api/stitch/complete/{runId}/{nodeId}": {
      post: {
        tags: engine, operationId: "completeUxNode", summary: "A person completes a UX node",
        description: "The body, any JSON value, becomes the node's output. Completing a completed node again is a duplicate (200, nothing changes).",
        parameters: [engineRunIdParam, nodeIdParam, actorHeader],
        requestBody: { required: false, content: jsonContent({ description: "The person's input: any JSON value." }, { name: "Ada" }) },
        responses: {
          200: answer("The event's outcome.", ref("EventResult")),
          ...engineEventRefusals({ 400: invalidJson400, 409: "The node is not a UX node, or is not waiting_for_user." }),
        },
      },
    },
    "/api/stitch/retry/{runId}/{nodeId}": {
      post: {
        tags: engine, operationId: "retryNode", summary: "Fire a failed node again",
        description: "Sets the failed node running with a new attempt and calls its webhook again.",
        parameters: [engineRunIdParam, nodeIdParam, actorHeader],
        responses: {
          200: answer("The event's outcome.", ref("EventResult")),
          ...engineEventRefusals({ 400: "The node is not failed: only failed nodes can be retried.", 409: "The id names a node inside a Splitter's scope; address one path, such as `<nodeId>_0`." }),
        },
      },
    },
    "/api/stitch/review/{runId}/{nodeId}": {
      post: {
        tags: engine, operationId: "reviewNode", summary: "Approve or reject a review gate",
        description:
          "A review gate is a UX node with `data.gate: \"review\"`. Approving passes the reviewed output on; rejecting sends the feedback " +
          "to the worker before the gate, which runs again. Approving an approved gate is a duplicate (200, nothing changes).",
        parameters: [engineRunIdParam, nodeIdParam, actorHeader],
        requestBody: body("ReviewBody", { decision: "reject", feedback: "Use a friendlier tone.", actor: "ada" }),
        responses: {
          200: answer("The event's outcome.", ref("EventResult")),
          ...engineEventRefusals({ 400: `${invalidJson400} Or a body that does not validate (a rejection needs non-empty feedback).`, 409: "The node is not a review gate, or has no output waiting for review." }),
        },
      },
    },

    // ---- Built-in agents (server/http/builtinAgentRoutes.ts, mounted at /api/agents/builtin) ----
    "/api/agents/builtin/{slug}": {
      post: {
        tags: ["built-in agents"], operationId: "callBuiltinAgent", summary: "Call a built-in agent",
        description:
          "The agents this product serves itself, over the same protocol as n8n agents: the call is answered 202 at once, the artifact " +
          "is produced in the background and POSTed to `callback_url` (retried a few times). A failure is reported there as `{ run_id, status: \"failed\", error }`.",
        parameters: [pathParam("slug", "The agent's slug in the pipeline definition (see GET /agents).")],
        requestBody: body("AgentCall", { run_id: "RUN_1718000000000a1b2c3", context: { domain: "super-app", brief: "A super app for ..." }, is_feedback: false, feedback: "", callback_url: "http://localhost:3000/callbacks/agent/requirements" }),
        responses: {
          202: answer("The call was accepted; the result will be POSTed to callback_url.", ref("BuiltinAgentAccepted")),
          ...refusals({ 404: "No built-in agent with that slug.", 422: `${invalidJson400} Or the body does not validate.` }),
        },
      },
    },

    // ---- Agent pipeline (server/http/pipelineRoutes.ts, mounted at /) ----
    "/health": {
      get: { tags: pipeline, operationId: "health", summary: "Liveness", responses: { 200: answer("The server is up.", ref("Health")) } },
    },
    "/agents": {
      get: {
        tags: pipeline, operationId: "listAgents", summary: "The pipeline's agents in order",
        description: "From the pipeline definition in force, with each agent's resolved webhook.",
        responses: { 200: answer("The agents.", listOf("PipelineAgent")) },
      },
    },
    "/runs": {
      post: {
        tags: pipeline, operationId: "createPipelineRun", summary: "Create a pipeline run",
        description: "Creates the run and calls the first agent (after commit). Answers 200 with the run, as the seed's backend did.",
        requestBody: body("CreateRunBody", { domain: "super-app", brief: "A super app for booking local sports courts and paying in one tap." }),
        responses: {
          200: answer("The new run.", ref("PipelineRunView")),
          ...refusals({ 422: `${invalidJson400} Or the body does not validate (domain must not be empty; brief must be at least 30 characters).` }),
        },
      },
      get: {
        tags: pipeline, operationId: "listPipelineRuns", summary: "List pipeline runs", description: "Up to 100 runs, newest first, without their briefs.",
        responses: { 200: answer("The runs.", listOf("RunSummary")) },
      },
    },
    "/runs/{run_id}": {
      get: {
        tags: pipeline, operationId: "getPipelineRun", summary: "Get a pipeline run",
        description: "Its status (`IN_PROGRESS_<AGENT>`, `WAITING_APPROVAL_<AGENT>`, `RETRYING_<AGENT>`, `FAILED_<AGENT>`, `COMPLETED`), current agent and whether it waits for a person.",
        parameters: [pipelineRunIdParam],
        responses: { 200: answer("The run.", ref("PipelineRunView")), ...refusals({ 404: unknownPipelineRun404 }) },
      },
    },
    "/callbacks/agent/{agent_slug}": {
      post: {
        tags: pipeline, operationId: "agentCallback", summary: "An agent delivers its output",
        description:
          "Stores the output as the next version of the agent's artifact type and sets the run waiting for approval. Idempotent: the same " +
          "content again answers 200 with `duplicate: true` and stores nothing. Only the agent the run is waiting for may call back, so a late callback cannot take a run over.",
        parameters: [pathParam("agent_slug", "The slug of the agent calling back (see GET /agents).")],
        requestBody: body("AgentCallbackBody", {
          run_id: "RUN_1718000000000a1b2c3",
          content: { artifact: { goals: ["book a court"] }, changes_made: { added: [], removed: [], modified: [] }, justification: "First draft." },
        }),
        responses: {
          200: answer("The stored artifact's version.", ref("CallbackResult")),
          ...refusals({
            404: "No run with that run_id, or no agent with that slug in the run's pipeline.",
            409: "The run is not waiting for this agent (it waits for another, for a person, or is finished).",
            422: "The body is not JSON, has no run_id, or its content is not a non-empty JSON object.",
          }),
        },
      },
    },
    "/runs/{run_id}/approve": {
      post: {
        tags: pipeline, operationId: "approvePipelineRun", summary: "Approve the current agent's artifact",
        description:
          "Calls the next agent with its context, or completes the run after the last agent. The body is optional; `expected` names the output the reviewer read, and a decision on any other output is refused with 409.",
        parameters: [pipelineRunIdParam, actorHeader],
        requestBody: { ...body("ApproveBody", { expected: { agent: "requirements", version: 2 } }), required: false },
        responses: {
          200: answer("The run after approval.", ref("PipelineRunView")),
          ...refusals({ 404: unknownPipelineRun404, 409: "No artifact is waiting for approval, or `expected` no longer names the waiting output.", 422: "Invalid JSON, or a body that does not validate." }),
        },
      },
    },
    "/runs/{run_id}/reject": {
      post: {
        tags: pipeline, operationId: "rejectPipelineRun", summary: "Reject the current agent's artifact with feedback",
        description: "Calls the same agent again with its last output and the feedback (`is_feedback: true`); the run becomes `RETRYING_<AGENT>`.",
        parameters: [pipelineRunIdParam, actorHeader],
        requestBody: body("RejectBody", { feedback: "Add the payment requirements." }),
        responses: {
          200: answer("The run after rejection.", ref("PipelineRunView")),
          ...refusals({ 404: unknownPipelineRun404, 409: "No artifact is waiting for approval.", 422: `${invalidJson400} Or feedback is missing or empty.` }),
        },
      },
    },
    "/runs/{run_id}/retry": {
      post: {
        tags: pipeline, operationId: "retryPipelineRun", summary: "Call a failed agent again",
        description: "For a run whose current agent could not be reached or reported a failure.",
        parameters: [pipelineRunIdParam, actorHeader],
        responses: {
          200: answer("The run after the retry.", ref("PipelineRunView")),
          ...refusals({ 404: unknownPipelineRun404, 409: "The run's current agent has not failed." }),
        },
      },
    },
    "/runs/{run_id}/cancel": {
      post: {
        tags: pipeline, operationId: "cancelPipelineRun", summary: "Cancel a run",
        description:
          "Stops the run for good (status `CANCELLED`): the agent at work or the output waiting for review is cancelled, nothing more is " +
          "sent, and a late callback, an approval, a rejection or a retry is refused with 409. The conversation records who cancelled and why. " +
          "Cancelling a cancelled run again changes nothing.",
        parameters: [pipelineRunIdParam, actorHeader],
        requestBody: { ...body("CancelBody", { reason: "the brief was withdrawn" }), required: false },
        responses: {
          200: answer("The run, now CANCELLED.", ref("PipelineRunView")),
          ...refusals({ 404: unknownPipelineRun404, 409: "The run is COMPLETED; there is nothing to cancel.", 422: "The reason is not a string." }),
        },
      },
    },
    "/runs/{run_id}/artifacts": {
      post: {
        tags: pipeline, operationId: "storeArtifact", summary: "Store an artifact by hand",
        description:
          "The seed's manual or system fallback: stored as the current agent's output, exactly as if it had called back (the run then waits for approval). " +
          "The artifact type is always the current agent's; a different `artifact_type` is kept in the metadata as `requested_artifact_type`.",
        parameters: [pipelineRunIdParam],
        requestBody: body("StoreArtifactBody", { artifact_type: "requirements", content: { artifact: { goals: ["book a court"] } } }),
        responses: {
          200: answer("The stored artifact's version.", ref("CallbackResult")),
          ...refusals({ 404: unknownPipelineRun404, 409: "No agent is producing an artifact (the run is finished).", 422: `${invalidJson400} Or the body does not validate.` }),
        },
      },
      get: {
        tags: pipeline, operationId: "listArtifacts", summary: "Every artifact version of a run",
        description: "Versions are never overwritten; oldest first.",
        parameters: [pipelineRunIdParam],
        responses: { 200: answer("The versions.", listOf("ArtifactVersion")), ...refusals({ 404: unknownPipelineRun404 }) },
      },
    },
    "/runs/{run_id}/artifacts/latest": {
      get: {
        tags: pipeline, operationId: "latestArtifact", summary: "The latest version of one artifact type",
        parameters: [
          pipelineRunIdParam,
          queryParam("artifact_type", "The artifact type, e.g. `requirements`. Required unless `type` is given."),
          queryParam("type", "The seed's legacy name for `artifact_type`."),
        ],
        responses: {
          200: answer("The latest version.", ref("ArtifactVersion")),
          ...refusals({ 404: "No pipeline run with that run_id, or it has no artifact of that type yet.", 422: "Neither artifact_type nor type was given." }),
        },
      },
    },
    "/runs/{run_id}/artifacts/export": {
      get: {
        tags: pipeline, operationId: "exportArtifacts", summary: "Export the latest artifacts",
        description: "The latest version of each artifact type in pipeline order, keeping only `content.artifact` when present.",
        parameters: [pipelineRunIdParam, { ...queryParam("download", "When present (any value, or none), answers with `content-disposition: attachment` so a browser saves the file."), allowEmptyValue: true }],
        responses: { 200: answer("The export.", ref("ExportPayload")), ...refusals({ 404: unknownPipelineRun404 }) },
      },
    },
    "/runs/{run_id}/artifacts/bundle": {
      get: {
        tags: pipeline, operationId: "bundleArtifacts", summary: "Download the run's artifacts as a zip",
        parameters: [pipelineRunIdParam],
        responses: {
          200: { description: "A zip archive of the run's artifacts (sent as an attachment).", content: { "application/zip": { schema: { type: "string", format: "binary" } } } },
          ...refusals({ 404: unknownPipelineRun404 }),
        },
      },
    },
  };
}

function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version?: string };
  return manifest.version ?? "0.0.0";
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

export function buildOpenApiDocument() {
  return {
    openapi: "3.0.3",
    info: { title: "Stitch API", version: packageVersion(), description: apiDescription },
    tags: [
      { name: "engine", description: "Flows, runs, worker callbacks, completions, reviews and retries." },
      { name: "agent pipeline", description: "The multi-agent pipeline at the paths of the seed's FastAPI backend; n8n flows call these." },
      { name: "built-in agents", description: "Agents served by this product over the n8n webhook-and-callback protocol." },
    ],
    paths: buildPaths(),
    components: { schemas: buildComponents() },
  };
}
