/**
 * The agent pipeline's surface (server/http/pipelineRoutes.ts), at the paths its existing clients and n8n flows
 * call, with the bodies and answers of the FastAPI backend it replaces (422 for a body that does not validate).
 */
import { pipelinePaths as paths } from "../paths";
import { type Tag, answer, body, invalidJson400, listOf, optionalCancelBody, page400, pageParams, pagedAnswer, pathParam, queryParam, ref, refusals, tagged } from "./operations";

export const pipelineTag: Tag = {
  name: "agent pipeline",
  description: "The multi-agent pipeline at the paths of the original FastAPI backend; n8n flows call these.",
};

const runIdParam = pathParam("run_id", "The pipeline run's id, as created by POST /runs (`RUN_...`).");
const unknownRun404 = "No pipeline run with that run_id.";

/** Liveness, and the agents of the pipeline definition in force. */
function serviceOperations() {
  return {
    [paths.health.openapi]: {
      get: {
        operationId: "health", summary: "Liveness, and whether the database answers",
        description: "Answers 200 while the process serves, with `status: degraded` while its database cannot be reached (requests that need it then answer 503).",
        responses: { 200: answer("The server is up; `database` says whether its database answered.", ref("Health")) },
      },
    },
    [paths.ready.openapi]: {
      get: {
        operationId: "ready", summary: "Readiness, for load balancers",
        description: "200 once the database answers (the server listens only after its migrations are applied); 503 while it cannot be reached.",
        responses: {
          200: answer("Ready: the database answers.", ref("Health")),
          503: answer("`database_unavailable`: the database cannot be reached; `Retry-After` says when to ask again.", ref("ErrorBody")),
        },
      },
    },
    [paths.agents.openapi]: {
      get: {
        operationId: "listAgents", summary: "The pipeline's agents in order",
        description: "From the pipeline definition in force, with each agent's resolved webhook.",
        responses: { 200: answer("The agents.", listOf("PipelineAgent")) },
      },
    },
  };
}

/** Creating, listing and reading pipeline runs. */
function runOperations() {
  return {
    [paths.runs.openapi]: {
      post: {
        operationId: "createPipelineRun", summary: "Create a pipeline run",
        description:
          "Creates the run and calls the first agent (after commit): the run answers `IN_PROGRESS_<first agent's slug>` (`IN_PROGRESS_REQUIREMENTS` " +
          "with the default pipeline). Answers 200 with the run, as the original FastAPI backend did.",
        requestBody: body("CreateRunBody", { domain: "super-app", brief: "A super app for booking local sports courts and paying in one tap." }),
        responses: {
          200: answer("The new run.", ref("PipelineRunView")),
          ...refusals({ 422: `${invalidJson400} Or the body does not validate (domain must not be empty; brief must be at least 30 characters).` }),
        },
      },
      get: {
        operationId: "listPipelineRuns", summary: "List pipeline runs", description: "A page of runs, newest first, without their briefs.",
        parameters: pageParams,
        responses: { 200: pagedAnswer("The runs.", "RunSummary"), ...refusals({ 400: page400 }) },
      },
    },
    [paths.run.openapi]: {
      get: {
        operationId: "getPipelineRun", summary: "Get a pipeline run",
        description: "Its status (`IN_PROGRESS_<AGENT>`, `WAITING_APPROVAL_<AGENT>`, `RETRYING_<AGENT>`, `FAILED_<AGENT>`, `COMPLETED`), current agent and whether it waits for a person.",
        parameters: [runIdParam],
        responses: { 200: answer("The run.", ref("PipelineRunView")), ...refusals({ 404: unknownRun404 }) },
      },
    },
  };
}

