/** What clients of the YAML workflows read and send (REST and tRPC), defined once as zod schemas; the types are inferred. */
import { z } from "zod";
import { DecidedBody, FailedBody, ForkedEvent, InputBody as TurnInputBody, OutcomeBody, OutputBody, ResumedEvent, RetriedEvent, SkippedBody, StartedBody, WaitingBody, turnOf } from "../../conversation/turn";
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

/** A YAML run's fork opens with where it came from, and also names the nodes it copied (they did not run again). */
const YamlForkedEvent = ForkedEvent.extend({
  value: z.null().describe("Always null: a YAML fork's input (its message and inputs) is told by its own input turn."),
  copied: z.array(z.string()).describe("The nodes copied from the run it was forked from, with their outputs: they did not run again in the fork."),
});

/**
 * One turn of a workflow run's conversation, in the one turn vocabulary (server/conversation/turn.ts): `node.type` is
 * the YAML node's kind (prompt, command, bash, script, loop, approval, cancel). What only a YAML run tells is in the
 * bodies: a run's named inputs beside its message, an AI node's responder and model, a loop's iteration, an
 * approval's revision feedback, what requesting changes does at a wait, an approval with the reviewer's edits, and
 * the nodes a fork copied.
 */
export const WorkflowTurn = z.discriminatedUnion("kind", [
  turnOf("input", TurnInputBody.extend({
    value: z.string().describe("The run's message (empty when it was started without one)."),
    inputs: z.record(z.string(), z.unknown()).nullable().describe("The run's named inputs; null when none were given."),
  })),
  turnOf("started", StartedBody),
  turnOf("output", OutputBody.extend({
    value: z.string().describe("The node's output as text (JSON as its text)."),
    iteration: z.number().int().nullable().describe("On a loop's iteration: its number (its attempt is the node's attempt); null for a node's output."),
    prompt: z.string().nullable().describe("On a loop's iteration: the prompt it was given."),
    output_type: z.string().nullable().describe("The node's `output_type` label."),
    responder: z.string().nullable().describe("Who answered an AI node: `llm` (with the model), `offline` (the deterministic offline responder); null for other nodes."),
    model: z.string().nullable().describe("The model that answered, when an LLM did."),
    feedback: z.string().nullable().describe("On an approval's revision by its on_reject prompt: the reviewer's reason it revised after."),
  })),
  turnOf("failed", FailedBody),
  turnOf("skipped", SkippedBody),
  turnOf("waiting", WaitingBody.extend({
    value: z.string().nullable().describe("On an interactive loop's wait: the iteration's answer it asks about; null on an approval's."),
    on_reject: RejectionOutcome.nullable().describe(
      "On an approval's wait: what requesting changes does now. `revise` runs its on_reject prompt and the node waits again; " +
        "`cancel` cancels the run (no on_reject, or its last allowed rejection). Null on an interactive loop's wait.",
    ),
  })),
  turnOf("decided", DecidedBody.extend({
    value: z.null().describe("Always null: a YAML node's decisions give it no value (an approval's comment, a reply, are `text`)."),
    edited: z.boolean().describe("On an approval: it passed on the reviewer's edited version of the output it reviewed (the later nodes read it)."),
    cancelled_run: z.boolean().describe("On a request for changes: it cancelled the run (no on_reject, or its last allowed rejection)."),
    limit: z.number().int().nullable().describe("On a request for changes that cancelled the run: the on_reject max_attempts it reached; null without on_reject."),
  })),
  // A person's retry of a node, a resumption, and where a fork came from; a run's own forks are its view's `forks`.
  turnOf("system", z.discriminatedUnion("event", [RetriedEvent, ResumedEvent, YamlForkedEvent])),
  turnOf("outcome", OutcomeBody),
]);
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
