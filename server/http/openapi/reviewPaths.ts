/** Inline review (server/http/reviewRoutes.ts): the output a decision reviews, comments on its parts, drafts, edits and diffs. */
import { DiffQuery } from "../../review/schemas";
import { reviewPaths as paths } from "../paths";
import { requestJsonSchema } from "./components";
import { type Tag, answer, body, pathParam, queryParam, ref, refusals, tagged } from "./operations";

export const reviewTag: Tag = {
  name: "review",
  description:
    "Inline review of the output a decision reviews (a pipeline artifact, a YAML approval's output, a Stitch review gate's input). Every part of it has an " +
    "anchor: `core_capabilities[CAP-001]`, `epics[EP-1].user_stories[US-003]`, `assumptions[#2]` (an item without an id, by position), " +
    "`user_story_pseudocode[US-003]:L4` (a line), `P3` (a paragraph of a text output). Comments point at anchors; a request for changes sends the open " +
    "ones to the agent as `comments` and lists them in `feedback`.",
};

const decisionId = pathParam("id", "The decision's id.", "uuid");
const commentId = pathParam("id", "The comment's id.", "uuid");
const unknownDecision = "No decision with this id, or it reviews no output (a question).";

export function reviewPathItems() {
  return tagged(reviewTag, {
    [paths.output.openapi]: {
      get: {
        operationId: "getReviewedOutput", summary: "The output under review, and every part a comment can point at",
        description:
          "For a pipeline artifact `output` is the artifact (the envelope's `artifact`) and `claim` the agent's `changes_made` and `justification`. " +
          "`fields` is what the artifact type's schema names per record (`core_capabilities.*` for a list's items), so an editor offers a field no " +
          "item has yet; none for an output without a schema.",
        parameters: [decisionId],
        responses: { 200: answer("The output, its versions and its anchors.", ref("ReviewOutput")), ...refusals({ 404: unknownDecision }) },
      },
    },
    [paths.comments.openapi]: {
      get: {
        operationId: "listReviewComments", summary: "The comments on the output's parts, all rounds",
        description: "Each says whether its part is still there (`outdated`), where it is now (`current_anchor`) and whether it changed since it was written.",
        parameters: [decisionId],
        responses: { 200: answer("The comments, oldest first.", ref("ReviewCommentList")), ...refusals({ 404: unknownDecision }) },
      },
      post: {
        operationId: "addReviewComment", summary: "Comment on a part of the output under review, or reply to a comment",
        description: "Everyone who reads the run may comment (analysts too); only who may take the decision decides. `quote` must be text of the part.",
        parameters: [decisionId],
        requestBody: body("ReviewCommentBody", { anchor: "core_capabilities[CAP-001]", text: "A reservation must be limited to 3 days." }),
        responses: {
          201: answer("The comment.", ref("ReviewComment")),
          ...refusals({ 400: "The body does not validate, the anchor names no part of the version under review, or the quote is not its text.", 404: unknownDecision, 409: "The decision is closed (new threads go on the output waiting now)." }),
        },
      },
    },
    [paths.resolve.openapi]: {
      post: {
        operationId: "resolveReviewComment", summary: "Resolve a comment's thread",
        parameters: [commentId],
        responses: { 200: answer("The comment.", ref("ReviewComment")), ...refusals({ 403: "Only its author or a reviewer may.", 404: "No comment with this id." }) },
      },
    },
    [paths.reopen.openapi]: {
      post: {
        operationId: "reopenReviewComment", summary: "Re-open a comment's thread: the next request for changes sends it again",
        parameters: [commentId],
        responses: { 200: answer("The comment.", ref("ReviewComment")), ...refusals({ 403: "Only its author or a reviewer may.", 404: "No comment with this id." }) },
      },
    },
    [paths.draft.openapi]: {
      get: {
        operationId: "getReviewDraft", summary: "Your unsent feedback on this decision",
        parameters: [decisionId],
        responses: { 200: answer("The draft (empty text: none).", ref("ReviewDraft")), ...refusals({ 404: unknownDecision }) },
      },
      put: {
        operationId: "saveReviewDraft", summary: "Keep your unsent feedback, as typed (empty text erases it)",
        description: "One draft per person and decision. Not in the audit trail: what she sends is.",
        parameters: [decisionId],
        requestBody: body("ReviewDraftBody", { text: "CAP-001 is too vague" }),
        responses: { 200: answer("The draft.", ref("ReviewDraft")), ...refusals({ 400: "The body does not validate.", 404: unknownDecision }) },
      },
    },
    [paths.edit.openapi]: {
      post: {
        operationId: "editReviewedOutput", summary: "Save your edited version of the output under review",
        description:
          "A pipeline artifact, checked against its type's schema: a new version authored by you (never over the agent's), which the decision then " +
          "reviews; the next agent and the export read it. A Stitch review gate's or YAML approval's output (text or JSON): a new version by you, " +
          "which approving passes on (a YAML approval's replaces the output of the step before it, which the later steps read). Only who may " +
          "take the decision may edit it.",
        parameters: [decisionId],
        requestBody: body("ReviewEditBody", { output: { problem_statement_refined: "...", core_capabilities: [] }, note: "fixed a typo" }),
        responses: {
          200: answer("The output as it now stands.", ref("ReviewOutput")),
          ...refusals({
            400: "The output does not fit its schema (the message names each field), or it changes nothing.",
            403: "You may not take this decision (the message says who may).",
            404: unknownDecision,
            409: "The decision is closed, or this output is not edited here (a YAML approval after several steps or none).",
          }),
        },
      },
    },
    [paths.editCheck.openapi]: {
      post: {
        operationId: "checkReviewedOutputEdit", summary: "Check an edit as it is typed, by the rules saving it applies; nothing is saved",
        description:
          "Every problem that would refuse this edit (a pipeline artifact's schema, field by field; a text emptied), so an editor can say what " +
          "is wrong while the reviewer types. Not in the audit trail.",
        parameters: [decisionId],
        requestBody: body("ReviewEditBody", { output: { problem_statement_refined: "", core_capabilities: [] } }),
        responses: {
          200: answer("The problems, none when the edit can be saved.", ref("ReviewEditCheck")),
          ...refusals({ 400: "The body does not validate.", 404: unknownDecision }),
        },
      },
    },
    [paths.diff.openapi]: {
      get: {
        operationId: "diffReviewedOutput", summary: "What changed between two versions, and where the agent's claim disagrees",
        parameters: [
          decisionId,
          queryParam("against", "The older version (default: the one the newer revises).", requestJsonSchema(DiffQuery.shape.against)),
          queryParam("version", "The newer version (default: the one under review).", requestJsonSchema(DiffQuery.shape.version)),
        ],
        responses: { 200: answer("The structural and word-level diff.", ref("ReviewDiff")), ...refusals({ 400: "No such version, or nothing earlier to compare with.", 404: unknownDecision }) },
      },
    },
  });
}
