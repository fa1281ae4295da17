/**
 * The OpenAPI document of the product's whole REST API: the engine's routes under /api/stitch, the agent pipeline's
 * routes at the paths of the FastAPI backend it replaces, the built-in agents, and the YAML and JSON step workflows
 * under /api/workflows. Each surface writes its own operations (stitchPaths.ts, pipelinePaths.ts, builtinAgentPaths.ts,
 * workflowPaths.ts, stepWorkflowPaths.ts) under the path keys of server/http/paths.ts;
 * every body schema is converted from the zod schema that validates or types it (components.ts), so the document
 * cannot drift from what the server parses. openapi.test.ts fails when a route the app registers has no entry here,
 * when an entry has no route, or when a real answer does not fit its schema.
 */
import { readFileSync } from "node:fs";
import { buildComponentSchemas } from "./components";
import { builtinAgentPathItems, builtinAgentTag } from "./builtinAgentPaths";
import { pipelinePathItems, pipelineTag } from "./pipelinePaths";
import { stepWorkflowPathItems, stepWorkflowTag } from "./stepWorkflowPaths";
import { stitchPathItems, stitchTag } from "./stitchPaths";
import { workflowPathItems, workflowTag } from "./workflowPaths";

export { type ComponentName, componentSchemas } from "./components";

const apiDescription = `
The REST API of Stitch: the durable workflow engine (under \`/api/stitch\`), the agent pipeline at the paths of the
FastAPI backend it replaces (\`/runs\`, \`/agents\`, \`/callbacks/agent/{agent_slug}\`, ...), the built-in agents, and
the workflows, YAML and JSON step workflows (under \`/api/workflows\`).
The web app itself talks tRPC at \`/trpc\`, which is not described here.

**Errors.** Every refusal answers \`{ "error": code, "message": text, "detail": text }\`; \`detail\` repeats \`message\`
for clients of the original FastAPI backend. The engine's and the YAML workflows' routes answer 400 for a body that does
not validate, 404 for an unknown run, flow, workflow or node and 409 for an event the node's state does not allow; a
workflow definition that does not load is refused with \`invalid_workflow\` and its located \`issues\`, and a step workflow's
inputs that do not fit with \`invalid_inputs\`. The pipeline's
routes and the built-in agents answer 422 for a body that does not validate, as the original FastAPI backend did.

**Idempotency.** Repeating a callback, completion, approval or retry that was already applied changes nothing and
answers 200 with \`duplicate: true\` (a workflow's repeated approval or cancellation answers the run as it stands), so
workers and n8n may deliver at least once.

**Actors.** Send \`x-actor: <name>\` with completions, reviews, approvals, rejections, retries, inputs, cancellations and
resumptions to record who acted.
`.trim();

function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version?: string };
  return manifest.version ?? "0.0.0";
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

export function buildOpenApiDocument() {
  return {
    openapi: "3.0.3",
    info: { title: "Stitch API", version: packageVersion(), description: apiDescription },
    tags: [stitchTag, pipelineTag, builtinAgentTag, workflowTag, stepWorkflowTag],
    paths: { ...stitchPathItems(), ...builtinAgentPathItems(), ...pipelinePathItems(), ...workflowPathItems(), ...stepWorkflowPathItems() },
    components: { schemas: buildComponentSchemas() },
  };
}
