/**
 * The engine's data, defined once as zod schemas; every TypeScript type of the engine is inferred from here.
 * Field names are the ones flow designers (React Flow) and existing workers already use.
 */
import { z } from "zod";

export const NodeType = z.enum(["UX", "Worker", "Splitter", "Collector"]);
export type NodeType = z.infer<typeof NodeType>;

/** The configuration a flow designer writes into a node's `data` (webhookUrl, arrayPath, gate, retry, ...). */
export const NodeConfig = z.record(z.string(), z.unknown());
export type NodeConfig = z.infer<typeof NodeConfig>;

/** A node of a flow graph, in React Flow's shape. */
export const StitchNode = z.object({
  id: z.string().min(1, "node id must not be empty"),
  type: NodeType,
  position: z.object({ x: z.number(), y: z.number() }),
  data: NodeConfig,
});
export type StitchNode = z.infer<typeof StitchNode>;

/** An edge of a flow graph (React Flow writes `null` for absent handles, so null is accepted and means absent). */
export const StitchEdge = z.object({
  id: z.string().min(1, "edge id must not be empty"),
  source: z.string().min(1),
  target: z.string().min(1),
  sourceHandle: z.string().nullish(),
  targetHandle: z.string().nullish(),
});
export type StitchEdge = z.infer<typeof StitchEdge>;

/** A flow's graph, stored as one JSONB value and immutable once stored. */
export const StitchGraph = z.object({
  nodes: z.array(StitchNode),
  edges: z.array(StitchEdge),
});
export type StitchGraph = z.infer<typeof StitchGraph>;

/** A stored flow: its latest version's graph, and that version's number. */
export const StitchFlow = z.object({
  id: z.string().uuid(),
  name: z.string(),
  graph: StitchGraph,
  version: z.number().int().positive().describe("The latest version's number: `graph` is that version's."),
  created_at: z.string(),
  updated_at: z.string(),
});
export type StitchFlow = z.infer<typeof StitchFlow>;

/** How a version came to be: the flow's creation, a save, a restore of an older version, an imported graph, or a front door registering its flow at start-up. */
export const FlowVersionOrigin = z.enum(["create", "save", "restore", "import", "register"]);
export type FlowVersionOrigin = z.infer<typeof FlowVersionOrigin>;

/** One version of a flow, as listed: everything but its graph. */
export const FlowVersionSummary = z.object({
  flow_id: z.string().uuid(),
  version: z.number().int().positive(),
  message: z.string(),
  origin: FlowVersionOrigin,
  restored_from: z.number().int().positive().nullable().describe("The version a restore copied; null otherwise."),
  author: z.object({ id: z.string().uuid().nullable(), name: z.string().nullable() }).nullable().describe("Who saved it (an account's id and name); null when no one signed in did."),
  created_at: z.string(),
});
export type FlowVersionSummary = z.infer<typeof FlowVersionSummary>;

/** One version of a flow, immutable once stored. */
export const FlowVersion = FlowVersionSummary.extend({ graph: StitchGraph });
export type FlowVersion = z.infer<typeof FlowVersion>;

// ---- The engine's vocabulary: what a node's `data` asks of the engine ---------------------------

/** The readiness rules of nodes that fire once every dependency has settled (completed, failed, skipped or cancelled). */
export const TriggerRule = z.enum(["all_success", "one_success", "none_failed_min_one_success", "all_done"]);
export type TriggerRule = z.infer<typeof TriggerRule>;

/** A Worker's automatic retries, `data.retry`: attempts in all (the first included) and the wait before the second, doubled for each further one. */
export const WorkerRetry = z
  .object({
    maxAttempts: z.number().int().min(1).max(100),
    backoffMs: z.number().int().min(0).max(3_600_000).default(1000),
  })
  .strict();
export type WorkerRetry = z.infer<typeof WorkerRetry>;

/** A Worker that loops: each iteration ends in an event; an interactive loop waits for the user between iterations. */
export const NodeLoop = z.object({ interactive: z.boolean().default(false) }).strict();
export type NodeLoop = z.infer<typeof NodeLoop>;

/** A duration as people write it: `90s`, `30m`, `4h`, `2d`. */
export const Duration = z
  .string()
  .regex(/^[1-9][0-9]{0,6}[smhd]$/, 'a duration such as "90s", "30m", "4h" or "2d"')
  .describe('a duration such as "90s", "30m", "4h" or "2d"');
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
/** A Duration in milliseconds. */
export const durationMs = (duration: string): number => Number(duration.slice(0, -1)) * UNIT_MS[duration.slice(-1) as keyof typeof UNIT_MS];

