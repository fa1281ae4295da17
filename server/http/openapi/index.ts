/**
 * The OpenAPI document of the product's whole REST API: the engine's routes under /api/stitch, the agent pipeline's
 * routes at the paths of the FastAPI backend it replaces, the built-in agents, and the YAML and JSON step workflows
 * under /api/workflows, webhook subscriptions, and people's sign-in and audit trail. Each surface writes its own operations (stitchPaths.ts,
 * pipelinePaths.ts, builtinAgentPaths.ts, workflowPaths.ts, stepWorkflowPaths.ts, peoplePaths.ts) under the path keys of
 * server/http/paths.ts; who may call each one is added from the access rules the server enforces (security.ts), and
 * every body schema is converted from the zod schema that validates or types it (components.ts), so the document
 * cannot drift from what the server parses. openapi.test.ts fails when a route the app registers has no entry here,
 * when an entry has no route, or when a real answer does not fit its schema.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import { roleDescriptions } from "../../people/roles";
import { Role } from "../../people/schemas";
import { CSRF_HEADER, SESSION_COOKIE } from "../guard";
import { buildComponentSchemas } from "./components";
import { builtinAgentPathItems, builtinAgentTag } from "./builtinAgentPaths";
import { decisionPathItems, decisionTag } from "./decisionPaths";
import { reviewPathItems, reviewTag } from "./reviewPaths";
import { peoplePathItems, peopleTag } from "./peoplePaths";
import { pipelinePathItems, pipelineTag } from "./pipelinePaths";
import { securitySchemes, withAccess } from "./security";
import { stepWorkflowPathItems, stepWorkflowTag } from "./stepWorkflowPaths";
import { stitchPathItems, stitchTag } from "./stitchPaths";
import { forkPathItems, forkTag } from "./forkPaths";
import { flowDesignerPathItems, flowDesignerTag } from "./flowDesignerPaths";
import { policyPathItems, policyTag } from "./policyPaths";
import { subscriptionPathItems, subscriptionTag } from "./subscriptionPaths";
import { workflowPathItems, workflowTag } from "./workflowPaths";

export { type ComponentName, componentSchemas } from "./components";

const apiDescription = `
The REST API of Stitch: the durable workflow engine (under \`/api/stitch\`), the agent pipeline at the paths of the
FastAPI backend it replaces (\`/runs\`, \`/agents\`, \`/callbacks/agent/{agent_slug}\`, ...), the built-in agents, and
the workflows, YAML and JSON step workflows (under \`/api/workflows\`), the reviewer's inbox of decisions (\`/api/decisions\`), the instance's policy (\`/api/policy\`), webhook subscriptions (\`/api/subscriptions\`; what a subscriber
receives is the \`NotificationPayload\` schema), and signing in and the audit trail (\`/api/auth\`, \`/api/audit\`).
The web app itself talks tRPC at \`/trpc\`, which is not described here.

**Errors.** Every refusal answers \`{ "error": code, "message": text, "detail": text }\`; \`detail\` repeats \`message\`
for clients of the original FastAPI backend. The engine's and the YAML workflows' routes answer 400 for a body that does
not validate, 404 for an unknown run, flow, workflow or node and 409 for an event the node's state does not allow; a
workflow definition that does not load is refused with \`invalid_workflow\` and its located \`issues\`, and a step workflow's
inputs that do not fit with \`invalid_inputs\`. The pipeline's
routes and the built-in agents answer 422 for a body that does not validate, as the original FastAPI backend did. Any
request with a body larger than the server's MAX_BODY_BYTES is refused with 413 \`body_too_large\`. While the
database cannot be reached (a restart, a failover), any request that needs it answers 503 \`database_unavailable\`
with \`Retry-After: 2\`: it changed nothing, and may be sent again (\`GET /health/ready\` says when the database is back).

**Idempotency.** Repeating a callback, completion, approval or retry that was already applied changes nothing and
answers 200 with \`duplicate: true\` (a workflow's repeated approval or cancellation answers the run as it stands), so
workers and n8n may deliver at least once.

**Authentication and roles.** Send a personal API token (each person creates their own in the app) or the server's
\`STITCH_BOOTSTRAP_TOKEN\` (an operator) as \`Authorization: Bearer <token>\`, or sign in with \`POST /api/auth/sign-in\` and
send the \`${SESSION_COOKIE}\` cookie it sets. A change made with the cookie must carry the session's CSRF token as
\`${CSRF_HEADER}\` (403 otherwise), and a change sent without a bearer token must be \`application/json\` (415 otherwise).
Each person has a role, and each role may do what the one before it may:

${Role.options.map((role) => `- **${role}**: ${roleDescriptions[role]}.`).join("\n")}

Each operation says the role it requires. Without credentials, or with a token that is not valid, it answers 401
\`unauthorized\` naming the \`required_role\`; with a lesser role, 403 \`forbidden\` naming the \`required_role\` and the
caller's \`role\`. Workers' and agents' callbacks are not made by people: they are authenticated by the token of the
callback URL they were given, when the server has STITCH_CALLBACK_SECRET (Workers) or PIPELINE_CALLBACK_SECRET (agents).
Decisions (completions, reviews, approvals, rejections, inputs, retries, cancellations, resumptions) are recorded as the
signed-in account, or the bootstrap token; no header or body field names who acted (a review's \`actor\` is ignored).

**Audit trail.** Every change, over this API or in the app, is recorded accepted or refused: who asked (account, token,
bootstrap token, worker or agent), the action, its target, from which address, and the outcome. Operators read it at
\`GET /api/audit\`, filtered by target, account, action or outcome.
`.trim();

/** What of package.json the document reads. */
const PackageManifest = z.object({ version: z.string().optional() });

function packageVersion(): string {
  const manifest = PackageManifest.parse(JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")));
  return manifest.version ?? "0.0.0";
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

export function buildOpenApiDocument() {
  return {
    openapi: "3.0.3",
    info: { title: "Stitch API", version: packageVersion(), description: apiDescription },
    tags: [stitchTag, forkTag, flowDesignerTag, pipelineTag, builtinAgentTag, workflowTag, stepWorkflowTag, decisionTag, reviewTag, policyTag, subscriptionTag, peopleTag],
    paths: withAccess({
      ...stitchPathItems(), ...forkPathItems(), ...flowDesignerPathItems(), ...builtinAgentPathItems(), ...pipelinePathItems(), ...workflowPathItems(), ...stepWorkflowPathItems(), ...decisionPathItems(), ...reviewPathItems(),
      ...policyPathItems(), ...subscriptionPathItems(), ...peoplePathItems(),
    }),
    components: { schemas: buildComponentSchemas(), securitySchemes },
  };
}
