/**
 * Decisions: every time a run waits for a person, one record of it, whichever front door owns the run. Defined once
 * here; the store parses rows with these schemas and the doors answer them.
 */
import { z } from "zod";
import { OnOverdue, type StartedBy } from "../engine/schemas";

export const DecisionKind = z.enum(["review", "approval", "answer", "completion"]);
export type DecisionKind = z.infer<typeof DecisionKind>;

export const DecisionState = z.enum(["open", "decided", "expired", "cancelled"]);
export type DecisionState = z.infer<typeof DecisionState>;

export const DecisionFrontDoor = z.enum(["pipeline", "yaml", "steps", "flow"]);
export type DecisionFrontDoor = z.infer<typeof DecisionFrontDoor>;

/** How a decision closed: a person's approval, request for changes or rejection, answer or completion; or the run's end. */
export const DecisionOutcome = z.enum(["approve", "request_changes", "reject", "answer", "complete", "cancelled"]);
export type DecisionOutcome = z.infer<typeof DecisionOutcome>;

/**
 * Why nobody can take a decision: its assignee cannot sign in (`assignee_inactive`), nobody has its role
 * (`no_one_with_role`), only whoever started the run has it and separation of duties keeps them out (`separation`),
 * or fewer people may approve than its approvals need (`quorum`). Each has its fix (invite someone, assign it to
 * someone who can, or allow self-approval); none is applied silently.
 */
export const UndecidableCause = z.enum(["assignee_inactive", "no_one_with_role", "separation", "quorum"]);
export type UndecidableCause = z.infer<typeof UndecidableCause>;

/** Whether anyone can take a decision now (decidability.ts), and if not why. */
export type Decidability = { decidable: true } | { decidable: false; cause: UndecidableCause; reason: string };

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
  /** The approvals given so far ("1 of 2: approved by Rita Ramos"); once decided, every approval that passed it. */
  approvals: z.array(z.object({ by: z.string(), at: z.string() })),
  /** Whether the account that started the run may decide it (`self_approval`, or the instance policy where the definition is silent). */
  self_approval: z.boolean(),
  /** Whether anyone can take it now (always true once closed); when not, `undecidable` says why. */
  decidable: z.boolean(),
  undecidable: z.object({ cause: UndecidableCause, reason: z.string() }).nullable(),
  /** What the due time does when it passes (null: it only marks the decision overdue). */
  on_overdue: OnOverdue.nullable(),
  decided_by: z.string().nullable(),
  decided_at: z.string().nullable(),
  outcome: DecisionOutcome.nullable(),
});
export type Decision = z.infer<typeof Decision>;

/**
 * What the inbox asks for. `view`: `mine` assigned to the caller, `role` those a role the caller has may take,
 * `unassigned` assigned to no person, `overdue` past their due time, `undecidable` open ones nobody can take (what
 * needs an operator), `decided` those the caller took, `all` every one
 * (open and closed unless `state` says otherwise).
 */
export const DecisionListQuery = z.object({
  view: z.enum(["mine", "role", "unassigned", "overdue", "undecidable", "decided", "all"]).default("role"),
  state: z.enum(["open", "decided", "all"]).optional(),
  run_id: z.string().min(1).max(200).optional(),
  q: z.string().trim().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(200).optional(),
});
export type DecisionListQuery = z.infer<typeof DecisionListQuery>;

export const DecisionPage = z.object({ items: z.array(Decision), next_cursor: z.string().nullable(), open_for_me: z.number().int(), undecidable: z.number().int() });
export type DecisionPage = z.infer<typeof DecisionPage>;

/** One approval of a decision that needs several (`approvals: N`): who, as named then, and when. */
export const Approval = z.object({ account_id: z.string().uuid().nullable(), by: z.string(), at: z.string() });
export type Approval = z.infer<typeof Approval>;

