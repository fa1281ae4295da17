/**
 * The designer's API for plain flows, defined once as zod schemas: saving, restoring and importing versions, a
 * person's draft, the check of a graph as it is drawn, and the diff between two versions. REST and tRPC parse with
 * these, and the OpenAPI document is converted from them.
 */
import { z } from "zod";
import { FlowVersionSummary, StartRunBody, StitchEdge, StitchGraph } from "../engine/schemas";
import { TextPiece } from "../review/schemas";

const version = z.number().int().positive();
const message = z.string().trim().min(1, "message must say what changed in this version").max(2000, "message must be at most 2000 characters");

/** Saving a graph as the flow's next version. */
export const SaveVersionBody = z.object({
  graph: StitchGraph,
  message,
  base_version: z
    .number()
    .int()
    .nonnegative()
    .describe("The version the graph was drawn from (0 for a new flow's first save). When it is no longer the latest, the save is refused with 409 and the diff."),
  origin: z
    .enum(["save", "import"])
    .default("save")
    .describe("`import`: the graph was imported (pasted or uploaded React Flow JSON) rather than drawn; the audit trail and the version say so."),
  name: z.string().trim().min(1).max(200).optional().describe("A new flow's name, for its first save (base_version 0); ignored otherwise."),
});
export type SaveVersionBody = z.infer<typeof SaveVersionBody>;

/** Restoring an old version: a new version with its graph. */
export const RestoreVersionBody = z.object({
  base_version: version.describe("The latest version as the person saw it: refused with 409 when another has been saved since."),
  message: message.optional().describe('What to say of the new version; "Restored version N" when absent.'),
});
export type RestoreVersionBody = z.infer<typeof RestoreVersionBody>;

/** A run of a plain flow: its input, and the version to run (the latest when absent). */
export const StartFlowRunBody = StartRunBody.extend({
  version: version.optional().describe("The flow's version to run; its latest when absent. The run keeps it to its end, whatever is saved meanwhile."),
});
export type StartFlowRunBody = z.infer<typeof StartFlowRunBody>;

export const CheckGraphBody = z.object({ graph: StitchGraph });
export type CheckGraphBody = z.infer<typeof CheckGraphBody>;

export const GraphProblem = z.object({
  node_id: z.string().optional().describe("The node the problem is on, when it is on one."),
  edge_id: z.string().optional().describe("The edge the problem is on, when it is on one."),
  field: z.string().optional().describe("The node's `data` field at fault, when one is."),
  message: z.string(),
});

export const GraphCheck = z
  .object({ problems: z.array(GraphProblem).describe("Empty when storing would accept the graph as a flow or version.") })
  .describe("What storing the graph would refuse; nothing is stored.");
export type GraphCheck = z.infer<typeof GraphCheck>;

/** A person's draft as it is kept: a drawing in progress, problems and all. */
export const FlowDraftBody = z.object({
  graph: StitchGraph,
  base_version: z.number().int().nonnegative().describe("The version the draft was started from; 0 for a flow not saved yet."),
  name: z.string().trim().min(1).max(200).optional().describe("The flow's name; required for a new flow's draft (no flow has its id yet)."),
});
export type FlowDraftBody = z.infer<typeof FlowDraftBody>;

export const FlowDraft = z.object({
  flow_id: z.string().uuid(),
  name: z.string(),
  graph: StitchGraph,
  base_version: z.number().int().nonnegative(),
  /** True when no flow has this id yet: the draft's first save creates it. */
  new_flow: z.boolean(),
  updated_at: z.string(),
});
export type FlowDraft = z.infer<typeof FlowDraft>;

export const DiffQuery = z.object({
  from: z.coerce.number().int().nonnegative().describe("The older version (0: the empty graph)."),
  to: z.coerce.number().int().positive().describe("The newer version."),
});
export type DiffQuery = z.infer<typeof DiffQuery>;

const position = z.object({ x: z.number(), y: z.number() });
const nodeRef = z.object({ id: z.string(), type: z.string(), label: z.string() });

/** One field of a node that differs: word-level pieces when both sides are text. */
export const FieldChange = z.object({
  field: z.string().describe("`type`, or a `data` field (a nested one by its dot path, as `retry.maxAttempts`)."),
  change: z.enum(["added", "removed", "changed"]),
  before: z.unknown(),
  after: z.unknown(),
  pieces: z.array(TextPiece).optional().describe("Both sides text: the words kept, deleted and inserted."),
});
export type FieldChange = z.infer<typeof FieldChange>;

export const FlowDiff = z
  .object({
    from: z.number().int().nonnegative(),
    to: z.number().int().positive(),
    nodes: z.object({
      added: z.array(nodeRef),
      removed: z.array(nodeRef),
      moved: z.array(nodeRef.extend({ from: position, to: position })),
      changed: z.array(nodeRef.extend({ fields: z.array(FieldChange) })),
    }),
    edges: z.object({
      added: z.array(StitchEdge).describe("Connections in the newer version only (an edge is its source and target, with their handles)."),
      removed: z.array(StitchEdge),
    }),
  })
  .describe("What changed from one version of a flow to another: nodes (by id) added, removed, moved and changed, field by field; edges added and removed.");
export type FlowDiff = z.infer<typeof FlowDiff>;

/** A save refused because another version was saved since the one it started from: what it was, and what changed. */
export const StaleVersion = z.object({
  latest: FlowVersionSummary,
  diff: FlowDiff.describe("From the version the save started from to the latest."),
});
export type StaleVersion = z.infer<typeof StaleVersion>;
