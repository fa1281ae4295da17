/** The built-in agents' surface (server/http/builtinAgentRoutes.ts): agents served over the n8n webhook-and-callback protocol. */
import { builtinAgentPaths as paths } from "../paths";
import { type Tag, answer, body, invalidJson400, pathParam, ref, refusals, tagged } from "./operations";

export const builtinAgentTag: Tag = { name: "built-in agents", description: "Agents served by this product over the n8n webhook-and-callback protocol." };

export function builtinAgentPathItems() {
  return tagged(builtinAgentTag, {
    [paths.agent.openapi]: {
      post: {
        operationId: "callBuiltinAgent", summary: "Call a built-in agent",
        description:
          "The agents this product serves itself, over the same protocol as n8n agents: the call is answered 202 at once, the artifact " +
          "is produced in the background and POSTed to `callback_url` (retried a few times). A failure is reported there as `{ run_id, status: \"failed\", error }`. " +
          "A built-in agent calls back only to this server's callback URL for it (`/callbacks/agent/{slug}`, with at most its `?token=`), never elsewhere on a caller's say-so.",
        parameters: [pathParam("slug", "The agent's slug in the pipeline definition (see GET /agents).")],
        requestBody: body("AgentCall", { run_id: "RUN_1718000000000a1b2c3", context: { domain: "super-app", brief: "A super app for ..." }, is_feedback: false, feedback: "", callback_url: "http://localhost:3000/callbacks/agent/requirements" }),
        responses: {
          202: answer("The call was accepted; the result will be POSTed to callback_url.", ref("BuiltinAgentAccepted")),
          ...refusals({
            400: "`callback_url` is not this server's callback URL for the agent.",
            404: "No built-in agent with that slug.",
            422: `${invalidJson400} Or the body does not validate.`,
          }),
        },
      },
    },
  });
}