/** A decision about to open, as its front door's projection and the node's decision rules describe it. */
export interface OpenedDecision {
  engineRunId: string;
  nodeKey: string;
  frontDoor: DecisionFrontDoor;
  runId: string;
  kind: DecisionKind;
  title: string;
  context: string;
  startedBy: StartedBy | null;
  selfApproval: boolean;
  /** Whether `selfApproval` is the instance policy's (the definition set none): it then follows the policy while open. */
  selfApprovalByPolicy: boolean;
  decidability: Decidability;
  assignee: { role: string; accountId: string | null; name: string | null };
  approvalsNeeded: number;
  onOverdue: OnOverdue | null;
  dueInMs: number | null;
  remindInMs: number | null;
  reviewed?: unknown;
}

/** What can happen to a decision, as its run's conversation tells it. */
export const DecisionEventType = z.enum(["opened", "claimed", "released", "assigned", "approved", "reminded", "overdue", "escalated", "undecidable", "decidable", "decided", "expired", "cancelled"]);
export type DecisionEventType = z.infer<typeof DecisionEventType>;

/** An event's particulars: to whom it went (assigned, escalated, opened), an approval's count, an outcome, a reason. */
export const DecisionEventDetail = z
  .object({
    assignee: z.object({ kind: z.enum(["account", "role"]), name: z.string().nullable(), role: z.string() }).optional(),
    approvals: z.number().int().optional(),
    approvals_needed: z.number().int().optional(),
    outcome: DecisionOutcome.optional(),
    due_at: z.string().nullable().optional(),
    reason: z.string().optional(),
  })
  .strict();
export type DecisionEventDetail = z.infer<typeof DecisionEventDetail>;

/** One event of a run's decisions, for its conversation: "Rita Ramos claimed Review Requirements v2", "1 of 2: approved by Rita Ramos". */
export const DecisionActivity = z.object({
  id: z.number().int(),
  decision_id: z.string().uuid(),
  node_id: z.string(),
  title: z.string(),
  type: DecisionEventType,
  /** Who did it; null when the system did (a deadline, the run's end). */
  by: z.object({ id: z.string().uuid().nullable(), name: z.string().nullable() }).nullable(),
  detail: DecisionEventDetail,
  at: z.string(),
});
export type DecisionActivity = z.infer<typeof DecisionActivity>;

/** `GET /api/decisions/activity?run_id=`: a run's decision activity, by the front door's id of the run. */
export const DecisionActivityQuery = z.object({ run_id: z.string().min(1).max(200) });
export const DecisionActivityList = z.object({ items: z.array(DecisionActivity) });

/**
 * `POST /api/decisions/{id}/decide`: the outcome, taken through the front door that owns the decision with its rules.
 * `comment`: an approval's comment, or the feedback of a request for changes or the reason of a rejection; `text`: an
 * answer to a question, or a gate's completion (its output).
 */
export const DecideBody = z
  .object({
    outcome: z.enum(["approve", "request_changes", "reject", "answer"]),
    comment: z.string().max(20_000).optional(),
    text: z.string().max(100_000).optional(),
  })
  .strict();
export type DecideBody = z.infer<typeof DecideBody>;

/** Who decides, claims or assigns: the caller as the doors identified them (an Identity is one). */
export interface Decider {
  accountId: string | null;
  name: string | null;
  role: "analyst" | "reviewer" | "operator" | null;
  /** The system itself (a decision's deadline deciding its `on_overdue` outcome): no person's rule applies. */
  system?: true;
}

/** How the system is named when a deadline decides: "Approved by the deadline". */
export const DEADLINE: Decider = { accountId: null, name: "the deadline", role: "operator", system: true };

/** An operator's assignment: to one account (by id), or back to everyone with a role. */
export const AssignBody = z.union([
  z.object({ account_id: z.string().uuid("account_id must be an account's id") }).strict(),
  z.object({ role: z.enum(["analyst", "reviewer", "operator"]) }).strict(),
]);
export type AssignBody = z.infer<typeof AssignBody>;
