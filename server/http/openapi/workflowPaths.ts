/**
 * The workflows' surface (server/http/workflowRoutes.ts): definitions sent as YAML text or as `{ yaml }`, or as a JSON
 * step workflow definition; runs of their latest version, and what people do on a run's nodes (approve, reject, reply
 * to an interactive loop, retry), cancel and resume. A route both front doors serve answers the shape of the
 * workflow's or run's format; the step workflows' own routes (execute, tools) are in stepWorkflowPaths.ts.
 */
import { workflowPaths as paths } from "../paths";
import { type ErrorStatus, type Tag, answer, body, invalidJson400, jsonContent, listOf, page400, pageParams, pagedAnswer, pathParam, queryParam, ref, refusals, tagged } from "./operations";

export const workflowTag: Tag = {
  name: "workflows",
  description:
    "Workflows, YAML and JSON step workflows: definitions (each registration of a name adds a version), runs of them on the engine, and the decisions people take on their nodes. " +
    "bash and script nodes run code on the server and are refused unless it runs with WORKFLOW_SHELL=on. A step workflow's run answers its `steps` (the `run_steps` rows) and `outputs`.",
};

/** The example definition of the document; openapi.test.ts registers it through the API. */
export const exampleWorkflowYaml = `name: summarise-feedback
description: Summarise customer feedback, then have a person approve the summary.
nodes:
  - id: summary
    prompt: "Summarise this feedback in three bullet points: $ARGUMENTS"
    output_type: summary
  - id: review
    depends_on: [summary]
    approval:
      message: "Send this summary to the team? $summary.output"
      capture_response: true
`;

const nameParam = pathParam("name", "The workflow's `name:` (a step workflow's `id`).");
const runIdParam = pathParam("runId", "The run's id (a UUID).", "uuid");
const nodeIdParam = pathParam("nodeId", "The node's `id:` in the run's version of the definition.");
const nodeParams = [runIdParam, nodeIdParam];

const unknownRun404 = "No workflow run with that id.";
const unknownNode404 = "No workflow run with that id, or its definition has no node with that id.";

/** A definition in the request: the YAML text itself, or JSON `{ yaml }`. */
const definitionBody = {
  required: true,
  description:
    "The definition as YAML text (`Content-Type: application/yaml`, also `text/yaml` or `application/x-yaml`), or as JSON `{ \"yaml\": \"...\" }`; " +
    "any other JSON object is a step workflow's definition (`{ id, steps, ... }`, see the step workflows). Any other content type is read as JSON. " +
    "YAML text needs a bearer token: a change sent with the session cookie, or without credentials, must be `application/json`.",
  content: {
    "application/yaml": { schema: ref("WorkflowYamlText"), example: exampleWorkflowYaml },
    ...jsonContent(ref("RegisterWorkflowBody"), { yaml: exampleWorkflowYaml }),
  },
};

const definitionRefusal400 =
  `\`invalid_workflow\`: the definition does not load; \`issues\` locates every problem (path, 1-based line and column, message) and \`warnings\` lists what would be ignored; ` +
  `for a step workflow, \`issues\` gives every problem at its JSON path (\`steps[1].params.text\`). ` +
  `Also \`invalid_json\` or \`invalid_body\` for a JSON body without a non-empty \`yaml\`, and \`invalid_body\` for empty YAML text.`;

