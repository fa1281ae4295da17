/**
 * Forks of runs and the comparison of two runs (server/http/forkRoutes.ts): who may fork is the flows' fork rule
 * (server/forks/rule.ts), what a fork copies the engine's (server/engine/forkPlan.ts).
 */
import { forkPaths as paths } from "../paths";
import { type Tag, answer, body, invalidJson400, pathParam, queryParam, ref, refusals, tagged } from "./operations";

export const forkTag: Tag = {
  name: "forks",
  description:
    "Re-run from here: fork any run from any node that has started, with an edited input, on the version it ran or the latest, and compare two runs node by node.",
};

const runIdParam = pathParam("run_id", "The run's id (a UUID).", "uuid");

export function forkPathItems() {
  return tagged(forkTag, {
    [paths.fork.openapi]: {
      post: {
        operationId: "forkRun", summary: "Fork a run at a node",
        description:
          "A new run of the same flow: the nodes not after `node_id` keep their states and outputs exactly as this run has them (copied, never run again; " +
          "a node that had not finished here starts afresh), and `node_id` and everything after it start afresh, `node_id` with `input` when given and its Worker " +
          "with `feedback` as a first feedback. Decisions in the copied part stay decided; later ones are asked anew. The original is not touched and may go on running. " +
          "Made in one transaction, recorded in the audit trail with the new run as its target. Operators may fork any run, the person who started it her own, " +
          "a reviewer a run from a node at or before a decision waiting for her. Every kind of run is forked, `run_id` being any front door's id (a pipeline's `RUN_...` too): " +
          "a YAML run's `input` is the run's `{message?, inputs?}`, a step run's its `{inputs?}`, checked against the definition the fork runs (neither takes a `feedback`); " +
          "a pipeline run is forked at `agent_<slug>` (the agent drafts afresh, or revises its parent's output with `feedback`) or `review_<slug>` (its review asked anew), " +
          "its `input` being `{brief?, context?}`, the earlier agents' artifact versions and approvals copied with their provenance.",
        parameters: [runIdParam],
        requestBody: body("ForkBody", { node_id: "summarise", input: { text: "a shorter text" }, version: "original" }),
        responses: {
          201: answer("The new run (with `forked_from`) and where the app shows it.", ref("Forked")),
          ...refusals({
            400: `${invalidJson400} Or a body that does not validate, an input for a Collector, a feedback for a node that is not a Worker, a node that runs per path named without its path, or text with NUL.`,
            403: "The caller may not fork this run (the message names the rule).",
            404: "No run with that id, or the run has no such node.",
            409: "The node never ran (pending, or skipped by a trigger rule); `latest` and the latest version lacks nodes the fork would copy (named); or a run of a front door that does not fork its runs yet.",
          }),
        },
      },
    },
    [paths.lineage.openapi]: {
      get: {
        operationId: "getRunLineage", summary: "A run's parent and forks",
        parameters: [runIdParam],
        responses: { 200: answer("Where the run was forked from (null for none) and its forks, oldest first.", ref("RunLineage")), ...refusals({ 404: "No run with that id." }) },
      },
    },
    [paths.compare.openapi]: {
      get: {
        operationId: "compareRuns", summary: "Compare two runs of one flow, of any front door",
        description:
          "Node by node, in the flow's order: each run's status, duration, who decided and output, whether they are the same, and what differs in the outputs (the structural and word diff inline review shows). " +
          "Each run is named by its id in its front door: a plain flow run's, a YAML or step workflow run's (a UUID, its engine run's own), or an agent pipeline run's `RUN_...` id (its engine run: per agent a Worker `agent_<slug>` and a review gate `review_<slug>`). " +
          "Each run answers with its `owner` (the front door and its id there). A run and its fork, or two forks of one run, are compared even when the fork runs another definition (a YAML workflow's latest version).",
        parameters: [
          { ...queryParam("a", "The first run's id: a UUID, or a pipeline run's `RUN_...` id.", { type: "string" }), required: true },
          { ...queryParam("b", "The second run's id, likewise.", { type: "string" }), required: true },
        ],
        responses: {
          200: answer("The comparison.", ref("RunComparison")),
          ...refusals({
            400: "`a` or `b` missing, or neither a UUID nor a `RUN_...` id (`invalid_query`, naming which).",
            404: "No run with one of the ids (the message names it).",
            409: "The runs are runs of different flows, and neither was forked from the other nor both from one run.",
          }),
        },
      },
    },
    [paths.forkFailed.openapi]: {
      post: {
        operationId: "forkFailedRuns", summary: "Fork every failed run of a flow at its failed node",
        description:
          "Operators: the runs of flow `definition` that failed at or after `since` (and are failed still), each forked at its failed node (the first on the graph) in its own transaction, " +
          "each fork in the audit trail. With `dry_run: true` nothing is forked: the runs are counted and named (the app's count before its confirmation).",
        requestBody: body("ForkFailedBody", { definition: "0b6f2a8e-54a5-4bde-9a55-1a3f0c7d2e11", since: "2026-11-29T08:00:00Z", dry_run: true }),
        responses: {
          200: answer("How many failed runs there are, and each with its fork or why it was not forked.", ref("ForkedFailures")),
          ...refusals({ 400: `${invalidJson400} Or a body that does not validate.`, 403: "Only operators fork failed runs at once.", 404: "No flow with that id." }),
        },
      },
    },
  });
}
