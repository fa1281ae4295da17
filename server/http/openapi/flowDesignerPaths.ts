/**
 * The designer's surface of plain flows (server/http/stitchRoutes.ts, server/flows/version*.ts): versions (save,
 * import, restore), the diff between two, the check of a graph as it is drawn, and each person's drafts.
 */
import { stitchPaths as paths } from "../paths";
import { DiffQuery } from "../../flows/versionSchemas";
import { requestJsonSchema } from "./components";
import { type Tag, answer, body, invalidJson400, listOf, pathParam, ref, refusals, tagged } from "./operations";

export const flowDesignerTag: Tag = {
  name: "flow designer",
  description:
    "A flow is a name and its immutable versions; runs keep the version they started on. Save (or import) a new version on top of the one you " +
    "opened, restore an old one, compare two, check a graph while drawing it, and keep your draft as it changes.",
};

const flowIdParam = pathParam("id", "The flow's id (a UUID).", "uuid");
const versionParam = { ...pathParam("version", "The version's number (from 1)."), schema: { type: "integer", minimum: 1 } };
const diffParams = Object.entries((requestJsonSchema(DiffQuery) as { properties: Record<string, { description?: string }> }).properties).map(([name, schema]) => ({
  name, in: "query", required: true, description: schema.description, schema,
}));
const stale409 =
  "`base_version` is no longer the latest: the message says which version was saved, by whom and when (\"Version 5 was saved by Olga Operator at " +
  "10:42 UTC since you opened version 4\"); `latest` is that version and `diff` what changed from yours to it. Nothing was saved: look, then save on top of `latest.version`.";
const graph = {
  nodes: [
    { id: "draft", type: "Worker", position: { x: 0, y: 0 }, data: { webhookUrl: "https://worker.example/draft" } },
    { id: "review", type: "UX", position: { x: 240, y: 0 }, data: { gate: "review" } },
  ],
  edges: [{ id: "draft->review", source: "draft", target: "review" }],
};

export function flowDesignerPathItems() {
  return tagged(flowDesignerTag, {
    [paths.flowCheck.openapi]: {
      post: {
        operationId: "checkFlowGraph", summary: "Check a graph as it is drawn",
        description:
          "Exactly the rules storing a flow or version applies (node data, edges, cycles, Splitters and Collectors, review gates after a Worker, " +
          "unknown fields, the outbound-address policy on each Worker's `webhookUrl`), each problem on the node, edge and field it concerns. Stores nothing.",
        requestBody: body("CheckGraphBody", { graph }),
        responses: { 200: answer("The problems; none when storing would accept the graph.", ref("GraphCheck")), ...refusals({ 400: `${invalidJson400} Or a body that is not a graph.` }) },
      },
    },
    [paths.flowVersions.openapi]: {
      get: {
        operationId: "listFlowVersions", summary: "A flow's versions",
        parameters: [flowIdParam],
        responses: { 200: answer("Its versions, newest first, without their graphs.", listOf("FlowVersionSummary")), ...refusals({ 404: "No flow with that id." }) },
      },
      post: {
        operationId: "saveFlowVersion", summary: "Save a new version",
        description:
          "Adds the next version with the graph and the message; never overwrites. `origin: \"import\"` marks a graph imported as React Flow JSON. " +
          "`base_version` 0 is a new flow's first save: it creates the flow under this id (the id its draft was kept under), named `name` or the draft's name. " +
          "The saver's draft is discarded when it holds exactly the saved graph.",
        parameters: [flowIdParam],
        requestBody: body("SaveVersionBody", { graph, message: "Review the draft before it is sent", base_version: 4 }),
        responses: {
          201: answer("The new version.", ref("FlowVersion")),
          ...refusals({
            400: `${invalidJson400} Or a body that does not validate (\`invalid_body\`), a graph with problems (\`invalid_graph\`, with \`problems\`), or a new flow without a name.`,
            404: "No flow with that id.",
            409: stale409,
          }),
        },
      },
    },
    [paths.flowVersion.openapi]: {
      get: {
        operationId: "getFlowVersion", summary: "One version of a flow",
        parameters: [flowIdParam, versionParam],
        responses: { 200: answer("The version with its graph.", ref("FlowVersion")), ...refusals({ 404: "No flow with that id, or no such version of it." }) },
      },
    },
    [paths.flowRestore.openapi]: {
      post: {
        operationId: "restoreFlowVersion", summary: "Restore an old version",
        description: "Adds a new version with the old version's graph (which must still pass today's rules); the old one stays as it was.",
        parameters: [flowIdParam, versionParam],
        requestBody: body("RestoreVersionBody", { base_version: 5, message: "Back to the flow before the translation step" }),
        responses: {
          201: answer("The new version.", ref("FlowVersion")),
          ...refusals({ 400: `${invalidJson400} Or a graph today's rules refuse (\`invalid_graph\`).`, 404: "No flow with that id, or no such version of it.", 409: stale409 }),
        },
      },
    },
    [paths.flowDiff.openapi]: {
      get: {
        operationId: "diffFlowVersions", summary: "What changed between two versions",
        parameters: [flowIdParam, ...diffParams],
        responses: { 200: answer("Nodes added, removed, moved and changed (field by field, words for text); edges added and removed.", ref("FlowDiff")), ...refusals({ 400: "`from` or `to` is not a version number (`invalid_query`).", 404: "No flow with that id, or no such version of it." }) },
      },
    },
    [paths.flowDraft.openapi]: {
      get: {
        operationId: "getFlowDraft", summary: "Your draft of a flow",
        parameters: [flowIdParam],
        responses: { 200: answer("The draft as last kept.", ref("FlowDraft")), ...refusals({ 404: "You have no draft of this flow." }) },
      },
      put: {
        operationId: "keepFlowDraft", summary: "Keep your draft of a flow as it changes",
        description:
          "Replaces your draft (one per person and flow), problems and all; it survives reloads, other devices and restarts. A new flow's draft is kept " +
          "under a new UUID chosen by the client, with `base_version` 0 and a `name`; its first save creates the flow with that id. Not in the audit trail.",
        parameters: [flowIdParam],
        requestBody: body("FlowDraftBody", { graph, base_version: 4 }),
        responses: { 200: answer("The draft as kept.", ref("FlowDraft")), ...refusals({ 400: `${invalidJson400} Or a body that does not validate, or a new flow's draft without a name.`, 404: "No flow with that id and `base_version` is not 0." }) },
      },
      delete: {
        operationId: "discardFlowDraft", summary: "Discard your draft of a flow",
        parameters: [flowIdParam],
        responses: { 200: answer("Whether there was a draft to discard.", { type: "object", properties: { discarded: { type: "boolean" } }, required: ["discarded"] }) },
      },
    },
    [paths.drafts.openapi]: {
      get: {
        operationId: "listFlowDrafts", summary: "Your drafts",
        description: "Every draft you keep, the latest changed first; a new flow's (`new_flow: true`) is found here after a reload or a crash.",
        responses: { 200: answer("Your drafts.", listOf("FlowDraft")) },
      },
    },
  });
}