/** Who decides in place of the assignee when a decision's due time passes, or which outcome the deadline decides. */
export const OnOverdue = z.union([
  z.object({ escalate: z.string().trim().min(1) }).strict(),
  z.object({ outcome: z.enum(["approve", "reject", "cancel"]), reason: z.string().trim().min(1).max(2000).optional() }).strict(),
]);
export type OnOverdue = z.infer<typeof OnOverdue>;

/**
 * Who decides a gate, and by when: the same five fields in a Stitch UX gate's `data`, a YAML `approval:` mapping or
 * interactive `loop:`, and a pipeline agent's definition. The engine carries them; the decisions a gate opens obey them.
 * `assignee`: a role (`reviewer`, `operator`, `analyst`) or an account's email; `approvals`: distinct people who must
 * approve; `self_approval`: whether whoever started the run may decide; `due_in` and `on_overdue`: the deadline.
 */
export const DecisionRules = z.object({
  assignee: z
    .union([z.enum(["analyst", "reviewer", "operator"]), z.string().trim().max(320).email()])
    .optional()
    .describe("a role (reviewer, operator or analyst) or an account's email"),
  approvals: z.number().int().min(1).max(20).optional().describe("a whole number of distinct approvers, 1 to 20"),
  self_approval: z.boolean().optional().describe("true or false"),
  due_in: Duration.optional(),
  on_overdue: OnOverdue.optional().describe('{ escalate: <role or email> } or { outcome: approve | reject | cancel, reason?: <text> }'),
});
export type DecisionRules = z.infer<typeof DecisionRules>;

const milliseconds = z.number().int().positive().optional().describe("a positive whole number of milliseconds");
const name = (of: string) => z.string().min(1).optional().describe(`the name of ${of} (a non-empty string)`);
const flag = z.boolean().default(false).describe("true or false");

/**
 * The node features the engine acts on, compiled once from a node's `data` by compileGraph, which refuses a bad value
 * (naming the node, the key and what the key must be: each field's description) and a feature on a node it would
 * not apply to. The keys are `data`'s own. Every other key of `data` is the node's config for its worker, or a front
 * door's tag, which the engine passes on untouched; `data` itself reaches the worker as `config`, minus `webhookUrl`.
 */
export const NodeSpec = z.object({
  /** Worker without an executor: where its dispatches are POSTed. */
  webhookUrl: z.string().optional().describe("the worker's webhook URL (an http or https URL)"),
  /** Worker: this server performs its work, through the executor registered under this name, instead of a webhook. Approval gate: the work a rejection (and a precheck) runs. */
  executor: name("an executor of this server"),
  /** Worker: its dispatches are put on the wire by the dispatch adapter registered under this name. */
  protocol: name("a dispatch adapter"),
  /**
   * Worker: how it reports its result. `callback` (the default, the seed's protocol): it answers the dispatch at once and
   * POSTs the result to its callback URL later. `response`: it may put the result in its answer to the dispatch, as
   * a callback's body (`{status, output}`, n8n's "Respond to Webhook"), and the node completes or fails in the
   * delivery's own transaction, saving a request and a transaction per node; an answer of 202 still means "I will call
   * back".
   */
  answer: z.enum(["callback", "response"]).optional().describe('"callback" or "response"'),
  /** A dispatched attempt that has not called back within this time fails (or is retried). */
  timeoutMs: milliseconds,
  /**
   * How long one dispatch of the node's work may hold its lease, renewed by its process's heartbeat, before another
   * process may take it over (a process that died loses it sooner: DISPATCH_LEASE_MS after its last heartbeat). The
   * dispatcher reads it from the dispatch's `config` as a number, so a bad value must never reach it.
   */
  leaseMs: milliseconds,
  /** Worker: automatic retries of a failed attempt. */
  retry: WorkerRetry.optional().describe("{ maxAttempts: 1 to 100, backoffMs?: 0 to 3600000 }"),
  /** Worker: a loop, iterated by `iterate` events (and `input` events when interactive). */
  loop: NodeLoop.optional().describe("{ interactive?: true or false }"),
  /** Worker or UX: fires once every dependency has settled, by this rule, instead of once all completed. */
  triggerRule: TriggerRule.optional().describe(`one of ${TriggerRule.options.join(", ")}`),
  /** Returns to pending and runs again when its run is resumed, even when completed. */
  alwaysRun: flag,
  /** UX: a review gate (approve or reject the output of the Worker before it) or an approval gate (a person's decision). */
  gate: z.enum(["review", "approval"]).optional().describe(`"review" or "approval"`),
  /** Approval gate: approving completes it with the approver's comment as output (else ""). */
  captureResponse: flag,
  /** Approval gate with an executor: the executor first decides whether the gate waits at all, answering with a skip or a callback. */
  precheck: flag,
  /** Splitter: the dot path of the array in its input that it splits. */
  arrayPath: z.string().optional().describe('a dot path to the array in its input, such as "items"'),
  ...DecisionRules.shape,
});
export type NodeSpec = z.infer<typeof NodeSpec>;
/** What a front door may write into a node's `data` for the engine (before defaults). */
export type NodeSpecInput = z.input<typeof NodeSpec>;

