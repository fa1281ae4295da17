/**
 * The engine's surface (server/http/stitchRoutes.ts): flows and runs for integrators, and the events Workers and
 * people post to a run's nodes.
 */
import { stitchPaths as paths } from "../paths";
import { type ErrorStatus, type Tag, answer, body, invalidJson400, jsonContent, listOf, optionalCancelBody, page400, pageParams, pagedAnswer, pathParam, queryParam, ref, refusals, tagged } from "./operations";

export const stitchTag: Tag = { name: "engine", description: "Flows, runs, worker callbacks, completions, reviews and retries." };

const flowIdParam = pathParam("id", "The flow's id (a UUID).", "uuid");
const runIdParam = pathParam("id", "The run's id (a UUID).", "uuid");
const eventRunIdParam = pathParam("runId", "The run's id (a UUID).", "uuid");
const nodeIdParam = pathParam(
  "nodeId",
  "The node's id from the flow's graph; a node inside a Splitter's scope is addressed per path as `<nodeId>_<index>` (e.g. `translate_0`).",
);
/** Callbacks, completions, retries and reviews: the run and the node addressed. */
const nodeEventParams = [eventRunIdParam, nodeIdParam];

/** A change to a run another front door owns is refused, whichever of the engine's routes asks for it. */
const owned409 = "Or the run belongs to another front door (the agent pipeline, a YAML or step workflow): the message names the owner's route to use; nothing changed.";

const nodeEventRefusals = (extra: Partial<Record<ErrorStatus, string>> = {}) =>
  refusals({
    404: "No run with that id, or the run has no node with that id.",
    409: `The node is not in a state this event applies to (the message says which state it is in). ${owned409}`,
    ...extra,
  });

/** Creating, listing and reading flows, and starting a run of one. */
function flowOperations() {
  return {
    [paths.flows.openapi]: {
      post: {
        operationId: "createFlow", summary: "Create a flow",
        description: "Stores a flow graph as its version 1 after checking it (node types, edges between existing nodes, no cycles, splitter and collector pairing, each Worker's `webhookUrl` against the outbound-address policy, OUTBOUND_ALLOW); a graph with problems is refused with `invalid_graph` and every problem in `problems`. Later versions are saved with `POST /api/stitch/flows/{id}/versions`.",
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
        operationId: "listFlows", summary: "List flows",
        description: "The 200 flows saved last, the latest saved first: each with its latest version, who saved it and when, its runs in progress and its last run.",
        responses: { 200: answer("The flows.", listOf("FlowSummary")) },
      },
    },
    [paths.flow.openapi]: {
      get: {
        operationId: "getFlow", summary: "Get a flow",
        parameters: [flowIdParam],
        responses: { 200: answer("The flow with its graph.", ref("StitchFlow")), ...refusals({ 404: "No flow with that id." }) },
      },
    },
    [paths.flowRuns.openapi]: {
      post: {
        operationId: "startRun", summary: "Start a run of a flow",
        description: "Creates the run with every node pending and fires the entry nodes in one transaction; their webhooks are called after commit.",
        parameters: [flowIdParam],
        requestBody: { ...body("StartFlowRunBody", { input: { items: ["a", "b"] }, version: 3 }), required: false },
        responses: {
          201: answer("The new run, with the version it runs (`flow_version`).", ref("StitchRun")),
          ...refusals({ 400: `${invalidJson400} Or a body that is not an object.`, 404: "No flow with that id, or no such version of it." }),
        },
      },
    },
  };
}

