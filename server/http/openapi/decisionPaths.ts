/** The reviewer's inbox (server/http/decisionRoutes.ts): every decision a run waits for, whichever front door owns the run. */
import { DecisionActivityQuery, DecisionListQuery } from "../../decisions/schemas";
import { decisionPaths as paths } from "../paths";
import { requestJsonSchema } from "./components";
import { type Tag, answer, body, pathParam, queryParam, ref, refusals, tagged } from "./operations";

export const decisionTag: Tag = {
  name: "decisions",
  description:
    "Every time a run waits for a person (a pipeline output to review, a YAML approval or question, a flow's UX or review gate) there is a decision: " +
    "opened in the transaction of the event that made the run wait and closed in the one that ended the wait.",
};

const param = (name: keyof typeof DecisionListQuery.shape, description: string) => queryParam(name, description, requestJsonSchema(DecisionListQuery.shape[name]));

export function decisionPathItems() {
  return tagged(decisionTag, {
    [paths.decisions.openapi]: {
      get: {
        operationId: "listDecisions", summary: "The inbox: decisions waiting, or taken",
        description:
          "Newest wait first; page with `cursor` (the `next_cursor` of the page before). `open_for_me` counts the open decisions the caller may take " +
          "(those assigned to a role the caller's role covers, or to the caller), and `undecidable` the open decisions nobody can take (each such item " +
          "says why in its `undecidable`).",
        parameters: [
          param("view", "`mine` assigned to me, `role` for a role I have (default), `unassigned`, `overdue`, `undecidable` (open ones nobody can take), `decided` (those I took), `all`."),
          param("state", "`open` (the default, but `decided` for the `decided` view and `all` for the `all` view), `decided` (decided, expired or cancelled) or `all`."),
          param("run_id", "Only the decisions of this run (the front door's id of it)."),
          param("q", "Only decisions whose title or context (a brief's domain, a workflow's message) contains this text."),
          param("limit", "How many decisions, at most."),
          param("cursor", "The `next_cursor` of the page before."),
        ],
        responses: {
          200: answer("A page of decisions.", ref("DecisionPage")),
          ...refusals({ 400: "`invalid_query`: a parameter that does not validate (the message names it), or a cursor of another list." }),
        },
      },
    },
    [paths.activity.openapi]: {
      get: {
        operationId: "listDecisionActivity", summary: "What happened to a run's decisions",
        description:
          "Oldest first: each decision's opening (to whom, due when), claims, releases, assignments, approvals of several needed (\"1 of 2\"), " +
          "reminders, escalations and how it closed. Whoever did it is `by` (null: the system, such as a deadline).",
        parameters: [queryParam("run_id", "The run (the front door's id of it: a pipeline's RUN_..., a workflow's or a flow's run id).", requestJsonSchema(DecisionActivityQuery.shape.run_id))],
        responses: { 200: answer("The run's decision activity.", ref("DecisionActivityList")), ...refusals({ 400: "`invalid_query`: no run_id." }) },
      },
    },
    [paths.decision.openapi]: {
      get: {
        operationId: "getDecision", summary: "One decision",
        parameters: [pathParam("id", "The decision's id.", "uuid")],
        responses: { 200: answer("The decision.", ref("Decision")), ...refusals({ 404: "No decision with this id." }) },
      },
    },
    [paths.claim.openapi]: {
      post: {
        operationId: "claimDecision", summary: "Take a decision: it is yours until you release it",
        description: "Claiming again what is yours changes nothing. Of two reviewers claiming at once, one gets it and the other a 409 naming who has it.",
        parameters: [pathParam("id", "The decision's id.", "uuid")],
        responses: {
          200: answer("The decision, assigned to you.", ref("Decision")),
          ...refusals({
            403: "You may not take it: it is for another role, or you started its run and it does not allow self-approval (the message says who may).",
            404: "No decision with this id.",
            409: "It is claimed by someone else, it needs several approvers (so no one person can claim it), or nothing waits any more.",
          }),
        },
      },
    },
    [paths.release.openapi]: {
      post: {
        operationId: "releaseDecision", summary: "Give a claimed decision back to everyone with its role",
        parameters: [pathParam("id", "The decision's id.", "uuid")],
        responses: {
          200: answer("The decision, assigned to its role again.", ref("Decision")),
          ...refusals({ 403: "It is someone else's (only they, or an operator, may release it).", 404: "No decision with this id.", 409: "Nothing waits any more." }),
        },
      },
    },
    [paths.assign.openapi]: {
      post: {
        operationId: "assignDecision", summary: "Assign a decision to a person, or back to a role",
        description: "Operators only. `{account_id}` assigns it to an active account whose role may take it; `{role}` to everyone with that role.",
        parameters: [pathParam("id", "The decision's id.", "uuid")],
        requestBody: body("AssignDecisionBody", { account_id: "0b7c8f8e-8a33-4c55-9a57-3f1c2f9d1a01" }),
        responses: {
          200: answer("The decision, assigned.", ref("Decision")),
          ...refusals({
            400: "The body does not validate, or the account is not active or may not take it.",
            404: "No decision with this id.",
            409: "Nothing waits any more, or it needs several approvers (assign it to a role).",
          }),
        },
      },
    },
    [paths.decide.openapi]: {
      post: {
        operationId: "decideDecision", summary: "Take a decision, through the front door that owns it",
        description:
          "The same as the front door's own endpoint (pipeline approve/reject, workflow approve/reject/input, flow review/complete), with the same rules: " +
          "only its assignee (or, assigned to a role, anyone whose role covers it) may decide; with `self_approval: false` not whoever started the run; " +
          "with `approvals: N` each approval is recorded and the N-th distinct person's passes it, while one request for changes or rejection sends it back at once. " +
          "`approve` (with an optional `comment`), `request_changes` or `reject` (with the `comment` saying why) for reviews and approvals; " +
          "`answer` (with `text`) for a question or a gate to complete.",
        parameters: [pathParam("id", "The decision's id.", "uuid")],
        requestBody: body("DecideDecisionBody", { outcome: "request_changes", comment: "CAP-001 must limit a reservation to 3 days." }),
        responses: {
          200: answer("The decision afterwards: decided, or still open with one more approval.", ref("Decision")),
          ...refusals({
            400: "The body does not validate, the outcome is not one this decision takes, or a request for changes has no comment.",
            403: "You may not take it (the message says who may, or names the separation-of-duties rule).",
            404: "No decision with this id.",
            409: "Nothing waits any more, or you approved it already and it waits for someone else's approval.",
            422: "A pipeline review's request for changes with no comment and no open comment on a part of the output.",
          }),
        },
      },
    },
  });
}
