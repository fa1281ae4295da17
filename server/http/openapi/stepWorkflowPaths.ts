/**
 * The step workflows' own surface (server/http/workflowRoutes.ts): executing one, stored or given inline, with or
 * without waiting for its end, and the tools a step may name. Registering, reading and cancelling step workflows and
 * their runs go through the routes they share with the YAML workflows (workflowPaths.ts).
 */
import { workflowPaths as paths } from "../paths";
import { type Tag, answer, body, invalidJson400, listOf, ref, refusals, tagged } from "./operations";

export const stepWorkflowTag: Tag = {
  name: "step workflows",
  description:
    "JSON step workflows (Summit-Flow's investigation playbooks): each step calls one tool of the registry with params that may hold `{{ }}` templates " +
    "(`{{inputs.name}}`, `{{step_id.output.field}}`, `{{step_id.field}}`, `{{steps.step_id.output}}`). Steps run in the order written unless they name " +
    "`depends_on`; a failed step skips what depends on it while independent branches go on. Register them with POST /api/workflows (a JSON body), run " +
    "them with POST /api/workflows/{name}/runs or here, and read a run's `steps` and `outputs` at GET /api/workflows/runs/{runId}.",
};

/** The example of the document: a definition given inline, run and waited for. */
export const exampleExecuteBody = {
  workflow: {
    id: "greet",
    inputs: [{ name: "name", type: "string" }],
    steps: [
      { id: "hello", tool: "utils.echo", params: { text: "Hello {{inputs.name}}" } },
      { id: "shout", tool: "utils.echo", params: { loud: "{{hello.text}}!", original: "{{hello.output}}" } },
    ],
    outputs: { greeting: "{{shout.loud}}" },
  },
  inputs: { name: "Ada" },
  wait: true,
  timeout_ms: 10_000,
};

const execute = {
  operationId: "executeStepWorkflow", summary: "Run a step workflow, stored or given inline",
  description:
    "`workflow` is a stored step workflow's id (its latest version runs) or a whole definition, validated like a registration and registered as the next " +
    "version of its id unless the latest version is that very definition. The inputs are checked against the definition's `inputs` before anything is " +
    "stored or started. Without `wait`, answers 201 at once with the run (`outputs: null`). With `wait: true`, answers 200 when the run ends, with every " +
    "step and the `outputs`, or 202 with the run as it stands when `timeout_ms` (default 60000, at most 600000) passes first; the run goes on. " +
    "A definition given inline needs the operator role, as registering one does (403 for a lesser role); a stored workflow's id, the analyst role.",
  requestBody: body("ExecuteWorkflowBody", exampleExecuteBody),
  responses: {
    200: answer("With `wait`: the run has ended (completed, failed or cancelled), with its steps and outputs.", ref("StepRunView")),
    201: answer("Without `wait`: the run, started.", ref("StepRunView")),
    202: answer("With `wait`: `timeout_ms` passed before the run ended; the run so far.", ref("StepRunView")),
    ...refusals({
      400:
        `${invalidJson400} Or a body that does not validate (\`invalid_body\`), an inline definition with problems (\`invalid_workflow\` with every ` +
        "problem at its JSON path), or inputs that do not fit the definition (`invalid_inputs`).",
      403:
        "A definition given inline from a caller below the operator role (running it is as good as registering it): `forbidden`, naming the " +
        "`required_role` and the caller's `role`; nothing is stored. Or a change made with the session cookie without its `x-csrf-token` header, " +
        "or naming another site as its Origin: `forbidden`.",
      404: "No step workflow with that id.",
    }),
  },
};

const listTools = {
  operationId: "listStepTools", summary: "List the tools a step may name",
  description: "Each tool of the registry with its name, what it does, and its params as JSON Schema (what a step's `params` must fit where they are not templates).",
  responses: { 200: answer("The tools.", listOf("WorkflowTool")) },
};

export const stepWorkflowPathItems = () => tagged(stepWorkflowTag, { [paths.execute.openapi]: { post: execute }, [paths.tools.openapi]: { get: listTools } });