/**
 * A node's status: pending, running, completed, failed and waiting_for_user, plus the ones the engine needs:
 * - `split`: a node inside a Splitter's scope; it runs once per path, as `nodeId_0`, `nodeId_1`, ...
 * - `skipped`: a node that will not run (a Splitter's scope when the array was empty).
 * - `cancelled`: the run was cancelled before the node finished.
 */
export const NodeStatus = z.enum(["pending", "running", "completed", "failed", "waiting_for_user", "split", "skipped", "cancelled"]);
export type NodeStatus = z.infer<typeof NodeStatus>;

/** One node's entry in a run's `node_states`. */
export const NodeState = z.object({
  status: NodeStatus,
  output: z.unknown(),
  error: z.string().optional(),
});
export type NodeState = z.infer<typeof NodeState>;

export const RunStatus = z.enum(["running", "waiting_for_user", "completed", "failed", "cancelled"]);
export type RunStatus = z.infer<typeof RunStatus>;

/**
 * The front door that owns a run: its commands are the only ones that change it (the engine's generic doors refuse,
 * 409). A plain flow's run has no owner.
 */
export const RunOwnerKind = z.enum(["pipeline", "yaml", "steps"]);
export type RunOwnerKind = z.infer<typeof RunOwnerKind>;
export const RunOwner = z.object({ front_door: RunOwnerKind, run_id: z.string() });
export type RunOwner = z.infer<typeof RunOwner>;

/** Who started a run: the account (its id, when there is one) and the name decisions and the app show. */
export const StartedBy = z.object({ id: z.string().uuid().nullable(), name: z.string().nullable() });
export type StartedBy = z.infer<typeof StartedBy>;

/** Which version of its flow a fork runs: the one the original ran (the default), or the flow's latest. */
export const ForkVersion = z.enum(["original", "latest"]);
export type ForkVersion = z.infer<typeof ForkVersion>;

/** Where a fork came from: the run and node it was forked at, by whom, when, and on which version. */
export const ForkedFrom = z.object({
  run_id: z.string().uuid().describe("The run it was forked from."),
  node_id: z.string().describe("The node it was forked at: that node and everything after it started afresh; the rest was copied."),
  by: StartedBy.nullable().describe("Who forked it."),
  at: z.string().describe("When."),
  version: ForkVersion.describe("`original`: the version the parent ran; `latest`: the flow's latest version then."),
  flow_version: z.number().int().positive().describe("The version of the flow the fork runs."),
});
export type ForkedFrom = z.infer<typeof ForkedFrom>;

/** A fork as its parent lists it: where it came from, and how it stands. */
export const ForkOf = ForkedFrom.omit({ run_id: true }).extend({ run_id: z.string().uuid().describe("The fork's own id."), status: RunStatus });
export type ForkOf = z.infer<typeof ForkOf>;

/** A run: its flow, its own status and input, and every node's state. */
export const StitchRun = z.object({
  id: z.string().uuid(),
  flow_id: z.string().uuid(),
  flow_version: z.number().int().positive().describe("The version of the flow the run started on, and runs on to its end."),
  owner: RunOwner.nullable(),
  status: RunStatus,
  input: z.unknown(),
  node_states: z.record(z.string(), NodeState),
  forked_from: ForkedFrom.nullable().describe("Where the run was forked from; null for a run started afresh."),
  forks: z.array(ForkOf).describe("The runs forked from this one, oldest first."),
  created_at: z.string(),
  updated_at: z.string(),
});
export type StitchRun = z.infer<typeof StitchRun>;