/** Registering, validating, listing and reading definitions, and starting a run of one. */
function definitionOperations() {
  return {
    [paths.workflows.openapi]: {
      post: {
        operationId: "registerWorkflow", summary: "Register a workflow definition",
        description:
          "Checks the definition and stores it as the next version of its name (version 1 for a new name). Runs already started keep the version they " +
          "started with; new runs use the latest. A refused definition stores nothing. The names `runs`, `validate`, `tools` and `execute` are reserved by the API's paths. " +
          "A step workflow is registered under its `id`, with every step's `depends_on` resolved; an id a YAML workflow already has is refused (an issue at `id`).",
        requestBody: definitionBody,
        responses: {
          201: answer("The registered version: a YAML workflow with the loader's warnings, or a step workflow.", ref("AnyRegisteredWorkflow")),
          ...refusals({ 400: `${definitionRefusal400} A reserved name is an \`invalid_workflow\` issue at \`name\`.` }),
        },
      },
      get: {
        operationId: "listWorkflows", summary: "List workflows",
        description: "The latest version of each registered workflow, YAML and step workflows alike (`format`), most recently registered first.",
        responses: { 200: answer("The workflows.", listOf("AnyRegisteredWorkflow")) },
      },
    },
    [paths.validate.openapi]: {
      post: {
        operationId: "validateWorkflow", summary: "Check a workflow definition without storing it",
        description:
          "The same checks as registering (with the server's WORKFLOW_SHELL setting), except that a reserved YAML name is not refused here. A step workflow that validates answers no warnings.",
        requestBody: definitionBody,
        responses: { 200: answer("The definition loads.", ref("WorkflowValidation")), ...refusals({ 400: definitionRefusal400 }) },
      },
    },
    [paths.workflow.openapi]: {
      get: {
        operationId: "getWorkflow", summary: "Get a workflow",
        description:
          "The latest version: its YAML text, the normalised definition (defaults filled in), and the list of its versions; for a step workflow, its " +
          "definition with every step's `depends_on` resolved.",
        parameters: [nameParam],
        responses: { 200: answer("The workflow.", ref("AnyWorkflowDetail")), ...refusals({ 404: "No workflow with that name." }) },
      },
    },
    [paths.workflowRuns.openapi]: {
      post: {
        operationId: "startWorkflowRun", summary: "Start a run of a workflow",
        description:
          "Starts a run of the latest version with the message (`$ARGUMENTS` and `$USER_MESSAGE` in the definition's texts). The nodes without " +
          "`depends_on` fire at once; their work is performed in the background, so the answer shows them `running`. A step workflow's run takes " +
          "`inputs` (its `message` is not read), checked against the definition's `inputs` before anything starts.",
        parameters: [nameParam],
        requestBody: body("StartWorkflowRunBody", { message: "The checkout page times out for customers in Brazil since this morning." }),
        responses: {
          201: answer("The new run.", ref("AnyWorkflowRun")),
          ...refusals({
            400: `${invalidJson400} Or a body that does not validate, or (\`invalid_inputs\`) a step workflow's required input missing, an input of the wrong type or one it does not declare.`,
            404: "No workflow with that name.",
          }),
        },
      },
    },
  };
}

const noDecision = "Or the run is a step workflow's, whose steps take no decisions.";
const nodeRefusals = (conflict: string, extra: Partial<Record<ErrorStatus, string>> = {}) => refusals({ 404: unknownNode404, 409: conflict, ...extra });