/** Listing, reading and cancelling runs, and a run's event log. */
function runOperations() {
  return {
    [paths.runs.openapi]: {
      get: {
        operationId: "listEngineRuns", summary: "List runs",
        description:
          "A page of runs, of all flows or of one, newest first, each with its flow's name and a `title` from its input (the app lists them as " +
          "\"Agent pipeline: tool-library\" or \"Workflow greeting v2: Say hello\").",
        parameters: [queryParam("flow_id", "Only runs of this flow (a UUID).", { type: "string", format: "uuid" }), ...pageParams],
        responses: { 200: pagedAnswer("The runs.", "EngineRunSummary"), ...refusals({ 400: page400 }) },
      },
    },
    [paths.run.openapi]: {
      get: {
        operationId: "getEngineRun", summary: "Get a run with its node states",
        description:
          "The run with every node's state (`node_states`: by node id, its status, output and error) and its `owner`: the front door that " +
          "started it (`pipeline`, `yaml` or `steps`, with that front door's own id of the run), or null for a plain flow's run. Only the owner's " +
          "routes change an owned run; the engine's callback, completion, review, retry and cancel routes refuse it with 409. Reads stay open.",
        parameters: [runIdParam],
        responses: { 200: answer("The run.", ref("StitchRun")), ...refusals({ 404: "No run with that id." }) },
      },
    },
    [paths.runCancel.openapi]: {
      post: {
        operationId: "cancelEngineRun", summary: "Cancel a run",
        description:
          "Every unfinished node (pending, running, waiting for a person, failed) becomes `cancelled` with the reason as its error, " +
          "its webhooks still to send and its timers are dropped, and the run's status is `cancelled` for good: a late callback is " +
          "refused with 409 and nothing can be retried. Completed nodes keep their outputs. Cancelling again answers `duplicate: true`.",
        parameters: [runIdParam],
        requestBody: optionalCancelBody,
        responses: {
          200: answer("The event's outcome (`runStatus: \"cancelled\"`).", ref("EventResult")),
          ...refusals({ 400: `${invalidJson400} Or a reason that is not a string.`, 404: "No run with that id.", 409: `The run has finished; there is nothing to cancel. ${owned409}` }),
        },
      },
    },
    [paths.runEvents.openapi]: {
      get: {
        operationId: "getEngineRunEvents", summary: "A run's event log",
        description: "Every accepted event in order, with who caused it: the run's history of callbacks, completions, reviews and retries.",
        parameters: [runIdParam],
        responses: { 200: answer("The events, oldest first (empty for an unknown run id).", listOf("RunEvent")), ...refusals({ 404: "The id is not a UUID." }) },
      },
    },
    [paths.runConversation.openapi]: {
      get: {
        operationId: "getFlowRunConversation", summary: "A plain flow run as a conversation",
        description:
          "The run's input, then each node's turns as they happened: a node starting (again, after a retry or a review's request for changes), its " +
          "output, its failure (and whether another attempt comes by itself), a Splitter fanning out, a skip; each UX node or review gate waiting " +
          "for a person (what it asks, the output under review) and how it was decided, by whom, with the feedback or the input; retries, the " +
          "cancellation, a resumption and how the run ended. Told from the run's event log, replayed through the engine. `nodes` is every node as it " +
          "stands now. A run that another front door owns (the agent pipeline, a workflow) is told by that front door.",
        parameters: [runIdParam],
        responses: {
          200: answer("The run, its nodes and its turns, oldest first.", ref("FlowConversation")),
          ...refusals({ 404: "No run with that id.", 409: "The run belongs to another front door (the message names it), whose own conversation tells it." }),
        },
      },
    },
  };
}

/** What Workers and people post to one node of a run: callbacks, completions, retries and reviews. */
function nodeEventOperations() {
  return {
    [paths.callback.openapi]: {
      post: {
        operationId: "workerCallback", summary: "A worker reports completion or failure",
        description:
          "Idempotent: a repeated callback, or one for an attempt the node has moved past (when `attempt` is echoed), answers 200 with " +
          "`duplicate: true` and changes nothing. " +
          "A completed node's output flows to the nodes after it; a failed node waits for a retry.",
        parameters: nodeEventParams,
        requestBody: body("CallbackBody", { status: "completed", output: { greeting: "Hello, Ada" }, attempt: 1 }),
        responses: {
          200: answer("The event's outcome.", ref("EventResult")),
          ...nodeEventRefusals({
            400: `${invalidJson400} Or a body that does not validate.`,
            409: `The node is not a Worker, or is not running (a failed node must be retried first). ${owned409}`,
          }),
        },
      },
    },
    [paths.complete.openapi]: {
      post: {
        operationId: "completeUxNode", summary: "A person completes a UX node",
        description: "The body, any JSON value, becomes the node's output. The same body again is a duplicate (200, nothing changes); a different one is refused (409), and the first input stands.",
        parameters: nodeEventParams,
        requestBody: { required: false, content: jsonContent({ description: "The person's input: any JSON value." }, { name: "Ada" }) },
        responses: {
          200: answer("The event's outcome.", ref("EventResult")),
          ...nodeEventRefusals({ 400: invalidJson400, 409: `The node is not a UX node, is a review or approval gate (decide it with POST /api/stitch/review/{runId}/{nodeId}), is not waiting_for_user, or was already completed with a different input. ${owned409}` }),
        },
      },
    },
    [paths.retry.openapi]: {
      post: {
        operationId: "retryNode", summary: "Fire a failed node again",
        description: "Sets the failed node running with a new attempt and calls its webhook again.",
        parameters: nodeEventParams,
        responses: {
          200: answer("The event's outcome.", ref("EventResult")),
          ...nodeEventRefusals({ 400: "The node is not failed: only failed nodes can be retried.", 409: `The id names a node inside a Splitter's scope; address one path, such as \`<nodeId>_0\`. ${owned409}` }),
        },
      },
    },
    [paths.review.openapi]: {
      post: {
        operationId: "reviewNode", summary: "Approve or reject a review gate",
        description:
          "A review gate is a UX node with `data.gate: \"review\"`. Approving passes the reviewed output on; rejecting sends the feedback " +
          "to the worker before the gate, which runs again. Approving an approved gate is a duplicate (200, nothing changes). " +
          "The decision is recorded as the signed-in account's; an `actor` field in the body is accepted for older clients and ignored.",
        parameters: nodeEventParams,
        requestBody: body("ReviewBody", { decision: "reject", feedback: "Use a friendlier tone." }),
        responses: {
          200: answer("The event's outcome.", ref("EventResult")),
          ...nodeEventRefusals({ 400: `${invalidJson400} Or a body that does not validate (a rejection needs non-empty feedback).`, 409: `The node is not a review gate, or has no output waiting for review. ${owned409}` }),
        },
      },
    },
  };
}

export function stitchPathItems() {
  return tagged(stitchTag, { ...flowOperations(), ...runOperations(), ...nodeEventOperations() });
}
