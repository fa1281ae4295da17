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

/** A stored flow. */
export const StitchFlow = z.object({
  id: z.string().uuid(),
  name: z.string(),
  graph: StitchGraph,
  created_at: z.string(),
  updated_at: z.string(),
});
export type StitchFlow = z.infer<typeof StitchFlow>;

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

/** A run: its flow, its own status and input, and every node's state. */
export const StitchRun = z.object({
  id: z.string().uuid(),
  flow_id: z.string().uuid(),
  owner: RunOwner.nullable(),
  status: RunStatus,
  input: z.unknown(),
  node_states: z.record(z.string(), NodeState),
  created_at: z.string(),
  updated_at: z.string(),
});
export type StitchRun = z.infer<typeof StitchRun>;

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
    feedback: z.string().trim().min(1, "feedback must not be empty when rejecting"),
    actor: z.string().optional(),
  }),
]);
export type ReviewBody = z.infer<typeof ReviewBody>;

/** A Worker's automatic retries, `data.retry`: attempts in all (the first included) and the wait before the second, doubled for each further one. */
export const WorkerRetry = z
  .object({
    maxAttempts: z.number().int().min(1).max(100),
    backoffMs: z.number().int().min(0).max(3_600_000).default(1000),
  })
  .strict();
export type WorkerRetry = z.infer<typeof WorkerRetry>;

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
  feedback: z.object({ text: z.string(), previousOutput: z.unknown(), round: z.number().int() }).optional(),
});
export type WorkerPayload = z.infer<typeof WorkerPayload>;