/** A flow as the list of flows shows it: its latest version, who saved it and when, its runs in progress, its last run. */
export const FlowListItem = z.object({
  id: z.string().uuid(),
  name: z.string(),
  version: z.number().int().positive().describe("The latest version's number."),
  saved_by: StartedBy.nullable().describe("Who saved the latest version; null when no one signed in did."),
  saved_at: z.string().describe("When the latest version was saved."),
  registered: z.boolean().describe("True for a flow a front door registered at start-up (the agent pipeline's, a workflow's): its versions are that front door's, and saving one is refused."),
  runs_in_progress: z.number().int().nonnegative().describe("Its runs still running or waiting for a person."),
  last_run: z
    .object({ id: z.string().uuid(), status: RunStatus, flow_version: z.number().int().positive(), created_at: z.string() })
    .nullable()
    .describe("Its newest run and how it stands (its outcome once it has ended); null when it has never run."),
  created_at: z.string(),
});
export type FlowListItem = z.infer<typeof FlowListItem>;

// ---- Events --------------------------------------------------------------------------------------

/**
 * The events that come to a run from outside (a person, a worker, a timer, an executor), each applied in one
 * transaction. Defined here because the run's event log stores them (type, node and the rest as payload): the store
 * reads a logged event back through this schema, so a replay of the log applies the very events that were applied.
 */
/**
 * A reviewer's comment on a part of an output, as a request for changes carries it to the work it re-runs: the part's
 * anchor (review/anchors.ts), how it is named, the text it quotes, and what should change there.
 */
export const ReviewedPartComment = z.object({ anchor: z.string(), label: z.string(), quote: z.string(), text: z.string() });
export type ReviewedPartComment = z.infer<typeof ReviewedPartComment>;

/**
 * One node row as a fork writes it into the new run (transition.ts `NodeRow`, every column): the rows it copies from the
 * original as they are, and those it starts afresh. The fork's event log keeps them, so the fork's history replays.
 */
/** A person's last decision on a node, as a fork copies it: who, which, when, and the run it was taken in. */
export const CopiedDecision = z.object({
  by: z.string().nullable(),
  decision: z.enum(["approve", "request_changes", "complete", "answer"]),
  at: z.string(),
  run_id: z.string().describe("The run the decision was taken in (a fork of a fork names the run it was first taken in)."),
});
export type CopiedDecision = z.infer<typeof CopiedDecision>;

/** A Worker's pending review feedback, as its node row keeps it (JSONB) until the revision is sent: the text, which round, the comments on parts. */
export const NodeFeedback = z.object({ text: z.string(), round: z.number().int(), comments: z.array(ReviewedPartComment).optional() });
export type NodeFeedback = z.infer<typeof NodeFeedback>;

export const ForkRow = z.object({
  key: z.string(),
  status: NodeStatus,
  output: z.unknown(),
  error: z.string().nullable(),
  input: z.unknown(),
  attempt: z.number().int(),
  pathTotal: z.number().int().nullable(),
  pathDone: z.number().int(),
  pathFailed: z.number().int(),
  feedback: NodeFeedback.nullable(),
  retryFrom: z.number().int(),
});
export type ForkRow = z.infer<typeof ForkRow>;