/** What moves a run on: an agent's callback, and a person's approval, rejection, retry or cancellation. */
function decisionOperations() {
  return {
    [paths.agentCallback.openapi]: {
      post: {
        operationId: "agentCallback", summary: "An agent delivers its output",
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
            409: "The run is not waiting for this agent (it waits for another, for a person, or is finished), or the callback token is of an earlier call of the agent.",
            422: "The body is not JSON, has no run_id, or its content is not a non-empty JSON object.",
          }),
        },
      },
    },
    [paths.approve.openapi]: {
      post: {
        operationId: "approvePipelineRun", summary: "Approve the current agent's artifact",
        description:
          "Calls the next agent with its context, or completes the run after the last agent. The body is optional; `comment` is the reviewer's comment, kept with the approval (conversation, audit trail, export bundle; a blank one is none); `expected` names the output the reviewer read, and a decision on any other output is refused with 409.",
        parameters: [runIdParam],
        requestBody: { ...body("ApproveBody", { comment: "Good; keep the payment section short.", expected: { agent: "requirements", version: 2 } }), required: false },
        responses: {
          200: answer("The run after approval.", ref("PipelineRunView")),
          ...refusals({ 404: unknownRun404, 409: "No artifact is waiting for approval, or `expected` no longer names the waiting output.", 422: "Invalid JSON, or a body that does not validate." }),
        },
      },
    },
    [paths.reject.openapi]: {
      post: {
        operationId: "rejectPipelineRun", summary: "Reject the current agent's artifact with feedback",
        description:
          "Calls the same agent again with its last output and the feedback (`is_feedback: true`); the run becomes `RETRYING_<AGENT>`. The open comments on " +
          "parts of the output (`/api/decisions/{id}/comments`) go with it: as `comments` in the agent's call, and listed in its `feedback`.",
        parameters: [runIdParam],
        requestBody: body("RejectBody", { feedback: "Add the payment requirements." }),
        responses: {
          200: answer("The run after rejection.", ref("PipelineRunView")),
          ...refusals({
            404: unknownRun404, 409: "No artifact is waiting for approval.",
            422: `${invalidJson400} Or the feedback is empty and no open comment on a part of the output says what should change.`,
          }),
        },
      },
    },
    [paths.retry.openapi]: {
      post: {
        operationId: "retryPipelineRun", summary: "Call a failed agent again",
        description:
          "For a run whose current agent could not be reached or reported a failure (`FAILED_<SLUG>`, with the reason in `failure`), or has been " +
          "in progress for longer than AGENT_STUCK_AFTER_MS: its call is given up (a failed turn says so) and the agent is called anew. " +
          "The run's `retry_allowed` says whether a retry would be accepted now.",
        parameters: [runIdParam],
        responses: {
          200: answer("The run after the retry.", ref("PipelineRunView")),
          ...refusals({ 404: unknownRun404, 409: "The run's current agent has not failed and has not been in progress for longer than AGENT_STUCK_AFTER_MS; for an agent in progress, the message says when a retry will be allowed." }),
        },
      },
    },
    [paths.cancel.openapi]: {
      post: {
        operationId: "cancelPipelineRun", summary: "Cancel a run",
        description:
          "Stops the run for good (status `CANCELLED`): the agent at work or the output waiting for review is cancelled, nothing more is " +
          "sent, and a late callback, an approval, a rejection or a retry is refused with 409. The conversation records who cancelled and why. " +
          "Cancelling a cancelled run again changes nothing. An operator may cancel any run; the analyst who submitted it (`submitted_by`) her own.",
        parameters: [runIdParam],
        requestBody: optionalCancelBody,
        responses: {
          200: answer("The run, now CANCELLED.", ref("PipelineRunView")),
          ...refusals({
            403: "The caller is neither an operator nor the one who submitted the run.",
            404: unknownRun404, 409: "The run is COMPLETED; there is nothing to cancel.", 422: "The reason is not a string.",
          }),
        },
      },
    },
    [paths.brief.openapi]: {
      post: {
        operationId: "editPipelineBrief", summary: "Edit the brief and restart the first agent",
        description:
          "While no output of the run has been approved, the analyst who submitted it (or an operator) replaces its brief: the new brief is kept as " +
          "the next version (the conversation keeps the earlier ones, each with who wrote it), and the first agent starts over with it. Its call in " +
          "flight is withdrawn: every call's callback_url carries `?call=N`, and a late answer to the replaced call is refused with 409. An output " +
          "of it waiting for review is set aside and its decision cancelled.",
        parameters: [runIdParam],
        requestBody: body("EditBriefBody", { brief: "A tool library for neighbours: members lend drills and ladders, book them for a day, and get reminders." }),
        responses: {
          200: answer("The run, its first agent at work on the new brief.", ref("PipelineRunView")),
          ...refusals({
            403: "The caller is neither an operator nor the one who submitted the run.",
            404: unknownRun404,
            409: "An output of the run has been approved, or the run is completed or cancelled: its brief can no longer change.",
            400: "The brief is the one the run already has.",
            422: "The brief is shorter than 30 characters, or the body does not validate.",
          }),
        },
      },
    },
  };
}