/** Reading runs, cancelling and resuming them, and the decisions taken on their nodes. */
function runOperations() {
  return {
    [paths.runs.openapi]: {
      get: {
        operationId: "listWorkflowRuns", summary: "List workflow runs",
        description: "A page of runs of YAML and step workflows in one list, newest first, without their nodes or steps.",
        parameters: [queryParam("workflow", "Only runs of the workflow with this name."), ...pageParams],
        responses: { 200: pagedAnswer("The runs.", "AnyWorkflowRunSummary"), ...refusals({ 400: page400 }) },
      },
    },
    [paths.run.openapi]: {
      get: {
        operationId: "getWorkflowRun", summary: "Get a workflow run with its nodes",
        description:
          "Each node's status, output (or error, or why it was skipped), attempts, and who answered an AI node (`responder`: `llm` or `offline`). A step " +
          "workflow's run answers its `steps` (the `run_steps` rows: status, resolved params as `input`, output, error, attempts, timestamps) and its `outputs`, evaluated when it ended.",
        parameters: [runIdParam],
        responses: { 200: answer("The run.", ref("AnyWorkflowRun")), ...refusals({ 404: unknownRun404 }) },
      },
    },
    [paths.runCancel.openapi]: {
      post: {
        operationId: "cancelWorkflowRun", summary: "Cancel a workflow run",
        description:
          "Every unfinished node becomes `cancelled`, the processes of running bash and script nodes are killed (in every server process) and their late " +
          "results refused (a step workflow's running tool is aborted); completed nodes keep their outputs. Cancelling a cancelled run again changes nothing. " +
          "An operator may cancel any run; an analyst the runs she started.",
        parameters: [runIdParam],
        requestBody: { ...body("CancelWorkflowRunBody", { reason: "the incident was resolved by hand" }), required: false },
        responses: {
          200: answer("The run, now cancelled.", ref("AnyWorkflowRun")),
          ...refusals({
            400: `${invalidJson400} Or a reason that is not a string.`,
            403: "The caller is neither an operator nor the one who started the run.",
            404: unknownRun404,
            409: "The run has finished; there is nothing to cancel.",
          }),
        },
      },
    },
    [paths.runResume.openapi]: {
      post: {
        operationId: "resumeWorkflowRun", summary: "Resume a failed workflow run",
        description:
          "For a failed run, or one cancelled by a rejected approval: failed, cancelled and skipped nodes fire again as their dependencies allow " +
          "(a rejected approval waits again), completed nodes with `always_run` run again, and other completed nodes keep their outputs. A step workflow's " +
          "run may be resumed when it failed or was cancelled: its failed, cancelled and skipped steps run again, and completed ones keep their outputs.",
        parameters: [runIdParam],
        responses: {
          200: answer("The run, going on.", ref("AnyWorkflowRun")),
          ...refusals({ 404: unknownRun404, 409: "The run is not failed and was not cancelled by a rejected approval (a step workflow's: is neither failed nor cancelled)." }),
        },
      },
    },
    [paths.approve.openapi]: {
      post: {
        operationId: "approveWorkflowNode", summary: "Approve an approval node",
        description:
          "The approval completes and the nodes after it fire. With `capture_response: true` the comment becomes its output (`$<id>.output`); otherwise " +
          "its output is empty. Approving an approved node again changes nothing.",
        parameters: nodeParams,
        requestBody: { ...body("ApproveWorkflowNodeBody", { comment: "Ship it; mention the Brazil fix first." }), required: false },
        responses: {
          200: answer("The run after the approval.", ref("WorkflowRunView")),
          ...nodeRefusals(`The node is not an approval, or is not waiting for a decision. ${noDecision}`, { 400: `${invalidJson400} Or a comment that is not a string.` }),
        },
      },
    },
    [paths.reject.openapi]: {
      post: {
        operationId: "rejectWorkflowNode", summary: "Reject an approval node",
        description:
          "With `on_reject`, its prompt runs with the reason as `$REJECTION_REASON` and the approval then waits again, until the rejection that reaches " +
          "its `max_attempts`. Without `on_reject`, or at that limit, the run is cancelled with the reason (and can be resumed).",
        parameters: nodeParams,
        requestBody: { ...body("RejectWorkflowNodeBody", { reason: "Too technical for the status page." }), required: false },
        responses: {
          200: answer("The run after the rejection.", ref("WorkflowRunView")),
          ...nodeRefusals(`The node is not an approval, or is not waiting for a decision. ${noDecision}`, { 400: `${invalidJson400} Or a reason that is not a string.` }),
        },
      },
    },
    [paths.input.openapi]: {
      post: {
        operationId: "answerWorkflowLoop", summary: "Reply to an interactive loop",
        description: "An interactive loop waits after each iteration without its completion signal; the reply starts the next iteration as `$LOOP_USER_INPUT`.",
        parameters: nodeParams,
        requestBody: body("WorkflowInputBody", { text: "Shorter, and name the affected region." }),
        responses: {
          200: answer("The run, with the loop's next iteration running.", ref("WorkflowRunView")),
          ...nodeRefusals(`The node is not an interactive loop, or is not waiting for input. ${noDecision}`, { 400: `${invalidJson400} Or text that is missing or empty.` }),
        },
      },
    },
    [paths.retry.openapi]: {
      post: {
        operationId: "retryWorkflowNode", summary: "Fire a failed node again",
        description:
          "A new attempt of the node; the nodes after it that its failure skipped return to pending and are decided again once it settles. A step " +
          "workflow's failed step is retried the same way (with its `retries` again), and the run's outputs are evaluated again when it ends.",
        parameters: nodeParams,
        responses: {
          200: answer("The run, with the node running again.", ref("AnyWorkflowRun")),
          ...refusals({ 400: "The node is not failed (in a cancelled run no node is): only failed nodes can be retried.", 404: unknownNode404 }),
        },
      },
    },
  };
}

export function workflowPathItems() {
  return tagged(workflowTag, { ...definitionOperations(), ...runOperations() });
}
