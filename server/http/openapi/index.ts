/**
 * The OpenAPI document of the product's whole REST API: the engine's routes under /api/stitch, the agent pipeline's
 * routes at the paths of the FastAPI backend it replaces, and the built-in agents. Each surface writes its own
 * operations (stitchPaths.ts, pipelinePaths.ts, builtinAgentPaths.ts) under the path keys of server/http/paths.ts;
 * every body schema is converted from the zod schema that validates or types it (components.ts), so the document
 * cannot drift from what the server parses. openapi.test.ts fails when a route the app registers has no entry here,
 * when an entry has no route, or when a real answer does not fit its schema.
 */
import { readFileSync } from "node:fs";
import { buildComponentSchemas } from "./components";
import { builtinAgentPathItems, builtinAgentTag } from "./builtinAgentPaths";
import { pipelinePathItems, pipelineTag } from "./pipelinePaths";
import { stitchPathItems, stitchTag } from "./stitchPaths";

export { type ComponentName, componentSchemas } from "./components";

const apiDescription = `
The REST API of Stitch: the durable workflow engine (under \`/api/stitch\`), the agent pipeline at the paths of the
FastAPI backend it replaces (\`/runs\`, \`/agents\`, \`/callbacks/agent/{agent_slug}\`, ...) and the built-in agents.
The web app itself talks tRPC at \`/trpc\`, which is not described here.

**Errors.** Every refusal answers \`{ "error": code, "message": text, "detail": text }\`; \`detail\` repeats \`message\`
for clients of the original FastAPI backend. The engine's routes answer 400 for a body that does not validate, 404 for an
unknown run, flow or node and 409 for an event the node's state does not allow. The pipeline's routes and the
built-in agents answer 422 for a body that does not validate, as the original FastAPI backend did.

**Idempotency.** Repeating a callback, completion, approval or retry that was already applied changes nothing and
answers 200 with \`duplicate: true\`, so workers and n8n may deliver at least once.

**Actors.** Send \`x-actor: <name>\` with completions, reviews, approvals, rejections and retries to record who acted.
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
    tags: [stitchTag, pipelineTag, builtinAgentTag],
    paths: { ...stitchPathItems(), ...builtinAgentPathItems(), ...pipelinePathItems() },
    components: { schemas: buildComponentSchemas() },
  };
}
