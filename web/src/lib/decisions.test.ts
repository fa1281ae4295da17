/** Who may take a decision, as the app hides or offers its controls: the server's rules, read from the decision's record. */
import { describe, expect, it } from "vitest";
import { decision } from "../testing/decisions";
import { signedIn } from "../testing/people";
import { mayDecide } from "./decisions";

describe("mayDecide", () => {
  const reviewer = signedIn("reviewer");
  it.each([
    ["a decision for the reviewer role, to a reviewer", decision({}), reviewer, true],
    ["the same, to an operator (whose role covers a reviewer's)", decision({}), signedIn("operator"), true],
    ["the same, to an analyst", decision({}), signedIn("analyst"), false],
    ["a decision for the operator role, to a reviewer", decision({ assignee: { kind: "role", id: null, name: null, role: "operator" } }), reviewer, false],
    ["one assigned to me", decision({ assignee: { kind: "account", id: reviewer.id, name: reviewer.name, role: "reviewer" } }), reviewer, true],
    ["one assigned to someone else, even to an operator", decision({ assignee: { kind: "account", id: "id-rita", name: "Rita", role: "reviewer" } }), signedIn("operator"), false],
    ["a pipeline review of the brief I submitted", decision({ started_by: { id: reviewer.id, name: reviewer.name } }), reviewer, false],
    ["a flow's gate on a run I started (self-approval allowed)", decision({ front_door: "flow", self_approval: true, started_by: { id: reviewer.id, name: reviewer.name } }), reviewer, true],
    ["a quorum I approved already", decision({ approvals_needed: 2, approvals: [{ by: reviewer.name, at: "2026-01-15T10:00:00.000Z" }] }), reviewer, false],
    ["a decided one", decision({ state: "decided" }), reviewer, false],
    ["anything, to no one signed in", decision({}), null, false],
  ])("%s", (_what, given, me, expected) => {
    expect(mayDecide(given, me)).toBe(expected);
  });
});