export const ExternalEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("start") }),
  /** `retryable: false`: the failure is final whatever the node's retry policy says (its executor knows it cannot pass). */
  z.object({
    type: z.literal("callback"), key: z.string(), status: z.enum(["completed", "failed"]), output: z.unknown().optional(), error: z.string().optional(),
    attempt: z.number().int().optional(), retryable: z.boolean().optional(),
  }),
  z.object({ type: z.literal("complete"), key: z.string(), output: z.unknown() }),
  /**
   * `comments`: a request for changes' comments on parts of the output (review/schemas.ts `SentComment`), passed on to
   * the work it re-runs. `output`: the reviewer's edited version of the output under review (graph.ts
   * `editedSourceOf`). A review gate approved with it completes with it instead of its input, and rejected with it has
   * its Worker revise that version; an approval gate approved with it replaces the output of the step before it.
   */
  z.object({
    type: z.literal("review"), key: z.string(), decision: z.enum(["approve", "reject"]), feedback: z.string().optional(), comments: z.array(ReviewedPartComment).optional(),
    output: z.unknown().optional(),
  }),
  z.object({ type: z.literal("retry"), key: z.string() }),
  z.object({ type: z.literal("delivery_failed"), key: z.string(), attempt: z.number().int(), error: z.string() }),
  /** A Worker with `data.timeoutMs` did not call back in time for the attempt the timer was set for. */
  z.object({ type: z.literal("timeout"), key: z.string(), attempt: z.number().int(), afterMs: z.number() }),
  /** A Worker with `data.retry` waited out its backoff after attempt `attempt` failed: fire the next attempt. */
  z.object({ type: z.literal("retry_due"), key: z.string(), attempt: z.number().int() }),
  /** The whole run stops: the shell hands `transition` every row of the run for it. */
  z.object({ type: z.literal("cancel"), reason: z.string().optional() }),
  /** A node's executor decided the node will not run (its condition was false): it becomes `skipped` with the reason. */
  z.object({ type: z.literal("skip"), key: z.string(), attempt: z.number().int(), reason: z.string() }),
  /** A loop node finished iteration `attempt` without its completion signal: the next iteration is fired (or, interactive, it waits for the user). */
  z.object({ type: z.literal("iterate"), key: z.string(), attempt: z.number().int(), output: z.unknown() }),
  /** A person answers an interactive loop waiting between iterations: the next iteration is fired with their text. */
  z.object({ type: z.literal("input"), key: z.string(), text: z.string() }),
  /** A failed or cancelled run goes on: failed, cancelled and skipped nodes return to pending and fire again, as do completed `data.alwaysRun` ones. Reads every row. */
  z.object({ type: z.literal("resume") }),
  /**
   * A Worker's work is set aside and it fires again from its input, as a new attempt (a late answer to the old one is
   * refused by its attempt): its running call is withdrawn, and the nodes after it that wait or have not run return
   * to pending. Refused once a node after it has finished. Reads every row.
   */
  z.object({ type: z.literal("restart"), key: z.string() }),
  /**
   * A fork's first event, in the new run (forkPlan.ts): its rows are seeded with `rows` (copied from run `from.run_id`,
   * or started afresh), then node `key` fires, with `input` when it was edited, and so do the rows in `fire`.
   */
  z.object({
    type: z.literal("fork"), key: z.string(), input: z.unknown().optional(), from: z.object({ run_id: z.string(), node_id: z.string() }),
    rows: z.array(ForkRow), fire: z.array(z.string()),
    /** The decisions of the copied nodes, by node: they stay decided, as who decided them, when and in which run. */
    decided: z.record(z.string(), CopiedDecision).optional(),
  }),
]);
export type ExternalEvent = z.infer<typeof ExternalEvent>;

// ---- What clients send --------------------------------------------------------------------------

/** A worker's callback. `attempt` is optional: when a worker echoes it, a stale callback is recognised. */
export const CallbackBody = z.object({
  status: z.enum(["completed", "failed"]),
  output: z.unknown().optional(),
  error: z.string().optional(),
  attempt: z.number().int().positive().optional(),
});
export type CallbackBody = z.infer<typeof CallbackBody>;

export const CreateFlowBody = z.object({
  name: z.string().trim().min(1, "name must not be empty"),
  graph: StitchGraph,
});
export type CreateFlowBody = z.infer<typeof CreateFlowBody>;

export const StartRunBody = z.object({ input: z.unknown().optional() });
export type StartRunBody = z.infer<typeof StartRunBody>;

export const ReviewBody = z.discriminatedUnion("decision", [
  z.object({ decision: z.literal("approve"), actor: z.string().optional() }),
  z.object({
    decision: z.literal("reject"),
    /** May be empty when open comments on parts of the output say what should change (the flows' review command checks). */
    feedback: z.string().trim().max(20_000).default(""),
    actor: z.string().optional(),
  }),
]);
export type ReviewBody = z.infer<typeof ReviewBody>;

/** Cancelling a run: an optional reason, recorded on every node it stops and in the run's event log. */
export const CancelBody = z.object({
  reason: z.string().trim().max(2000, "reason must be at most 2000 characters").optional(),
});
export type CancelBody = z.infer<typeof CancelBody>;

/** What a Worker receives: run, node, config, input and callback URL, plus `attempt` and, after a review rejection, `feedback`. */
export const WorkerPayload = z.object({
  runId: z.string(),
  nodeId: z.string(),
  config: NodeConfig,
  input: z.unknown(),
  callbackUrl: z.string(),
  attempt: z.number().int(),
  feedback: z.object({ text: z.string(), previousOutput: z.unknown(), round: z.number().int(), comments: z.array(ReviewedPartComment).optional() }).optional(),
});
export type WorkerPayload = z.infer<typeof WorkerPayload>;
