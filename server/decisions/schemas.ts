/**
 * Decisions: every time a run waits for a person, one record of it, whichever front door owns the run. Defined once
 * here; the store parses rows with these schemas and the doors answer them.
 */
import { z } from "zod";

export const DecisionKind = z.enum(["review", "approval", "answer", "completion"]);
export type DecisionKind = z.infer<typeof DecisionKind>;

export const DecisionState = z.enum(["open", "decided", "expired", "cancelled"]);
export type DecisionState = z.infer<typeof DecisionState>;

export const DecisionFrontDoor = z.enum(["pipeline", "yaml", "steps", "flow"]);
export type DecisionFrontDoor = z.infer<typeof DecisionFrontDoor>;

/** How a decision closed: a person's approval, request for changes or rejection, answer or completion; or the run's end. */
export const DecisionOutcome = z.enum(["approve", "request_changes", "reject", "answer", "complete", "cancelled"]);
export type DecisionOutcome = z.infer<typeof DecisionOutcome>;

export const Decision = z.object({
  id: z.string().uuid(),
  kind: DecisionKind,
  state: DecisionState,
  front_door: DecisionFrontDoor,
  /** The front door's id of the run: where its conversation is. */
  run_id: z.string(),
  /** The engine run and its node that waits. */
  engine_run_id: z.string().uuid(),
  node_id: z.string(),
  title: z.string(),
  /** What the run is about (a brief's domain, a workflow's message), as the inbox shows and searches it. */
  context: z.string(),
  started_by: z.object({ id: z.string().uuid().nullable(), name: z.string().nullable() }).nullable(),
  waiting_since: z.string(),
  due_at: z.string().nullable(),
  assignee: z.object({ kind: z.enum(["account", "role"]), id: z.string().nullable(), name: z.string().nullable(), role: z.string() }),
  approvals_needed: z.number().int().positive(),
  approvals: z.array(z.object({ by: z.string(), at: z.string() })),
  decided_by: z.string().nullable(),
  decided_at: z.string().nullable(),
  outcome: DecisionOutcome.nullable(),
});
export type Decision = z.infer<typeof Decision>;

/**
 * What the inbox asks for. `view`: `mine` assigned to the caller, `role` those a role the caller has may take,
 * `unassigned` assigned to no person, `overdue` past their due time, `decided` closed ones, `all` every one.
 */
export const DecisionListQuery = z.object({
  view: z.enum(["mine", "role", "unassigned", "overdue", "decided", "all"]).default("role"),
  state: z.enum(["open", "decided", "all"]).optional(),
  run_id: z.string().min(1).max(200).optional(),
  q: z.string().trim().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(200).optional(),
});
export type DecisionListQuery = z.infer<typeof DecisionListQuery>;

export const DecisionPage = z.object({ items: z.array(Decision), next_cursor: z.string().nullable(), open_for_me: z.number().int() });
export type DecisionPage = z.infer<typeof DecisionPage>;

/** What a front door's projection says when one of its nodes starts waiting for a person. */
export interface OpenedDecision {
  engineRunId: string;
  nodeKey: string;
  frontDoor: DecisionFrontDoor;
  runId: string;
  kind: DecisionKind;
  title: string;
  context: string;
  startedBy: { id: string | null; name: string | null } | null;
  /** Whether the account that started the run may take it (default: yes; the pipeline's reviews: no). */
  selfApproval?: boolean;
}

/** Who decides, claims or assigns: the caller as the doors identified them (an Identity is one). */
export interface Decider {
  accountId: string | null;
  name: string | null;
  role: "analyst" | "reviewer" | "operator" | null;
}

/** An operator's assignment: to one account (by id), or back to everyone with a role. */
export const AssignBody = z.union([
  z.object({ account_id: z.string().uuid("account_id must be an account's id") }).strict(),
  z.object({ role: z.enum(["analyst", "reviewer", "operator"]) }).strict(),
]);
export type AssignBody = z.infer<typeof AssignBody>;
