/** What clients of the YAML workflows read and send (REST and tRPC), defined once as zod schemas; the types are inferred. */
import { z } from "zod";
import { ForkOf, ForkedFrom, StartedBy } from "../../engine/schemas";
import { LocatedIssue, RejectionOutcome, WorkflowDefinition } from "./definition";

export const RegisterBody = z.union([z.object({ yaml: z.string().min(1, "yaml must not be empty") }), z.string().min(1, "the YAML text must not be empty")]);

export const StartRunBody = z.object({
  message: z.string().max(100_000, "message must be at most 100000 characters").default(""),
  inputs: z.record(z.string(), z.unknown()).optional(),
});
export type StartRunBody = z.infer<typeof StartRunBody>;

export const ApproveBody = z.object({ comment: z.string().max(20_000).optional() });
export const RejectBody = z.object({ reason: z.string().max(20_000).optional() });
export const InputBody = z.object({ text: z.string().min(1, "text must not be empty").max(100_000) });
export const CancelBody = z.object({ reason: z.string().trim().max(2000, "reason must be at most 2000 characters").optional() });

export const NodeSummary = z.object({
  id: z.string(),
  kind: z.string(),
  depends_on: z.array(z.string()),
  trigger_rule: z.string(),
  output_type: z.string().nullable(),
});

export const RegisteredWorkflow = z.object({
  name: z.string(),
  version: z.number().int(),
  format: z.literal("yaml"),
  description: z.string(),
  tags: z.array(z.string()),
  nodes: z.array(NodeSummary),
  warnings: z.array(LocatedIssue),
  created_at: z.string(),
});
export type RegisteredWorkflow = z.infer<typeof RegisteredWorkflow>;

export const WorkflowDetail = RegisteredWorkflow.extend({
  source: z.string(),
  definition: WorkflowDefinition,
  versions: z.array(z.object({ version: z.number().int(), created_at: z.string() })),
});
export type WorkflowDetail = z.infer<typeof WorkflowDetail>;

export const NodeRunStatus = z.enum(["pending", "running", "completed", "failed", "skipped", "waiting_for_user", "cancelled"]);

export const NodeRunView = z.object({
  status: NodeRunStatus,
  kind: z.string(),
  output: z.string().nullable(),
  error: z.string().nullable(),
  skip_reason: z.string().nullable(),
  attempts: z.number().int(),
  output_type: z.string().nullable(),
  /** Who produced the output: `llm` (with the model), `offline` (the deterministic offline responder), or none for non-AI nodes. */
  responder: z.string().nullable(),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
});
export type NodeRunView = z.infer<typeof NodeRunView>;

export const WorkflowRunStatus = z.enum(["running", "waiting_for_user", "completed", "failed", "cancelled"]);

export const WorkflowRunView = z.object({
  id: z.string(),
  workflow: z.string(),
  version: z.number().int(),
  status: WorkflowRunStatus,
  cancel_reason: z.string().nullable(),
  message: z.string(),
  /** Who started the run (its engine run's starter; null when not known): she may cancel it, as an operator may any run. */
  started_by: StartedBy.nullable(),
  /** Where the run was forked from (null for a run started afresh), and the runs forked from it. */
  forked_from: ForkedFrom.nullable(),
  forks: z.array(ForkOf),
  nodes: z.record(z.string(), NodeRunView),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WorkflowRunView = z.infer<typeof WorkflowRunView>;

export const WorkflowRunSummary = WorkflowRunView.omit({ nodes: true, forked_from: true, forks: true });
export type WorkflowRunSummary = z.infer<typeof WorkflowRunSummary>;

/** One turn of a workflow run's conversation. */
export const WorkflowTurn = z.object({
  id: z.string(),
  at: z.string(),
  kind: z.enum(["message", "started", "output", "iteration", "skipped", "failed", "waiting", "approved", "rejected", "input", "cancelled", "retried", "resumed", "outcome", "forked"]),
  node_id: z.string().nullable(),
  node_kind: z.string().nullable(),
  text: z.string().nullable(),
  actor: z.string().nullable(),
  data: z.record(z.string(), z.unknown()).nullable(),
  /**
   * On an approval node's wait only: what requesting changes does now. `revise` runs its on_reject prompt and the node
   * waits again; `cancel` cancels the run (no on_reject, or its last allowed rejection).
   */
  on_reject: RejectionOutcome.optional(),
});
export type WorkflowTurn = z.infer<typeof WorkflowTurn>;

export const WorkflowConversation = z.object({ run: WorkflowRunView, turns: z.array(WorkflowTurn) });

/**
 * A run's results to keep: every completed node's output, and the outputs listed under the `output_type` labels
 * their nodes carry (a label several nodes share lists each of them, in the definition's order).
 */
export const WorkflowRunExport = z.object({
  run_id: z.string(),
  workflow: z.string(),
  version: z.number().int(),
  status: WorkflowRunStatus,
  message: z.string(),
  exported_at: z.string(),
  outputs: z.array(z.object({ node_id: z.string(), kind: z.string(), output_type: z.string().nullable(), responder: z.string().nullable(), output: z.string() })),
  by_output_type: z.record(z.string(), z.array(z.object({ node_id: z.string(), output: z.string() }))),
});
export type WorkflowRunExport = z.infer<typeof WorkflowRunExport>;
export type WorkflowConversation = z.infer<typeof WorkflowConversation>;
