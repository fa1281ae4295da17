/**
 * Forks and comparisons of runs, as REST (`/api/runs/...`) and tRPC (`engine.runs.fork`, ...) take and answer them:
 * defined once here as zod schemas, the types inferred; the OpenAPI document is converted from them.
 */
import { z } from "zod";
import { DiffChange } from "../review/schemas";
import { ForkOf, ForkVersion, ForkedFrom, NodeStatus, NodeType, RunOwner, RunStatus, StitchRun } from "../engine/schemas";

/** What a person may change when forking: the chosen node's input, the version, and a first feedback to its Worker. */
export const ForkBody = z
  .object({
    node_id: z.string().min(1, "node_id must name a node of the run").max(500),
    input: z.unknown().optional().describe("The chosen node's input, edited (a YAML workflow run's: the run's `{message?, inputs?}`; a step workflow run's: its `{inputs?}`; a pipeline run's: `{brief?, context?}`, the brief its agents read and earlier agents' artifacts by type); absent: the input it takes from the nodes before it (an entry node: the run's input)."),
    version: ForkVersion.default("original").describe("`original` (the default): the version the run ran; `latest`: the flow's latest version, its nodes matched by id."),
    feedback: z.string().trim().min(1, "feedback must not be blank; leave it out for none").max(20_000).optional().describe("A first feedback to the chosen Worker, sent with its first call (a pipeline agent revises its parent's output with it)."),
  })
  .strict();
export type ForkBody = z.infer<typeof ForkBody>;

/** A fork made: the new run, and where the app shows it. */
export const Forked = z.object({
  run: StitchRun,
  path: z.string().describe("Where the app shows the new run."),
});
export type Forked = z.infer<typeof Forked>;

/** A run's parent and forks. */
export const RunLineage = z.object({
  run_id: z.string().uuid(),
  forked_from: ForkedFrom.nullable(),
  forks: z.array(ForkOf),
});
export type RunLineage = z.infer<typeof RunLineage>;

/** Operators: the failed runs of a flow since a time, each forked at its failed node (`dry_run`: only counted). */
export const ForkFailedBody = z
  .object({
    definition: z.string().uuid("definition must be a flow's id"),
    since: z.string().datetime({ offset: true, message: "since must be a time such as 2026-11-29T08:00:00Z" }),
    dry_run: z.boolean().default(false).describe("True: answer the runs it would fork and fork none (the app's count before its confirmation)."),
  })
  .strict();
export type ForkFailedBody = z.infer<typeof ForkFailedBody>;

export const ForkedFailures = z.object({
  count: z.number().int().nonnegative().describe("How many failed runs there are (all of them forked, unless `dry_run`)."),
  runs: z.array(
    z.object({
      run_id: z.string().uuid(),
      node_id: z.string().nullable().describe("The failed node it is (or would be) forked at; null when the run has no failed node of its own to fork at."),
      fork: z.object({ run_id: z.string().uuid(), path: z.string() }).nullable().describe("The fork made; null on a dry run or when it was refused."),
      refused: z.string().nullable().describe("Why this run was not forked."),
    }),
  ),
});
export type ForkedFailures = z.infer<typeof ForkedFailures>;

/**
 * A run's id as any front door names it: a plain flow run's, a YAML or step workflow run's (a uuid, the engine run's
 * own), or a pipeline run's (`RUN_...`). Which run it is, if any, is the engine's to say (404 naming it).
 */
const AnyRunId = (name: string) =>
  z
    .string()
    .trim()
    .regex(/^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|RUN_[A-Za-z0-9]{1,64})$/i, `${name} must be a run's id: a flow or workflow run's uuid, or a pipeline run's RUN_... id`)
    .describe("A run's id: a flow, YAML or step workflow run's uuid, or a pipeline run's `RUN_...` id.");

export const CompareQuery = z.object({ a: AnyRunId("a"), b: AnyRunId("b") });

/** One of the two runs compared: the engine run, the front door that owns it and the id that door knows it by. */
const ComparedRun = z.object({
  id: z.string().uuid().describe("The engine run's id."),
  owner: RunOwner.nullable().describe("The front door that owns the run and its id there (a pipeline run's `RUN_...`); null for a plain flow run."),
  name: z.string().describe("The flow's name (a workflow's definition, the agent pipeline's flow)."),
  status: RunStatus,
  flow_version: z.number().int(),
  forked_from: ForkedFrom.nullable(),
});

/** One node of one run, as the comparison shows it. */
export const ComparedSide = z.object({
  status: NodeStatus,
  duration_ms: z.number().nullable().describe("From its (last) start to its end in this run; null while it runs, and for a node copied by a fork."),
  decided_by: z
    .object({ name: z.string().nullable(), decision: z.string(), at: z.string(), run_id: z.string().describe("The run it was decided in: this one, or for a node a fork copied, the run it was first decided in.") })
    .nullable()
    .describe("The last person's decision on it (a copied node's, as its fork copied it)."),
  copied_from: z.string().uuid().nullable().describe("A fork's node copied from its parent: the parent's id (it was decided, if at all, there)."),
  output: z.unknown(),
});

export const ComparedNode = z.object({
  node_id: z.string(),
  label: z.string(),
  node_type: NodeType.nullable(),
  a: ComparedSide.nullable().describe("Null when run a has no such node."),
  b: ComparedSide.nullable(),
  same: z.boolean().describe("Same status and the same output."),
  diff: z.array(DiffChange).nullable().describe("What differs from a's output to b's, part by part with word pieces; null when the outputs are equal."),
});
export type ComparedNode = z.infer<typeof ComparedNode>;

export const RunComparison = z.object({
  a: ComparedRun,
  b: ComparedRun,
  relation: z.enum(["parent", "child", "siblings", "same_definition"]).describe("How b relates to a: a's parent, a's fork, a fork of the same parent, or another run of the same flow (a fork of a YAML run on the workflow's latest version runs another definition, and is compared with its parent all the same)."),
  nodes: z.array(ComparedNode).describe("Every node of either run, in the flow's order."),
});
export type RunComparison = z.infer<typeof RunComparison>;