/** A run's artifacts: stored by hand, listed, the latest of a type, exported as JSON or bundled as a zip. */
function artifactOperations() {
  return {
    [paths.artifacts.openapi]: {
      post: {
        operationId: "storeArtifact", summary: "Store an artifact by hand",
        description:
          "A manual or system fallback for an agent's callback: stored as the current agent's output, exactly as if it had called back (the run then waits for approval). " +
          "The artifact type is always the current agent's; a different `artifact_type` is kept in the metadata as `requested_artifact_type`.",
        parameters: [runIdParam],
        requestBody: body("StoreArtifactBody", { artifact_type: "requirements", content: { artifact: { goals: ["book a court"] } } }),
        responses: {
          200: answer("The stored artifact's version.", ref("CallbackResult")),
          ...refusals({ 404: unknownRun404, 409: "No agent is producing an artifact (the run is finished).", 422: `${invalidJson400} Or the body does not validate.` }),
        },
      },
      get: {
        operationId: "listArtifacts", summary: "Every artifact version of a run",
        description: "Versions are never overwritten; oldest first.",
        parameters: [runIdParam],
        responses: { 200: answer("The versions.", listOf("ArtifactVersion")), ...refusals({ 404: unknownRun404 }) },
      },
    },
    [paths.latestArtifact.openapi]: {
      get: {
        operationId: "latestArtifact", summary: "The latest version of one artifact type",
        parameters: [
          runIdParam,
          queryParam("artifact_type", "The artifact type, e.g. `requirements`. Required unless `type` is given."),
          queryParam("type", "The legacy name for `artifact_type`, as the original FastAPI backend called it."),
        ],
        responses: {
          200: answer("The latest version.", ref("ArtifactVersion")),
          ...refusals({ 404: "No pipeline run with that run_id, or it has no artifact of that type yet.", 422: "Neither artifact_type nor type was given." }),
        },
      },
    },
    [paths.exportArtifacts.openapi]: {
      get: {
        operationId: "exportArtifacts", summary: "Export the latest artifacts",
        description: "The latest version of each artifact type in pipeline order, keeping only `content.artifact` when present.",
        parameters: [runIdParam, { ...queryParam("download", "When present (any value, or none), answers with `content-disposition: attachment` so a browser saves the file."), allowEmptyValue: true }],
        responses: { 200: answer("The export.", ref("ExportPayload")), ...refusals({ 404: unknownRun404 }) },
      },
    },
    [paths.bundle.openapi]: {
      get: {
        operationId: "bundleArtifacts", summary: "Download the run's artifacts as a zip",
        description: "The run packed for the tools a team uses next (what the archive holds: docs/pipeline.md, \"The bundle\").",
        parameters: [runIdParam],
        responses: {
          200: { description: "A zip archive of the run's artifacts (sent as an attachment).", content: { "application/zip": { schema: { type: "string", format: "binary" } } } },
          ...refusals({ 404: unknownRun404 }),
        },
      },
    },
  };
}

export function pipelinePathItems() {
  return tagged(pipelineTag, { ...serviceOperations(), ...runOperations(), ...decisionOperations(), ...artifactOperations() });
}
